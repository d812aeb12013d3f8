import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/fileSource';
import { InputError } from '../../model';
import { BenchSession } from '../../session';
import { pulsebenchAdapter, type PulseDataset } from './index';

const row = (sample_id: unknown, gt: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ sample_id, ground_truth: typeof gt === 'string' ? gt : JSON.stringify(gt), ...extra });

describe('PulseBench-Select JSONL dataset rows', () => {
  it('takes the selected annotations as GT when selected_items is absent', async () => {
    const gt = {
      page_count: 2,
      annotations: [
        { category: 'List-item', content: 'Yes', page: 1, selected: true, selection_candidate: true },
        { category: 'List-item', content: 'No', page: 1, selected: false, selection_candidate: true },
        { category: 'Title', content: 'Form', page: 1, selected: false, selection_candidate: false },
        { category: 'Table-cell', text: 'Fever', page: '2', selected: true, selection_candidate: true },
      ],
    };
    const src = new MemorySource('d', { 'data/train.jsonl': row('a', gt) + '\n' });
    const d = (await pulsebenchAdapter.loadDataset(src)) as PulseDataset;
    const s = d.byId.get('a')!;
    expect(s.gt.map((g) => [g.content, g.page])).toEqual([
      ['Yes', 1],
      ['Fever', 2],
    ]);
    expect(s.candidates.map((c) => c.content)).toEqual(['No']);
    expect(s.categories).toEqual(['List-item', 'Table-cell', 'Title']);
    expect(s.pageCount).toBe(2);
  });

  it('partitions matching by page', async () => {
    const gt = { selected_items: [{ content: 'Yes', page: 1 }, { content: 'Yes', page: 2 }] };
    const src = new MemorySource('d', { 'data/train.jsonl': row('a', gt) + '\n' });
    const session = await BenchSession.open(src);
    const preds = new MemorySource('p', { 'm.jsonl': JSON.stringify({ sample_id: 'a', items: [{ content: 'yes', page: 2 }, { content: 'yes', page: 3 }] }) + '\n' });
    await session.addPredictions({ source: preds, path: 'm.jsonl', name: 'm' });
    const [r] = await session.score(session.resolveProtocol());
    expect([r.metrics.tp, r.metrics.fp, r.metrics.fn]).toEqual([1, 1, 1]);
    expect(r.cases[0].matches.map((m) => [m.gt, m.pred])).toEqual([[1, 0]]);
    expect(r.cases[0].pred[1].reason).toBe('no selected GT on page 3');
  });

  it('costs a bad row that row (listed), and refuses a file with no usable row', async () => {
    const good = row('ok', { selected_items: [{ content: 'x' }] });
    const src = new MemorySource('d', { 'data/train.jsonl': [good, row('bad', '{nope'), '{oops', row(null, {})].join('\n') + '\n' });
    const d = (await pulsebenchAdapter.loadDataset(src)) as PulseDataset;
    expect(d.samples.map((s) => s.id)).toEqual(['ok']);
    expect(d.info.warnings).toEqual([
      'data/train.jsonl line 3: not valid JSON',
      'data/train.jsonl line 2 (bad): ground_truth is not valid JSON',
      'data/train.jsonl line 4: no sample_id',
    ]);
    const empty = new MemorySource('d', { 'data/train.jsonl': row('bad', '{nope') + '\n' });
    await expect(pulsebenchAdapter.loadDataset(empty)).rejects.toThrow(InputError);
    await expect(pulsebenchAdapter.loadDataset(empty)).rejects.toThrow(/^data\/train\.jsonl: no usable PulseBench-Select sample/);
  });

  it('uses data/*.jsonl before root *.jsonl, and does not claim a folder without either', async () => {
    const src = new MemorySource('d', {
      'data/train.jsonl': row('in-data', { selected_items: [] }) + '\n',
      'other.jsonl': row('at-root', { selected_items: [] }) + '\n',
    });
    const d = (await pulsebenchAdapter.loadDataset(src)) as PulseDataset;
    expect(d.samples.map((s) => s.id)).toEqual(['in-data']);
    expect(await pulsebenchAdapter.detect(new MemorySource('x', { 'preds.jsonl': '{"sample_id": "a", "content": "x"}\n' }))).toBeNull();
    expect(await pulsebenchAdapter.detect(src)).toMatchObject({ benchmark: 'pulsebench-select', confidence: 0.9 });
    // A first row longer than the part peeked at is still recognised by its keys.
    const long = row('big', { selected_items: [], annotations: Array.from({ length: 2000 }, (_, i) => ({ content: `option ${i}`, bbox: [] })) });
    expect(long.length).toBeGreaterThan(65536);
    expect(await pulsebenchAdapter.detect(new MemorySource('x', { 'data/train.jsonl': long + '\n' }))).toMatchObject({ confidence: 0.8 });
  });
});
