/**
 * The prediction reader over a streaming source: byte progress, cancel, and the memory rule that
 * unselected predictions (drawn, never matched) carry no token set.
 */
import { describe, expect, it } from 'vitest';
import { chunkedSource } from '../../../../test/chunkedSource';
import type { Progress } from '../../model';
import { parsePredictionFile } from './predictions';

/** One file streamed in small chunks, as the Node and browser sources do with big files. */
const streamed = (text: string, chunk = 16) => chunkedSource({ 'p.jsonl': text }, chunk);

const TEXT =
  [
    { sample_id: 's1', selected_items: [{ content: 'Married filing jointly' }, { content: 'Single', selected: false }] },
    { sample_id: 's2', content: 'Email', selected: 'no' },
  ]
    .map((o) => JSON.stringify(o))
    .join('\n') + '\n';

describe('PulseBench-Select prediction reader, streamed', () => {
  it('reports read progress in bytes up to the file size', async () => {
    const seen: Progress[] = [];
    await parsePredictionFile(streamed(TEXT), 'p.jsonl', new Set(['s1', 's2']), { progress: (p) => seen.push(p) });
    const size = new TextEncoder().encode(TEXT).byteLength;
    expect(seen[0]).toMatchObject({ phase: 'read', unit: 'bytes', done: 0, total: size });
    expect(seen.at(-1)).toMatchObject({ done: size, total: size });
  });

  it('stops with an AbortError when cancelled', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(parsePredictionFile(streamed(TEXT), 'p.jsonl', new Set(['s1']), { signal: ac.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('tokenises selected predictions only', async () => {
    const { preds } = await parsePredictionFile(streamed(TEXT), 'p.jsonl', new Set(['s1', 's2']));
    const items = [...preds.bySample.values()].flat();
    expect(items.map((p) => [p.content, p.selected, [...p.tokens]])).toEqual([
      ['Married filing jointly', true, ['married', 'filing', 'jointly']],
      ['Single', false, []],
      ['Email', false, []],
    ]);
  });
});
