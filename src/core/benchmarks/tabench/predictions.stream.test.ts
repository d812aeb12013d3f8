/**
 * Reading a TABench prediction file through a streaming source (the CLI's and the worker's way): byte
 * progress reaches the file's size, and a cancelled run stops instead of reading on.
 */
import { statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeFolderSource } from '../../../../cli/nodeSource';
import { HAS_SHARED, shared } from '../../../../test/shared';
import { singleFileSource } from '../../io/fileSource';
import type { Progress } from '../../model';
import { BenchSession } from '../../session';

const DATASET = 'data/tabench-mini';
const PRED = 'reference/tabench/thinker-7b-sim.jsonl';

async function open() {
  const session = await BenchSession.open(nodeFolderSource(shared(DATASET)), 'tabench');
  const file = shared(PRED);
  const input = { source: singleFileSource(nodeFolderSource(dirname(file)), basename(file)), path: basename(file), name: 'm' };
  return { session, input, size: statSync(file).size };
}

describe.skipIf(!HAS_SHARED)('TABench predictions, streamed', () => {
  it('reports read progress in bytes up to the file size', async () => {
    const { session, input, size } = await open();
    const seen: Progress[] = [];
    await session.addPredictions(input, { progress: (p) => seen.push(p) });
    const bytes = seen.filter((p) => p.phase === 'read' && p.unit === 'bytes');
    expect(bytes.length).toBeGreaterThanOrEqual(2);
    expect(bytes[0].done).toBe(0);
    expect(bytes.at(-1)).toMatchObject({ done: size, total: size });
  });

  it('stops with an AbortError when the run is cancelled', async () => {
    const { session, input } = await open();
    const ac = new AbortController();
    ac.abort();
    await expect(session.addPredictions(input, { signal: ac.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(session.modelNames).toEqual([]);
  });
});
