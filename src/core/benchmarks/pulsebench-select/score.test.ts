import { describe, expect, it } from 'vitest';
import type { PulseSample } from './dataset';
import { toItem } from './items';
import { DEFAULT_MATCH_OPTIONS } from './match';
import type { PredItem } from './predictions';
import { outcomeOf, scoreSample, selectionMetrics } from './score';

const c = (tp: number, fp: number, fn: number) => ({ tp, fp, fn, predicted: tp + fp, truth: tp + fn });

describe('PulseBench-Select metrics', () => {
  it('pools TP, FP and FN for micro precision, recall and F1', () => {
    const m = selectionMetrics([c(3, 1, 0), c(1, 0, 2), c(0, 0, 0)]);
    expect(m.tp).toBe(4);
    expect(m.fp).toBe(1);
    expect(m.fn).toBe(2);
    expect(m.precision).toBeCloseTo(4 / 5, 15);
    expect(m.recall).toBeCloseTo(4 / 6, 15);
    expect(m.f1).toBeCloseTo((2 * 4) / (2 * 4 + 1 + 2), 15);
    expect(m.samples).toBe(3);
  });

  it('skips a sample from BOTH macro means when precision or recall is undefined', () => {
    // Sample 2 has predictions but no GT (recall undefined), sample 3 GT but no predictions
    // (precision undefined), sample 4 neither: all three are skipped from both means.
    const m = selectionMetrics([c(1, 1, 0), c(0, 2, 0), c(0, 0, 3), c(0, 0, 0), c(1, 0, 1)]);
    expect(m.macro_skipped_samples).toBe(3);
    expect(m.macro_precision).toBeCloseTo((1 / 2 + 1) / 2, 15);
    expect(m.macro_recall).toBeCloseTo((1 + 1 / 2) / 2, 15);
  });

  it('gives 0, not NaN, when nothing is defined', () => {
    expect(selectionMetrics([c(0, 0, 0)])).toMatchObject({ precision: 0, recall: 0, f1: 0, macro_precision: 0, macro_recall: 0, macro_skipped_samples: 1 });
  });

  it('calls a case pass without FP and FN, fail without TP, else partial', () => {
    expect(outcomeOf({ tp: 2, fp: 0, fn: 0 })).toBe('pass');
    expect(outcomeOf({ tp: 0, fp: 0, fn: 0 })).toBe('pass');
    expect(outcomeOf({ tp: 0, fp: 1, fn: 0 })).toBe('fail');
    expect(outcomeOf({ tp: 0, fp: 0, fn: 2 })).toBe('fail');
    expect(outcomeOf({ tp: 1, fp: 1, fn: 0 })).toBe('partial');
  });
});

describe('PulseBench-Select case records', () => {
  const at = (x: number, y: number) => [x - 0.02, y - 0.01, x + 0.02, y - 0.01, x + 0.02, y + 0.01, x - 0.02, y + 0.01];
  const gt = (content: string, x: number, y: number) => toItem({ content, bbox: at(x, y) })!;
  const pred = (content: string, bbox: number[] | null, selected = true, line = 1): PredItem => ({
    ...toItem({ content, bbox: bbox ?? undefined })!,
    selected,
    line,
  });
  const sample: PulseSample = {
    id: 's',
    pageCount: 1,
    gt: [gt('No', 0.3, 0.2), gt('Married filing jointly', 0.3, 0.5)],
    candidates: [gt('Yes', 0.2, 0.2)],
    categories: ['List-item'],
    image: { kind: 'file', path: 'images/s.png' },
    imagePath: 'images/s.png',
    width: 200,
    height: 100,
  };

  it('explains every prediction and every GT item', () => {
    const preds = [
      pred('No', at(0.3, 0.2)),
      pred('No', at(0.3, 0.21)),
      pred('Married filing separately', null),
      pred('No', at(0.9, 0.9)),
      pred('Yes', null, false),
    ];
    const { record, counts } = scoreSample(sample, preds, DEFAULT_MATCH_OPTIONS);
    expect(counts).toEqual({ tp: 1, fp: 3, fn: 1, predicted: 4, truth: 2 });
    expect(record.outcome).toBe('partial');
    expect(record.pred.map((p) => p.state)).toEqual(['tp', 'fp', 'fp', 'fp', 'info']);
    expect(record.pred[1].reason).toBe('nearest GT 0 "No": already taken by prediction 0');
    expect(record.pred[2].reason).toBe('nearest GT 1 "Married filing jointly": token overlap 0.67 < 0.80');
    expect(record.pred[3].reason).toMatch(/^nearest GT 0 "No": centroid 0\.92 > 0\.35$/);
    expect(record.pred[4].reason).toBe('selected: false — not scored');
    expect(record.gt.map((g) => g.state)).toEqual(['tp', 'fn', 'info']);
    expect(record.gt[1].reason).toMatch(/token overlap 0\.67 < 0\.80/);
    expect(record.matches).toEqual([
      { gt: 0, pred: 0, overlap: 1, centroid_distance: 0, gt_text: 'No', pred_text: 'No' },
    ]);
    // Polygons are scaled from [0, 1] to pixels (width 200, height 100).
    expect(record.gt[0].shape).toEqual({ type: 'polygon', points: at(0.3, 0.2).map((v, i) => v * (i % 2 === 0 ? 200 : 100)) });
    expect(record.image_file).toBe('images/s.png');
    expect(record.facets).toEqual({ category: ['List-item'], has_selection: true, pages: 1 });
  });

  it('marks a sample absent from the prediction file and fails it', () => {
    const { record, counts } = scoreSample(sample, undefined, DEFAULT_MATCH_OPTIONS);
    expect(counts.fn).toBe(2);
    expect(record.errors).toEqual(['no_prediction']);
    expect(record.outcome).toBe('fail');
    expect(record.gt[0].reason).toBe('missed: no selected prediction on page 1');
  });
});
