/** GT corrections re-score "what if the GT were right"; the export writes Chronicles_OCR.jsonl back. */
import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/fileSource';
import { BenchSession } from '../../session';
import { chroniclesAdapter } from './index';
import type { ChroniclesDataset } from './gt';

const gt = [
  {
    image_path: 'images/金文/b.png',
    font_type: '金文',
    annotation: '唯王',
    width: 1000,
    height: 1000,
    spotting: [
      { bbox: { x1: 0, y1: 0, x2: 100, y2: 100 }, text: '唯' },
      { bbox: [200, 0, 100, 100], modern_char: '玉' },
    ],
  },
];
const pred = {
  image_path: 'images/金文/b.png',
  infer_results: {
    字符提取: { answer: '', extract: { extracted_text: '唯王' } },
    字符检测: {
      answer: '',
      extract: {
        items: [
          { idx: 1, bbox: [0, 0, 100, 100], char: '唯' },
          { idx: 2, bbox: [200, 0, 300, 100], char: '王' },
          { idx: 3, bbox: [500, 500, 600, 600], char: '年' },
        ],
      },
    },
  },
};

async function session() {
  const src = new MemorySource('c', {
    'data/Chronicles_OCR.jsonl': gt.map((r) => JSON.stringify(r)).join('\n') + '\n',
    'infer_results/m/results.jsonl': JSON.stringify(pred) + '\n',
  });
  const s = await BenchSession.open(src);
  await s.addBundledPredictions();
  return s;
}

describe('corrections', () => {
  it('fixing a character, adding a box and editing the text change the score; the original stays', async () => {
    const s = await session();
    const ds = s.dataset as ChroniclesDataset;
    const p = s.resolveProtocol();
    const [before] = await s.score(p);
    const spot = (r: typeof before) => r.cases.find((c) => c.task === 'spotting')!.score;
    expect(spot(before)).toBe(0.4); // tp 1, fp 2, fn 1

    const fixed = chroniclesAdapter.applyCorrections!(ds, [
      { case_id: 'images/金文/b.png#spotting', gt_id: 1, text: '王' },
      { case_id: 'images/金文/b.png#spotting', gt_id: null, shape: { type: 'box', box: [500, 500, 600, 600] }, text: '年' },
      { case_id: 'images/金文/b.png#parsing', gt_id: 0, text: '唯王元' },
    ]);
    const [after] = await s.score(p, undefined, undefined, fixed);
    expect(spot(after)).toBe(1);
    expect(after.cases.find((c) => c.task === 'parsing')!.score).toBeCloseTo(2 / 3, 15);
    expect(ds.rows[0].chars.map((c) => c.char)).toEqual(['唯', '玉']); // untouched
    expect(fixed.info.fingerprint).toBe(ds.info.fingerprint);

    const deleted = chroniclesAdapter.applyCorrections!(ds, [{ case_id: 'images/金文/b.png#spotting', gt_id: 1, deleted: true }]);
    expect(deleted.rows[0].chars.map((c) => c.char)).toEqual(['唯']);

    const out = chroniclesAdapter.exportGroundTruth!(fixed);
    expect(Object.keys(out)).toEqual(['data/Chronicles_OCR.jsonl']);
    const row = JSON.parse(out['data/Chronicles_OCR.jsonl'].trim());
    expect(row.annotation).toBe('唯王元');
    expect(row.spotting).toEqual([
      { bbox: { x1: 0, y1: 0, x2: 100, y2: 100 }, text: '唯' },
      { bbox: [200, 0, 100, 100], modern_char: '王' },
      { bbox: { x1: 500, y1: 500, x2: 600, y2: 600 }, text: '年' },
    ]);
    // The exported file is read back to the same GT.
    const again = await chroniclesAdapter.loadDataset(new MemorySource('e', out));
    expect(again.rows[0].chars.map((c) => [c.char, ...c.bbox])).toEqual(fixed.rows[0].chars.map((c) => [c.char, ...c.bbox]));
  });
});
