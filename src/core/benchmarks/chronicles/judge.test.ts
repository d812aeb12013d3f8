/** The official judges' edge cases, each one from the spec. */
import { describe, expect, it } from 'vitest';
import {
  greedyMatch,
  isUnkChar,
  judgeClassification,
  judgeParsing,
  judgeRecognition,
  judgeSpotting,
  normalizeForParsing,
  scaleTo1000,
  type SpotItem,
} from './judge';
import { aggregate, type RowScore } from './aggregate';
import { SCRIPTS } from './constants';

const it4 = (bbox: [number, number, number, number], char = '王'): SpotItem => ({ bbox, char });

describe('spotting / detection', () => {
  it('IoU exactly 0.75 is a match (the code uses ≥, the card says >)', () => {
    // 75×100 inside 100×100: inter 7500 / union 10000 = 0.75 exactly.
    const j = judgeSpotting([it4([0, 0, 100, 100])], 1000, 1000, [{ bbox: [0, 0, 75, 100], char: '王' }]);
    expect(j.spotMatch.pairs[0].iou).toBe(0.75);
    expect(j.spotting).toEqual({ tp: 1, fp: 0, fn: 0 });
    const below = judgeSpotting([it4([0, 0, 100, 100])], 1000, 1000, [{ bbox: [0, 0, 74, 100], char: '王' }]);
    expect(below.spotting).toEqual({ tp: 0, fp: 1, fn: 1 });
  });

  it('IoU ties keep prediction-major, then GT order; the greedy pick is not an optimal assignment', () => {
    const g = [it4([0, 0, 100, 100])];
    const same = greedyMatch([it4([0, 0, 100, 100]), it4([0, 0, 100, 100])], g, true);
    expect(same.pairs).toEqual([{ iou: 1, pred: 0, gt: 0 }]);
    const twoGt = greedyMatch([it4([0, 0, 100, 100])], [it4([0, 0, 100, 100]), it4([0, 0, 100, 100])], true);
    expect(twoGt.pairs).toEqual([{ iou: 1, pred: 0, gt: 0 }]);
    // Greedy by IoU is not an optimal assignment: P0 takes G0 (0.95) although it also fits G1
    // (0.947), and P1, which fits only G0 (0.8; 0.73 with G1), is left over.
    const greedy = greedyMatch([it4([0, 0, 100, 95]), it4([0, 0, 80, 100])], [it4([0, 0, 100, 100]), it4([0, 0, 100, 90])], true);
    expect(greedy.pairs.map((p) => [p.pred, p.gt])).toEqual([[0, 0]]);
    expect(greedy).toMatchObject({ tp: 1, fp: 1, fn: 1 });
  });

  it('an all-UNK GT: Spotting F1 0 (nothing to find), Detection still counts the boxes', () => {
    const gt = [it4([0, 0, 100, 100], '[UNK]'), it4([200, 0, 300, 100], '□□'), it4([400, 0, 500, 100], ' unk ')];
    expect(gt.every((g) => isUnkChar(g.char))).toBe(true);
    const preds = gt.map((g) => ({ bbox: g.bbox, char: '<UNK>' }));
    const j = judgeSpotting(gt, 1000, 1000, preds);
    expect(j.spotting).toEqual({ tp: 0, fp: 0, fn: 0 });
    expect(j.score).toBe(0);
    expect(j.detection).toEqual({ tp: 3, fp: 0, fn: 0 });
    expect(j.detection_f1).toBe(1);
    const withKnown = judgeSpotting(gt, 1000, 1000, [{ bbox: [0, 0, 100, 100], char: '王' }]);
    expect(withKnown.spotting).toEqual({ tp: 0, fp: 1, fn: 0 });
  });

  it('scales GT with factors computed first (sx = 1000 / width), as the official code does', () => {
    // Find a coordinate where x · (1000 / W) and x · 1000 / W differ in the last bit.
    let found: [number, number] | null = null;
    for (let W = 3; W < 400 && !found; W++)
      for (let x = 1; x < W && !found; x++) if (x * (1000 / W) !== (x * 1000) / W) found = [x, W];
    expect(found).not.toBeNull();
    const [x, W] = found!;
    const [s] = scaleTo1000([it4([x, x, x + 1, x + 1])], W, W);
    expect(s.bbox[0]).toBe(x * (1000 / W));
    expect(s.bbox[0]).not.toBe((x * 1000) / W);
  });

  it('no width/height: no GT boxes, every prediction a false positive', () => {
    const j = judgeSpotting([it4([0, 0, 10, 10])], 0, 0, [{ bbox: [0, 0, 10, 10], char: '王' }]);
    expect(j.n_gt).toBe(0);
    expect(j.spotting).toEqual({ tp: 0, fp: 1, fn: 0 });
  });

  it('skips predicted items the judge cannot read, counting only the rest', () => {
    const j = judgeSpotting([it4([0, 0, 100, 100])], 1000, 1000, [
      { bbox: [0, 0, 100] },
      { bbox: [10, 0, 5, 100] },
      'x',
      { bbox: ['0', '0', '100', '100'], char: ' 王 ' }, // Python float() takes numeric strings
    ]);
    expect(j.n_pred).toBe(1);
    expect(j.spotting.tp).toBe(1);
    expect(() => judgeSpotting([], 1000, 1000, 5)).toThrow(/not iterable/);
  });
});

describe('parsing (1 − NED)', () => {
  it('counts code points: an astral character is one', () => {
    const j = judgeParsing('𠀀𠀁天', '𠀀天');
    expect(j).toMatchObject({ len_gt: 3, len_pred: 2, edit_distance: 1 });
    expect(j.score).toBeCloseTo(2 / 3, 15);
  });
  it('deletes brackets before removing UNK, so [UNK] survives as UNK (the quirk)', () => {
    expect(normalizeForParsing('王贞[UNK]人')).toBe('王贞UNK人');
    expect(judgeParsing('王贞[UNK]人', '王贞人').score).toBe(0.5);
    expect(judgeParsing('□□大雨', '大雨').score).toBe(1);
  });
  it('removes literal backslash-n, whitespace and punctuation; empty GT rules', () => {
    expect(judgeParsing('君子之道，淡而不厌。', '君子之道\\n淡而不厌').score).toBe(1);
    expect(judgeParsing('', '').score).toBe(1);
    expect(judgeParsing('。', '天').score).toBe(0);
    expect(() => judgeParsing('天', 5)).toThrow(/no attribute/);
  });
});

describe('classification and recognition', () => {
  it('classification: trimmed, non-empty, equal', () => {
    expect(judgeClassification(' 楷书 ', '楷书').score).toBe(1);
    expect(judgeClassification('楷书', '').score).toBe(0);
  });
  it('recognition: compares after stripping the listed punctuation at both ends; no gt_char → no_gt', () => {
    expect(judgeRecognition('宙', '〔宙〕').score).toBe(0); // 〔〕 are not in the list
    expect(judgeRecognition('宙', '「宙」').score).toBe(0);
    expect(judgeRecognition('宙', '【宙】').score).toBe(1);
    expect(judgeRecognition('', '宙')).toMatchObject({ score: 0, error: 'no_gt' });
  });
});

describe('aggregation', () => {
  const [ob, br, , cl] = SCRIPTS;
  const row = (script: typeof ob, task: RowScore['task'], score: number, inMean = true, detection?: number): RowScore => ({
    script,
    task,
    score,
    inMean,
    detection,
  });
  it('leaves errored Spotting rows out, counts other errors as 0, omits missing values from averages', () => {
    const m = aggregate([
      row(ob, 'spotting', 0.5, true, 1),
      row(ob, 'spotting', 0, false),
      row(ob, 'classification', 1),
      row(ob, 'classification', 0),
      row(br, 'spotting', 0, false),
      row(br, 'parsing', 0.25),
      row(cl, 'parsing', 1),
    ]);
    expect(m['oracle_bone/spotting']).toBe(0.5);
    expect(m['oracle_bone/spotting/n']).toBe(1);
    expect(m['oracle_bone/detection']).toBe(1);
    expect(m['oracle_bone/classification']).toBe(0.5);
    expect(m['oracle_bone/average']).toBe(0.5);
    expect(m['bronze/spotting']).toBeUndefined();
    expect(m['bronze/average']).toBe(0.25);
    expect(m['ancient/spotting']).toBe(0.5);
    expect(m['ancient/parsing']).toBe(0.25);
    expect(m['ancient/average']).toBeCloseTo((0.5 + 0.25 + 0.5) / 3, 15);
    expect(m['modern/parsing']).toBe(1);
    expect(m['modern/classification']).toBeUndefined();
    expect(m['all/parsing']).toBe(0.625);
    expect(m['all/average']).toBeCloseTo((0.5 + 0.5 + 0.25 + 1) / 4, 15);
    expect(Object.keys(m).some((k) => k.startsWith('ancient/detection') || k.startsWith('all/detection'))).toBe(false);
  });
});
