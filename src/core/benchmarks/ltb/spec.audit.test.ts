/**
 * An independent audit of the LTB scorer against shared/specs/ltb.md and the official code
 * (MMOCR 1.0.1 HmeanIOUMetric + polygon_utils; the MMOCR 0.6.3 fork in pd162/LTB: hmean.py,
 * hmean_iou.py, utils.py, icdar_dataset.py). Every expected number is worked out by hand in the
 * comment next to it, never read off the implementation.
 */
import { describe, expect, it } from 'vitest';
import { MemorySource, type FileSource } from '../../io/fileSource';
import type { ModelResult } from '../../model';
import { BenchSession } from '../../session';
import { SPLITS } from './splits';

const box = (x0: number, y0: number, x1: number, y1: number) => [x0, y0, x1, y0, x1, y1, x0, y1];
const enc = (s: string) => new TextEncoder().encode(s);

interface G {
  poly: number[];
  care?: boolean;
  /** Care in the `hard` split (default: same as norm). */
  hard?: boolean;
}

/** The 15-file LTB layout; `hardOrder` lists the GT indices of an image in another order in hard. */
function ltb(images: Record<string, G[]>, hardOrder: Record<string, number[]> = {}): MemorySource {
  const files: Record<string, string | Uint8Array> = {};
  for (const sp of SPLITS) {
    const data_list = Object.entries(images).map(([name, gts]) => {
      const order = sp.key === 'hard' && hardOrder[name] ? hardOrder[name] : gts.map((_, i) => i);
      return {
        img_path: name,
        height: 100,
        width: 200,
        instances: order.map((i) => {
          const g = gts[i];
          const care = g.care !== false;
          const here = sp.key === 'norm' ? care : sp.key === 'hard' ? (g.hard ?? care) : false;
          return { polygon: g.poly, bbox: [0, 0, 1, 1], bbox_label: 0, ignore: !here };
        }),
      };
    });
    files[`anno/mmocr1.x_format/challenging_${sp.stems[0]}.json`] = JSON.stringify({ metainfo: {}, data_list });
  }
  for (const name of Object.keys(images)) files[`anno/hard/images/${name}`] = new Uint8Array([1]);
  return new MemorySource('ltb', files);
}

async function score(src: FileSource, preds: Record<string, string | Uint8Array> | unknown, protocol: string, options: Record<string, string> = {}) {
  const session = await BenchSession.open(src);
  if (preds instanceof MemorySource) await session.addPredictions({ source: preds, path: '', name: 'model' });
  else await session.addPredictions({ source: new MemorySource('p', { 'model.json': JSON.stringify(preds) }), path: 'model.json', name: 'model' });
  const [r] = await session.score(session.resolveProtocol(protocol, options));
  return r;
}

const V101 = 'mmocr-1.0.1';
const V063 = 'mmocr-0.6.3';
const LABELS = ['0.3', '0.4', '0.5', '0.6', '0.7', '0.8', '0.9'];
const curve = (r: ModelResult, s = 'norm') => LABELS.map((l) => r.metrics[`${s}/hmean@${l}`]);

describe('audit: score thresholds (float32 in 1.0.1, float64 in 0.6.3)', () => {
  // One care GT, one exact prediction with score s: hmean is 1 at a threshold where it takes part, else 0.
  const ds = () => ltb({ 'a.jpg': [{ poly: box(0, 0, 10, 10) }] });
  const one = (s: number) => ({ 'a.jpg': [[...box(0, 0, 10, 10), s]] });

  it('scores on the numpy thresholds: 0.7 / 0.8 / 0.9 miss t = 0.7000000000000002 … in 0.6.3 only', async () => {
    // 1.0.1: f32(0.7) = f32(0.7000000000000002) = 0.699999988079071 (float32 spacing there is
    // 6e-8), likewise for 0.8 and 0.9, so s = t nominal takes part at t.
    // 0.6.3: 0.7 < 0.7000000000000002, 0.8 < 0.8000000000000003, 0.9 < 0.9000000000000001 in float64.
    expect(curve(await score(ds(), one(0.7), V101))).toEqual([1, 1, 1, 1, 1, 0, 0]);
    expect(curve(await score(ds(), one(0.7), V063))).toEqual([1, 1, 1, 1, 0, 0, 0]);
    expect(curve(await score(ds(), one(0.8), V101))).toEqual([1, 1, 1, 1, 1, 1, 0]);
    expect(curve(await score(ds(), one(0.8), V063))).toEqual([1, 1, 1, 1, 1, 0, 0]);
    expect(curve(await score(ds(), one(0.9), V101))).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(curve(await score(ds(), one(0.9), V063))).toEqual([1, 1, 1, 1, 1, 1, 0]);
    // 0.4 and 0.5 are exact arange values (0.3 + 1 × 0.10000000000000003 = 0.4): take part in both.
    expect(curve(await score(ds(), one(0.5), V063))).toEqual([1, 1, 1, 0, 0, 0, 0]);
    expect(curve(await score(ds(), one(0.4), V063))).toEqual([1, 1, 0, 0, 0, 0, 0]);
  });

  it('a score just below 0.3 that rounds to f32(0.3) passes the 1.0.1 pre-filter, not 0.6.3', async () => {
    // f32(0.3) = 0.30000001192092896; the float32 below it is 0.29999998211860657, the midpoint
    // 0.2999999970197678. 0.29999999999 rounds up to f32(0.3): kept and taking part at 0.3.
    const r101 = await score(ds(), one(0.29999999999), V101);
    expect(curve(r101)).toEqual([1, 0, 0, 0, 0, 0, 0]);
    expect(r101.metrics['norm/pred']).toBe(1);
    // 0.6.3: 0.29999999999 > 0.3 is false: dropped; gt 1, pred 0 → P = R = H = 0 everywhere, best = 0.3.
    const r063 = await score(ds(), one(0.29999999999), V063);
    expect(curve(r063)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(r063.metrics['norm/pred']).toBe(0);
    expect(r063.metrics['norm/threshold']).toBe(0.3);
    // 0.2999999 rounds to 0.29999998… < f32(0.3): dropped in 1.0.1 too.
    expect((await score(ds(), one(0.2999999), V101)).metrics['norm/pred']).toBe(0);
  });

  it('best threshold: the lowest of the tied maxima', async () => {
    // GT A, B; p(A) score 0.95, a false positive at 0.35.
    // t = 0.3: hits 1, gt 2, pred 2 → P = R = 0.5, H = 0.5. t ≥ 0.4: pred 1 → P = 1, R = 0.5,
    // H = 2·1·0.5 / 1.5 = 0.6666666666666666 at 0.4 … 0.9 → best 0.4 (strict > keeps the first).
    const src = ltb({ 'a.jpg': [{ poly: box(0, 0, 10, 10) }, { poly: box(50, 0, 60, 10) }] });
    const r = await score(src, { 'a.jpg': [[...box(0, 0, 10, 10), 0.95], [...box(100, 0, 110, 10), 0.35]] }, V101);
    expect(r.metrics['norm/threshold']).toBe(0.4);
    expect(r.metrics['norm/hmean']).toBe((2.0 * 1 * 0.5) / (0.5 + 1));
    expect(r.metrics['norm/hmean@0.3']).toBe(0.5);
    expect(r.metrics['norm/pred']).toBe(1);
    expect(r.metrics['norm/hits']).toBe(1);
  });

  it('score_thr: one threshold; 1.0.1 keeps f32(score) >= f32(t), 0.6.3 keeps score > t', async () => {
    // Official 0.6.3 with one threshold t is eval_hmean(min_score_thr=t, max_score_thr=t):
    // filter_2dlist_result keeps score > t, select_top_boundary score >= t → score > t.
    // 1.0.1 with pred_score_thrs=[t]: drops pred_scores < t in float32 → f32(score) >= f32(t).
    const at = await score(ds(), one(0.55), V063, { score_thr: '0.55' });
    expect(at.metrics['norm/pred']).toBe(0);
    expect(at.metrics['norm/hmean']).toBe(0);
    expect(at.metrics['norm/threshold']).toBe(0.55);
    const at101 = await score(ds(), one(0.55), V101, { score_thr: '0.55' });
    expect(at101.metrics['norm/pred']).toBe(1);
    expect(at101.metrics['norm/hmean']).toBe(1);
    // Below 0.3: the pinned threshold is also the pre-filter (0.25 takes part at t = 0.2).
    expect((await score(ds(), one(0.25), V063, { score_thr: '0.2' })).metrics['norm/hmean']).toBe(1);
    expect((await score(ds(), one(0.25), V101, { score_thr: '0.2' })).metrics['norm/hmean']).toBe(1);
    // t = 0.3 in 0.6.3: a score of exactly 0.3 fails score > 0.3 whichever way it is read.
    expect((await score(ds(), one(0.3), V063, { score_thr: '0.3' })).metrics['norm/pred']).toBe(0);
  });
});

describe("audit: don't-care filter", () => {
  // dc = 0..100 square (don't care), plus a care word far away so gt = 1.
  const ds = () => ltb({ 'a.jpg': [{ poly: box(0, 0, 100, 100), care: false }, { poly: box(200, 0, 300, 100) }] });

  it('a symmetric bow-tie (raw area 0) inside a don\'t-care region: ignored in 1.0.1, a false positive in 0.6.3', async () => {
    // Ring (10,10) (50,50) (50,10) (10,50): shoelace terms 0 − 2000 + 2400 − 400 = 0 → raw area 0.
    // Repair: total 0 counts negative → keep the clockwise face (30,30) (50,50) (50,10), area 400,
    // all inside the don't-care square: inter = 400.
    // 1.0.1: 400 / (0 + 1e-5) > 0.5 → ignored. 0.6.3: area 0 → share 0 → kept, an FP.
    const p = { 'a.jpg': [[10, 10, 50, 50, 50, 10, 10, 50, 0.9]] };
    const r101 = await score(ds(), p, V101);
    expect([r101.metrics['norm/pred'], r101.metrics['norm/ignored']]).toEqual([0, 1]);
    const r063 = await score(ds(), p, V063);
    expect([r063.metrics['norm/pred'], r063.metrics['norm/ignored']]).toEqual([1, 0]);
  });

  it('the share divides by the RAW shoelace area, the intersection uses the repaired polygon', async () => {
    // Ring A(0,0) B(20,20) C(20,0) D(0,10): AB and CD cross at X(20/3, 20/3). Shoelace terms:
    // 0 − 400 + 200 + 0 = −200 → signed −100, raw area 100 (negative total → keep clockwise faces).
    // Face X B C: terms 0 − 400 + 400/3 → −133.33 (clockwise, kept); face A X D: +33.33 (dropped).
    // Don't care region: x ≥ 16.5. Inside face XBC the height at x is x − (10 − x/2) = 1.5x − 10,
    // ∫_{16.5}^{20} (1.5x − 10) dx = 0.75·(400 − 272.25) − 10·3.5 = 95.8125 − 35 = 60.8125.
    // share = 60.8125 / 100 = 0.608 > 0.5 → ignored (dividing by the repaired 133.33 would give 0.456).
    const src = ltb({ 'a.jpg': [{ poly: box(16.5, -50, 130, 50), care: false }, { poly: box(200, 0, 300, 100) }] });
    for (const v of [V101, V063]) {
      const r = await score(src, { 'a.jpg': [[0, 0, 20, 20, 20, 0, 0, 10, 0.9]] }, v);
      expect([v, r.metrics['norm/pred'], r.metrics['norm/ignored']]).toEqual([v, 0, 1]);
    }
  });

  it('exactly half inside is not ignored (strict > 0.5) in either variant', async () => {
    // pred 90..110 × 0..10: inter with 0..100 = 10·10 = 100, area 200 → 0.5 (0.6.3) and
    // 100 / 200.00001 < 0.5 (1.0.1) → both keep it as a false positive.
    for (const v of [V101, V063]) {
      const r = await score(ds(), { 'a.jpg': [[...box(90, 0, 110, 10), 0.9]] }, v);
      expect([v, r.metrics['norm/pred'], r.metrics['norm/ignored']]).toEqual([v, 1, 0]);
    }
  });

  it('a 2^-9 square inside a don\'t-care region: 1.0.1 keeps it (+1e-5), 0.6.3 ignores it', async () => {
    // area = 2^-18 = 3.814697265625e-6 (exact in float32); 1.0.1 share = 3.81e-6 / 1.381e-5 = 0.276;
    // 0.6.3 share = 1.
    const s = 2 ** -9;
    const p = { 'a.jpg': [[...box(5, 5, 5 + s, 5 + s), 0.9]] };
    expect((await score(ds(), p, V101)).metrics['norm/ignored']).toBe(0);
    expect((await score(ds(), p, V063)).metrics['norm/ignored']).toBe(1);
  });

  it('counts ignored only at thresholds where the prediction takes part', async () => {
    // A prediction inside the don't-care square with score 0.45: ignored at 0.3 and 0.4, absent above.
    const r = await score(ds(), { 'a.jpg': [[...box(10, 10, 20, 20), 0.45]] }, V101);
    const d = (r.extra as { splits: Record<string, { per_threshold: { ignored: number; pred: number }[] }> }).splits.norm.per_threshold;
    expect(d.map((x) => x.ignored)).toEqual([1, 1, 0, 0, 0, 0, 0]);
    expect(d.map((x) => x.pred)).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });
});

describe('audit: polygon repair and IoU', () => {
  it('a bow-tie keeps the face whose winding matches the (zero → negative) total: vertex order decides', async () => {
    // GT = triangle (50,10) (50,50) (30,30). p = (10,10) (50,50) (50,10) (10,50) keeps exactly that
    // triangle (see the don't-care test) → IoU 1. The reversed ring flips every face's winding and
    // keeps the left triangle (10,10) (30,30) (10,50) → IoU 0.
    // Two images: hits 1, gt 2, pred 2 → P = R = H = 0.5.
    const src = ltb({ 'a.jpg': [{ poly: [50, 10, 50, 50, 30, 30] }], 'b.jpg': [{ poly: [50, 10, 50, 50, 30, 30] }] });
    const p = { 'a.jpg': [[10, 10, 50, 50, 50, 10, 10, 50, 0.9]], 'b.jpg': [[10, 50, 50, 10, 50, 50, 10, 10, 0.9]] };
    for (const v of [V101, V063]) {
      const r = await score(src, p, v);
      expect([v, r.metrics['norm/hits'], r.metrics['norm/gt'], r.metrics['norm/pred'], r.metrics['norm/hmean']]).toEqual([v, 1, 2, 2, 0.5]);
    }
  });

  it('two lobes touching at a vertex are two pieces: hull in 1.0.1, kept apart in 0.6.3', async () => {
    // Ring (0,0) (20,0) (10,10) (20,20) (0,20) (10,10): two counter-clockwise triangles of area 100
    // meeting at (10,10); GEOS buffer(0) returns them as a MultiPolygon.
    // 1.0.1: convex hull = the square 0..20 → IoU with GT 0..20 = 1 → hit.
    // 0.6.3: inter 200, union 400 → IoU 0.5, not > 0.5 → miss.
    const src = ltb({ 'a.jpg': [{ poly: box(0, 0, 20, 20) }] });
    const p = { 'a.jpg': [[0, 0, 20, 0, 10, 10, 20, 20, 0, 20, 10, 10, 0.9]] };
    expect((await score(src, p, V101)).metrics['norm/hits']).toBe(1);
    expect((await score(src, p, V063)).metrics['norm/hits']).toBe(0);
  });

  it('repeated points are harmless; collinear polygons have IoU 0 (union 0 → 0)', async () => {
    // a: GT 0..10 square, prediction the same square with a doubled vertex and a closing point → IoU 1.
    // b: GT and prediction the same zero-area segment: inter 0, union 0 → IoU 0 → no hit, still a prediction.
    // Pooled: hits 1, gt 2, pred 2 → H = 0.5.
    const src = ltb({ 'a.jpg': [{ poly: box(0, 0, 10, 10) }], 'b.jpg': [{ poly: [0, 0, 10, 0, 20, 0] }] });
    const p = {
      'a.jpg': [[0, 0, 0, 0, 10, 0, 10, 10, 10, 10, 0, 10, 0, 0, 0.9]],
      'b.jpg': [[0, 0, 10, 0, 20, 0, 0.9]],
    };
    for (const v of [V101, V063]) {
      const r = await score(src, p, v);
      expect([v, r.metrics['norm/hits'], r.metrics['norm/gt'], r.metrics['norm/pred']]).toEqual([v, 1, 2, 2]);
    }
  });

  it('IoU exactly 0.5 on integer boxes is exact (no ulp tips it over) and does not match', async () => {
    // Same height h, widths 2w and w, the prediction inside the GT: IoU = w·h / (2w·h) = 0.5 exactly
    // in GEOS (axis-parallel crossings are input coordinates; integer shoelace sums are exact).
    // Also a don't-care share of exactly 0.5 (0.6.3: inter / area, strict >).
    const cases: [number[], number[]][] = [];
    for (let a = 0; a < 30; a += 3) for (let w = 1; w < 40; w += 4) for (const h of [7, 10, 13]) cases.push([box(a, 0, a + 2 * w, h), box(a + 1 + (w % 5), 0, a + 1 + (w % 5) + w, h)]);
    const keep = cases.filter(([g, p]) => p[0] >= g[0] && p[2] <= g[2]);
    const images: Record<string, G[]> = {};
    const preds: Record<string, number[][]> = {};
    keep.forEach(([g, p], i) => {
      images[`i${i}.jpg`] = [{ poly: g }, { poly: box(1000, 0, 1000 + (p[2] - p[0]) * 2, 10), care: false }];
      // The second prediction lies half on the don't-care box 1000…1000+2w.
      const w = p[2] - p[0];
      preds[`i${i}.jpg`] = [[...p, 0.9], [...box(1000 + w * 1.5, 0, 1000 + w * 2.5, 10), 0.9]];
    });
    for (const v of [V101, V063]) {
      const r = await score(ltb(images), preds, v);
      expect([v, r.metrics['norm/hits'], r.metrics['norm/ignored'], r.metrics['norm/pred']]).toEqual([v, 0, 0, 2 * keep.length]);
    }
  });

  it('float32 coordinates in 1.0.1: 16777217 becomes 16777216', async () => {
    // GT x 16777216..16777218 (exact in float32). Prediction x 16777217..16777218:
    // float64 (0.6.3): inter 1 × 10, union 2 × 10 → IoU 0.5 → miss.
    // float32 (1.0.1): 16777217 = 2^24 + 1 rounds (ties to even) to 2^24 → identical → IoU 1 → hit.
    const X = 2 ** 24;
    const src = ltb({ 'a.jpg': [{ poly: box(X, 0, X + 2, 10) }] });
    const p = { 'a.jpg': [[...box(X + 1, 0, X + 2, 10), 0.9]] };
    expect((await score(src, p, V101)).metrics['norm/hits']).toBe(1);
    expect((await score(src, p, V063)).metrics['norm/hits']).toBe(0);
  });

  it('triangles: matched in both variants; 0.6.3 warns when the first prediction has < 4 points', async () => {
    const src = ltb({ 'a.jpg': [{ poly: [0, 0, 10, 0, 0, 10] }] });
    const p = { 'a.jpg': [[0, 0, 10, 0, 0, 10, 0.9]] };
    const r101 = await score(src, p, V101);
    const r063 = await score(src, p, V063);
    expect(r101.metrics['norm/hits']).toBe(1);
    expect(r063.metrics['norm/hits']).toBe(1);
    expect(r101.warnings.some((w) => w.includes('first prediction'))).toBe(false);
    expect(r063.warnings.some((w) => w.includes('a.jpg') && w.includes('mmocr-0.6.3'))).toBe(true);
  });
});

describe('audit: first-fit matching order and pooled counts', () => {
  // GT1 = 0..10, GT2 = 4..14. P1 = 2..12: IoU 80/120 = 0.667 with both. P2 = 0..10: IoU 1 with GT1,
  // 60/140 = 0.43 with GT2.
  const gts = [{ poly: box(0, 0, 10, 10) }, { poly: box(4, 0, 14, 10) }];
  const P1 = [...box(2, 0, 12, 10), 0.9];
  const P2 = [...box(0, 0, 10, 10), 0.9];

  it('GT file order × prediction input order', async () => {
    // norm lists GT1, GT2: GT1 takes P1 (first in input order), GT2 finds P1 used, P2 0.43 → hits 1.
    // hard lists GT2, GT1: GT2 takes P1, GT1 takes P2 → hits 2.
    const src = () => ltb({ 'a.jpg': gts }, { 'a.jpg': [1, 0] });
    for (const v of [V101, V063]) {
      const r = await score(src(), { 'a.jpg': [P1, P2] }, v);
      expect([v, r.metrics['norm/hits'], r.metrics['hard/hits']]).toEqual([v, 1, 2]);
      // Predictions P2, P1: GT1 takes P2, GT2 takes P1 → 2 in norm.
      const s = await score(src(), { 'a.jpg': [P2, P1] }, v);
      expect([v, s.metrics['norm/hits']]).toEqual([v, 2]);
    }
  });

  it('counts pool over images; an image missing from the predictions has only misses', async () => {
    // a: GT1, GT2 with P2 (hit GT1) and a false positive; b: one GT, no entry.
    // hits 1, gt 3, pred 2 → P = 0.5, R = 1/3, H = 2·0.5·(1/3) / (1/3 + 0.5).
    const src = ltb({ 'a.jpg': gts, 'b.jpg': [{ poly: box(0, 0, 10, 10) }] });
    const r = await score(src, { 'a.jpg': [P2, [...box(50, 50, 60, 60), 0.9]] }, V101);
    expect([r.metrics['norm/hits'], r.metrics['norm/gt'], r.metrics['norm/pred']]).toEqual([1, 3, 2]);
    expect(r.metrics['norm/precision']).toBe(0.5);
    expect(r.metrics['norm/recall']).toBe(1 / 3);
    expect(r.metrics['norm/hmean']).toBe((2.0 * 0.5 * (1 / 3)) / (1 / 3 + 0.5));
  });

  it('gt > 0 with no predictions at all: P = R = H = 0, best = 0.3', async () => {
    const r = await score(ltb({ 'a.jpg': gts }), {}, V063);
    expect([r.metrics['norm/precision'], r.metrics['norm/recall'], r.metrics['norm/hmean'], r.metrics['norm/threshold']]).toEqual([0, 0, 0, 0.3]);
  });
});

describe('audit: ground-truth forms', () => {
  it('an image listed twice in data_list is two samples with the same predictions (MMOCR scores entries)', async () => {
    // Entry 1: care 0..10; entry 2 (same img_path): care 50..60. Prediction for a.jpg: 0..10 at 0.9.
    // Sample 1: hits 1, gt 1, pred 1. Sample 2: hits 0, gt 1, pred 1. Pooled: 1 / 2 / 2 → H = 0.5.
    const doc = {
      metainfo: {},
      data_list: [
        { img_path: 'a.jpg', instances: [{ polygon: box(0, 0, 10, 10), ignore: false }] },
        { img_path: 'a.jpg', instances: [{ polygon: box(50, 0, 60, 10), ignore: false }] },
      ],
    };
    const src = () => new MemorySource('one', { 'textdet_test.json': JSON.stringify(doc), 'imgs/a.jpg': new Uint8Array([1]) });
    for (const v of [V101, V063]) {
      const r = await score(src(), { 'a.jpg': [[...box(0, 0, 10, 10), 0.9]] }, v);
      expect([v, r.metrics['norm/hits'], r.metrics['norm/gt'], r.metrics['norm/pred'], r.metrics['norm/hmean']]).toEqual([v, 1, 2, 2, 0.5]);
      expect(r.cases.map((c) => c.case_id)).toEqual(['a.jpg', 'a.jpg#2']);
    }
  });

  it('a duplicate entry joins across the 15 split files (fast byte-diff path included)', async () => {
    // Same two entries for a.jpg in every file; entry 2's word is care only in norm and hard.
    // hard: entry 1 word is don't care (no challenge), entry 2 care → gt 1; the prediction 0..10
    // lies on entry 1's don't-care word in sample 1 (ignored) and is a FP in sample 2.
    // hard: hits 0, gt 1, pred 1, ignored 1. norm: hits 1, gt 2, pred 2, ignored 0.
    const files: Record<string, string | Uint8Array> = { 'anno/hard/images/a.jpg': new Uint8Array([1]) };
    for (const sp of SPLITS) {
      const data_list = [
        { img_path: 'a.jpg', instances: [{ polygon: box(0, 0, 10, 10), ignore: sp.key !== 'norm' }] },
        { img_path: 'a.jpg', instances: [{ polygon: box(50, 0, 60, 10), ignore: !(sp.key === 'norm' || sp.key === 'hard') }] },
      ];
      files[`anno/mmocr1.x_format/challenging_${sp.stems[0]}.json`] = JSON.stringify({ metainfo: {}, data_list });
    }
    const r = await score(new MemorySource('dup', files), { 'a.jpg': [[...box(0, 0, 10, 10), 0.9]] }, V101);
    expect(['hits', 'gt', 'pred', 'ignored'].map((k) => r.metrics[`hard/${k}`])).toEqual([0, 1, 1, 1]);
    expect(['hits', 'gt', 'pred', 'ignored'].map((k) => r.metrics[`norm/${k}`])).toEqual([1, 2, 2, 0]);
  });

  it('COCO: iscrowd = don\'t care; 0.6.3 drops ignore (truthy) and bbox sides < 1 entirely', async () => {
    // A care 0..10; B `ignore` 20..30; C care but bbox width 0.5 (40..40.5); D iscrowd 60..70.
    // Predictions: exact copies of A, B, C, D.
    // 1.0.1: care A, C; don't care B, D → P_B, P_D ignored; hits 2, gt 2, pred 2, ignored 2 → H = 1.
    // 0.6.3: B, C gone; care A; don't care D → P_B, P_C are FPs, P_D ignored;
    //        hits 1, gt 1, pred 3, ignored 1 → P = 1/3, R = 1, H = 2·(1/3)·1 / (1 + 1/3) = 0.5.
    for (const ignoreValue of [true, 1]) {
      const coco = {
        images: [{ id: 7, file_name: 'a.jpg', width: 100, height: 100 }],
        annotations: [
          { id: 1, image_id: 7, category_id: 1, iscrowd: 0, bbox: [0, 0, 10, 10], segmentation: [box(0, 0, 10, 10)] },
          { id: 2, image_id: 7, category_id: 1, iscrowd: 0, ignore: ignoreValue, bbox: [20, 0, 10, 10], segmentation: [box(20, 0, 30, 10)] },
          { id: 3, image_id: 7, category_id: 1, iscrowd: 0, bbox: [40, 0, 0.5, 10], segmentation: [box(40, 0, 40.5, 10)] },
          { id: 4, image_id: 7, category_id: 1, iscrowd: 1, bbox: [60, 0, 10, 10], segmentation: [box(60, 0, 70, 10)] },
        ],
        categories: [{ id: 1, name: 'text' }],
      };
      const src = () => new MemorySource('coco', { 'instances_test.json': JSON.stringify(coco), 'imgs/a.jpg': new Uint8Array([1]) });
      const p = { 'a.jpg': [box(0, 0, 10, 10), box(20, 0, 30, 10), box(40, 0, 40.5, 10), box(60, 0, 70, 10)].map((b) => [...b, 0.9]) };
      const r101 = await score(src(), p, V101);
      expect([ignoreValue, r101.metrics['norm/hits'], r101.metrics['norm/gt'], r101.metrics['norm/pred'], r101.metrics['norm/ignored'], r101.metrics['norm/hmean']]).toEqual([ignoreValue, 2, 2, 2, 2, 1]);
      const r063 = await score(src(), p, V063);
      expect([ignoreValue, r063.metrics['norm/hits'], r063.metrics['norm/gt'], r063.metrics['norm/pred'], r063.metrics['norm/ignored'], r063.metrics['norm/hmean']]).toEqual([ignoreValue, 1, 1, 3, 1, 0.5]);
    }
  });

  it('ICDAR2015 gt_img_<n>.txt: BOM, CRLF, ### = don\'t care, commas inside the transcription', async () => {
    // img_1: care 0..10 ("a,b"), ### at 20..30. img_2: care 0..10.
    // Predictions: img_1 exact care + inside ###; img_2 nothing.
    // hits 1, gt 2, pred 1, ignored 1 → P = 1, R = 0.5, H = 2·1·0.5 / 1.5.
    const src = new MemorySource('icdar', {
      'gt/gt_img_1.txt': enc('\uFEFF0,0,10,0,10,10,0,10,a,b\r\n20,0,30,0,30,10,20,10,###\r\n'),
      'gt/gt_img_2.txt': enc('0,0,10,0,10,10,0,10,word\n'),
      'images/img_1.jpg': new Uint8Array([1]),
      'images/img_2.jpg': new Uint8Array([1]),
    });
    const preds = new MemorySource('sub', {
      'res_img_1.txt': enc('0,0,10,0,10,10,0,10,0.9\r\n21,1,29,1,29,9,21,9,0.8\r\n'),
      'res_img_2.txt': enc(''),
    });
    for (const v of [V101, V063]) {
      const r = await score(src, preds, v);
      expect([v, r.metrics['norm/hits'], r.metrics['norm/gt'], r.metrics['norm/pred'], r.metrics['norm/ignored']]).toEqual([v, 1, 2, 1, 1]);
      expect(r.metrics['norm/hmean']).toBe((2.0 * 1 * 0.5) / 1.5);
    }
  });
});

describe('audit: prediction forms and odd entries', () => {
  const ds = () => ltb({ 'img_1.jpg': [{ poly: box(0, 0, 10, 10) }], 'img_2.jpg': [{ poly: box(0, 0, 10, 10) }] });

  it('the four forms give the same numbers', async () => {
    // img_1: exact hit (0.9) + FP (0.5); img_2: nothing → hits 1, gt 2, pred 2 at 0.3.
    const hit = box(0, 0, 10, 10);
    const fp = box(50, 50, 60, 60);
    const forms: unknown[] = [
      { 'img_1.jpg': [[...hit, 0.9], [...fp, 0.5]] },
      [{ filename: 'img_1.jpg', boundary_result: [[...hit, 0.9], [...fp, 0.5]] }, { filename: 'img_2.jpg', boundary_result: [] }],
      new MemorySource('m', { 'img_1.json': JSON.stringify({ det_polygons: [hit, fp], det_scores: [0.9, 0.5] }) }),
      new MemorySource('m', { 'x.jsonl': JSON.stringify({ img_path: '/data/img_1.jpg', det_polygons: [hit, fp], det_scores: [0.9, 0.5] }) + '\n' }),
      new MemorySource('m', { 'res_img_1.txt': enc(`${hit.join(',')},0.9\n${fp.join(',')},0.5\n`) }),
    ];
    for (const f of forms) {
      const r = await score(ds(), f, V101);
      expect([r.metrics['norm/hits@'] ?? null, r.metrics['norm/hmean@0.3'], r.metrics['norm/hmean@0.6']]).toEqual([null, 0.5, (2.0 * 1 * 0.5) / 1.5]);
    }
  });

  it('odd coordinate counts, < 3 points, a missing score cost that entry only', async () => {
    const p = {
      'img_1.jpg': [
        [0, 0, 10, 0, 10, 10, 0.9], // 3 points + score: a triangle (kept; 0.5 IoU? no: area 50 vs 100 → IoU 0.5 → miss)
        [0, 0, 10, 0, 10, 10, 0, 10], // 8 numbers: no score → dropped
        [0, 0, 10, 0, 0.9], // 2 points → dropped
        [...box(0, 0, 10, 10), 0.8], // hit
      ],
    };
    const r = await score(ds(), p, V101);
    // kept: triangle (FP: IoU with the square = 50 / 100 = 0.5, not > 0.5) and the hit → hits 1, pred 2.
    expect([r.metrics['norm/hits'], r.metrics['norm/pred'], r.counts.dropped_polygons]).toEqual([1, 2, 2]);
    expect(r.warnings.filter((w) => w.includes('img_1.jpg entry')).length).toBe(2);
  });

  it('a second entry for the same image and an unknown image are warnings, not numbers', async () => {
    const list = [
      { filename: 'img_1.jpg', boundary_result: [[...box(0, 0, 10, 10), 0.9]] },
      { filename: 'img_1.jpg', boundary_result: [[...box(50, 50, 60, 60), 0.9]] },
      { filename: 'img_9.jpg', boundary_result: [[...box(50, 50, 60, 60), 0.9]] },
    ];
    const r = await score(ds(), list, V063);
    expect([r.metrics['norm/hits'], r.metrics['norm/pred']]).toEqual([1, 1]);
    expect(r.warnings.some((w) => w.includes('img_9.jpg'))).toBe(true);
    expect(r.warnings.some((w) => w.includes('already given'))).toBe(true);
  });

  it('Python-style NaN / Infinity tokens cost their entries, not the file; a non-list value costs its image', async () => {
    // img_1: NaN score → dropped; then an exact hit at 0.9. img_2: not a list → no predictions.
    // hits 1, gt 2, pred 1 → P = 1, R = 0.5.
    const text = '{"img_1.jpg": [[0, 0, 10, 0, 10, 10, 0, 10, NaN], [0, 0, 10, 0, 10, 10, 0, 10, 0.9], [Infinity, 0, 1, 0, 1, 1, 0, 1, 0.9]], "img_2.jpg": "none"}';
    const r = await score(ds(), new MemorySource('m', { 'py.json': enc(text) }), V101);
    expect([r.metrics['norm/hits'], r.metrics['norm/gt'], r.metrics['norm/pred'], r.counts.dropped_polygons]).toEqual([1, 2, 1, 2]);
    expect(r.warnings.some((w) => w.startsWith('py.json: "img_2.jpg"'))).toBe(true);
    expect(r.warnings.some((w) => w.startsWith('py.json: img_1.jpg entry 1: score is not a number'))).toBe(true);
  });

  it('an empty JSON object is a model that found nothing', async () => {
    const r = await score(ds(), {}, V101);
    expect([r.metrics['norm/pred'], r.metrics['norm/gt'], r.metrics['norm/hmean']]).toEqual([0, 2, 0]);
  });
});
