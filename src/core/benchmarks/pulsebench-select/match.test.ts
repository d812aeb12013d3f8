import { describe, expect, it } from 'vitest';
import { centroidDistance, centroidOf, parseBox, toItem, type SelItem } from './items';
import { DEFAULT_MATCH_OPTIONS, matchSample, pairInfo, type MatchOptions } from './match';

/** A degenerate box whose 4 points are all (x, y): its centroid is exactly (x, y). */
const at = (x: number, y: number) => [x, y, x, y, x, y, x, y];
const item = (content: string, bbox?: unknown, page?: unknown): SelItem => toItem({ content, bbox, page })!;
const opts = (o: Partial<MatchOptions> = {}): MatchOptions => ({ ...DEFAULT_MATCH_OPTIONS, ...o });

describe('PulseBench-Select boxes', () => {
  it('takes exactly 8 finite numbers as a box, anything else as missing', () => {
    expect(parseBox(at(0.1, 0.2))).not.toBeNull();
    for (const bad of [[], null, undefined, [0, 0, 1, 1], '0,0,1,0,1,1,0,1', ['0', 0, 1, 0, 1, 1, 0, 1], [...at(0, 0), 1], [NaN, 0, 0, 0, 0, 0, 0, 0]]) {
      expect(parseBox(bad), JSON.stringify(bad)).toBeNull();
    }
  });

  it('uses the mean of the four points as the centroid', () => {
    const [cx, cy] = centroidOf([0.1, 0.2, 0.3, 0.2, 0.3, 0.4, 0.1, 0.4]);
    expect(cx).toBeCloseTo(0.2, 15);
    expect(cy).toBeCloseTo(0.3, 15);
    expect(centroidDistance([0, 0], [0.3, 0.4])).toBeCloseTo(0.5, 15);
  });
});

describe('PulseBench-Select matching', () => {
  it('matches at token overlap exactly 0.80 and not below', () => {
    const gt = [item('a b c d e')];
    expect(matchSample(gt, [item('a b c d')], opts()).predToGt).toEqual([0]);
    expect(matchSample(gt, [item('a b c')], opts()).predToGt).toEqual([null]);
    // 3 of 4 = 0.75
    expect(matchSample([item('a b c d')], [item('a b c x')], opts()).predToGt).toEqual([null]);
  });

  it('vetoes a match whose centroids are farther apart than centroid_max, and -1 turns the veto off', () => {
    const gt = [item('No', at(0.2, 0.5))];
    const far = [item('No', at(0.56, 0.5))];
    expect(matchSample(gt, far, opts()).predToGt).toEqual([null]);
    expect(pairInfo(gt[0], far[0], opts()).veto).toBe('far');
    expect(matchSample(gt, far, opts({ centroidMax: -1 })).predToGt).toEqual([0]);
    expect(matchSample(gt, far, opts({ centroidMax: 0.4 })).predToGt).toEqual([0]);
  });

  it('accepts a centroid distance exactly equal to centroid_max', () => {
    const gt = [item('No', at(0.25, 0.5))];
    const pred = [item('No', at(0.6, 0.5))];
    expect(pairInfo(gt[0], pred[0], opts()).distance).toBe(0.35);
    expect(matchSample(gt, pred, opts()).predToGt).toEqual([0]);
  });

  it('skips the veto when a box is missing, unless missing_box=fail (which -1 overrides)', () => {
    const gt = [item('Yes', at(0.2, 0.2))];
    const noBox = [item('Yes', [0.1, 0.1, 0.2, 0.2])]; // 4 numbers: missing
    expect(matchSample(gt, noBox, opts()).predToGt).toEqual([0]);
    expect(matchSample(gt, noBox, opts({ missingBox: 'fail' })).predToGt).toEqual([null]);
    expect(pairInfo(gt[0], noBox[0], opts({ missingBox: 'fail' })).veto).toBe('missing_box');
    expect(matchSample(gt, noBox, opts({ missingBox: 'fail', centroidMax: -1 })).predToGt).toEqual([0]);
    // Both boxes present: missing_box changes nothing.
    expect(matchSample(gt, [item('Yes', at(0.21, 0.2))], opts({ missingBox: 'fail' })).predToGt).toEqual([0]);
  });

  it('prefers the higher overlap over a nearer centroid', () => {
    const gt = [item('Married filing jointly', at(0.5, 0.5)), item('Married filing', at(0.3, 0.3))];
    const pred = [item('Married filing', at(0.5, 0.5))];
    // overlap 2/3 with GT 0 (not eligible), 1 with GT 1.
    expect(matchSample(gt, pred, opts()).predToGt).toEqual([1]);
    const gt2 = [item('a b c d e', at(0.2, 0.2)), item('a b c d', at(0.9, 0.9))];
    expect(matchSample(gt2, [item('a b c d', at(0.2, 0.2))], opts({ centroidMax: -1 })).predToGt).toEqual([1]);
  });

  it('breaks overlap ties by the smaller centroid distance, then by the lower GT index', () => {
    const gt = [item('No', at(0.3, 0.2)), item('No', at(0.7, 0.2))];
    expect(matchSample(gt, [item('No', at(0.69, 0.2))], opts()).predToGt).toEqual([1]);
    expect(matchSample(gt, [item('No', at(0.31, 0.2))], opts()).predToGt).toEqual([0]);
    // No box on the prediction: no distance anywhere, the lower index wins.
    expect(matchSample(gt, [item('No')], opts()).predToGt).toEqual([0]);
  });

  it('sorts a missing distance after any defined one', () => {
    const gt = [item('No'), item('No', at(0.9, 0.9))];
    // GT 1 is far (0.99) but its distance is defined; the veto is off so only the tie-break decides.
    expect(matchSample(gt, [item('No', at(0.2, 0.2))], opts({ centroidMax: -1 })).predToGt).toEqual([1]);
    // With the veto on, GT 1 is vetoed and GT 0 (no box: veto skipped) is taken.
    expect(matchSample(gt, [item('No', at(0.2, 0.2))], opts()).predToGt).toEqual([0]);
  });

  it('still breaks ties by distance when the veto is off', () => {
    const gt = [item('Yes', at(0.1, 0.1)), item('Yes', at(0.95, 0.95))];
    expect(matchSample(gt, [item('Yes', at(0.9, 0.9))], opts({ centroidMax: -1 })).predToGt).toEqual([1]);
  });

  it('walks predictions in file order: an earlier prediction takes the GT a later one wanted', () => {
    const gt = [item('No', at(0.45, 0.2)), item('No', at(0.7, 0.2))];
    const preds = [item('No', at(0.7, 0.21)), item('No', at(0.7, 0.2))];
    const m = matchSample(gt, preds, opts());
    expect(m.predToGt).toEqual([1, 0]);
    expect(m.gtToPred).toEqual([1, 0]);
    // A third identical prediction finds nothing left.
    expect(matchSample(gt, [...preds, item('No')], opts()).predToGt).toEqual([1, 0, null]);
  });

  it('only matches within a page; page defaults to 1 and "2" is page 2', () => {
    const gt = [item('Yes', undefined, 2)];
    expect(matchSample(gt, [item('Yes')], opts()).predToGt).toEqual([null]);
    expect(matchSample(gt, [item('Yes', undefined, '2')], opts()).predToGt).toEqual([0]);
    expect(matchSample([item('Yes', undefined, null)], [item('Yes', undefined, 1)], opts()).predToGt).toEqual([0]);
  });

  it('never matches two empty labels unless empty_overlap=1', () => {
    const gt = [item('')];
    expect(matchSample(gt, [item('☐')], opts()).predToGt).toEqual([null]);
    expect(matchSample(gt, [item('☐')], opts({ emptyOverlap: 1 })).predToGt).toEqual([0]);
  });
});
