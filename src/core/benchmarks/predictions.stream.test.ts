/**
 * Reading a prediction file through a streaming source (the CLI's and the worker's way), for the
 * benchmarks whose readers stream JSONL rows into the session: byte progress reaches the file's
 * size, and a cancelled run stops instead of reading on. (PulseBench-Select's reader has its own
 * test beside it; LTB's is in ltb/bigInput.test.ts.)
 */
import { statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeFolderSource } from '../../../cli/nodeSource';
import { HAS_SHARED, shared } from '../../../test/shared';
import { singleFileSource } from '../io/fileSource';
import type { BenchmarkId, Progress } from '../model';
import { BenchSession } from '../session';

const CASES: { title: string; benchmark: BenchmarkId; dataset: string; pred: string }[] = [
  { title: 'Chronicles-OCR', benchmark: 'chronicles', dataset: 'data/chronicles-mini', pred: 'data/chronicles-mini/infer_results/model-a/results.jsonl' },
  { title: 'TABench', benchmark: 'tabench', dataset: 'data/tabench-mini', pred: 'reference/tabench/thinker-7b-sim.jsonl' },
  { title: 'gansulishuzhi', benchmark: 'gansulishuzhi', dataset: 'data/gansulishuzhi-mini', pred: 'reference/gansulishuzhi/glm4v-sim.jsonl' },
];

describe.skipIf(!HAS_SHARED).each(CASES)('$title predictions, streamed', ({ benchmark, dataset, pred }) => {
  async function open() {
    const session = await BenchSession.open(nodeFolderSource(shared(dataset)), benchmark);
    const file = shared(pred);
    const input = { source: singleFileSource(nodeFolderSource(dirname(file)), basename(file)), path: basename(file), name: 'm' };
    return { session, input, size: statSync(file).size };
  }

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
