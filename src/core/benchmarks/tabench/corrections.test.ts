import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/fileSource';
import { BenchSession } from '../../session';
import type { TabenchDataset } from './dataset';
import { tabenchAdapter } from './index';
import { makeDemo } from './demo';

const R2T = {
  image_path: 'a.png',
  category: 'Book',
  task_type: 'R2T',
  question: 'What is the text at location [0, 0, 100, 50]?',
  bbox: [0, 0, 100, 50],
  GT: 'Helo',
  text: 'Helo',
};
const T2R = {
  image_path: 'a.png',
  category: 'Book',
  task_type: 'T2R',
  question: 'Where is "x" located in the image?',
  bbox: [[0, 0, 100, 50]],
  GT: { bbox: [0, 0, 100, 50], text: 'x' },
  text: 'x',
};

async function open(): Promise<BenchSession> {
  // Python-style spacing in the released file: untouched lines must come back byte for byte.
  const abs = `${JSON.stringify(R2T).replace(/,"/g, ', "')}\n${JSON.stringify(T2R).replace(/,"/g, ', "')}\n`;
  return BenchSession.open(new MemorySource('TABench', { 'TABench-abs.jsonl': abs }));
}

describe('TABench GT corrections and export', () => {
  it('exports the benchmark file unchanged when there is no correction', async () => {
    const s = await open();
    const original = new TextDecoder().decode(await s.source.read('TABench-abs.jsonl'));
    expect(tabenchAdapter.exportGroundTruth!(s.dataset as TabenchDataset)).toEqual({ 'TABench-abs.jsonl': original });
  });

  it('applies a text edit, a box move, an added and a deleted box, and scores the corrected copy', async () => {
    const s = await open();
    const ds = s.dataset as TabenchDataset;
    const fixed = tabenchAdapter.applyCorrections!(ds, [
      { case_id: '1', gt_id: 0, text: 'Hello', shape: { type: 'box', box: [0, 0, 120, 50] } },
      { case_id: '2', gt_id: null, shape: { type: 'box', box: [200, 0, 300, 50] } },
      { case_id: '2', gt_id: 0, deleted: true },
    ]);
    // The original is untouched.
    expect(ds.spaces.abs!.queries[0].gtText).toBe('Helo');
    expect(ds.spaces.abs!.queries[1].gtBoxes).toEqual([[0, 0, 100, 50]]);
    const out = tabenchAdapter.exportGroundTruth!(fixed)['TABench-abs.jsonl'].trim().split('\n').map((l) => JSON.parse(l));
    expect(out[0]).toMatchObject({ GT: 'Hello', text: 'Hello', bbox: [0, 0, 120, 50], question: 'What is the text at location [0, 0, 120, 50]?' });
    expect(out[1]).toMatchObject({ bbox: [[200, 0, 300, 50]], GT: { bbox: [200, 0, 300, 50], text: 'x' } });

    const preds = new MemorySource('p', {
      'm.jsonl': `${JSON.stringify({ ...R2T, prediction: 'Hello' })}\n${JSON.stringify({ ...T2R, prediction: '[[200, 0, 300, 50]]' })}\n`,
    });
    await s.addPredictions({ source: preds, path: 'm.jsonl', name: 'm' });
    const protocol = s.resolveProtocol();
    const [before] = await s.score(protocol);
    expect(before.metrics.overall).toBe(0);
    const [after] = await s.score(protocol, undefined, undefined, fixed);
    expect(after.metrics['r2t/accuracy']).toBe(1);
    expect(after.metrics['t2r/f1']).toBe(1);
  });

  it('drops an R2T query whose GT is deleted', async () => {
    const s = await open();
    const fixed = tabenchAdapter.applyCorrections!(s.dataset as TabenchDataset, [{ case_id: '1', gt_id: 0, deleted: true }]);
    expect(fixed.info.cases).toBe(1);
    expect(tabenchAdapter.exportGroundTruth!(fixed)['TABench-abs.jsonl'].trim().split('\n')).toHaveLength(1);
  });

  it('writes a pixel correction into the rel1000 file in 0–1000 space', async () => {
    const demo = await makeDemo();
    const s = await BenchSession.open(demo.source);
    const ds = s.dataset as TabenchDataset;
    const q = ds.spaces.rel1000!.queries.find((x) => x.task === 'T2R')!;
    const size = ds.imageSizes.get(q.image_path)!;
    const fixed = tabenchAdapter.applyCorrections!(ds, [{ case_id: q.id, gt_id: 0, shape: { type: 'box', box: [0, 0, size.width / 2, size.height / 4] } }]);
    const files = tabenchAdapter.exportGroundTruth!(fixed);
    const rel = files['TABench-rel1000.jsonl'].split('\n').map((l) => (l ? JSON.parse(l) : null));
    expect(rel[q.line - 1].bbox[0]).toEqual([0, 0, 500, 250]);
    const abs = files['TABench-abs.jsonl'].split('\n').map((l) => (l ? JSON.parse(l) : null));
    expect(abs[q.line - 1].bbox[0]).toEqual([0, 0, size.width / 2, size.height / 4]);
  });
});
