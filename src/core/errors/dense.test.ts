/**
 * The `split` union of box benchmarks by sweep line (geometry/rectUnion.ts) instead of Clipper2:
 * the same classes as before on random cases, and work that stays near-linear on one page of
 * many overlapping boxes (test/densePage.ts; the timings are in `npm run bench -- dense`).
 */
import { describe, expect, it } from 'vitest';
import { rng } from '../benchmarks/ltb/synthetic';
import { boxRegion, unionIoU } from '../geometry/polygonRegion';
import { rectUnionStats } from '../geometry/rectUnion';
import { MemorySource } from '../io/fileSource';
import { FN_CLASSES, type ModelResult } from '../model';
import { BenchSession } from '../session';
import { densePageFiles } from '../../../test/densePage';
import { boxErrorImage, classifyBoxes, newBoxMemo, type BoxCase } from './boxes';
import { classifyImage, SIBLINGS_MAX, type ErrorRules } from './classify';

/** A random case: GTs, predictions (some fragments of a GT), and greedy official pairs at T. */
function randomCase(rand: () => number, t: number): BoxCase {
  const box = (x: number, y: number, w: number, h: number) => [x, y, x + w, y + h].map(Math.round);
  const gt = Array.from({ length: 1 + Math.floor(rand() * 6) }, () => box(rand() * 400, rand() * 400, 20 + rand() * 150, 20 + rand() * 150));
  const pred: number[][] = [];
  for (let i = 0, n = Math.floor(rand() * 30); i < n; i++) {
    if (rand() < 0.6) {
      const g = gt[Math.floor(rand() * gt.length)];
      const w = (g[2] - g[0]) * (0.2 + rand() * 0.9), h = (g[3] - g[1]) * (0.2 + rand() * 0.9);
      pred.push(box(g[0] + rand() * (g[2] - g[0] - w * 0.7), g[1] + rand() * (g[3] - g[1] - h * 0.7), w, h));
    } else pred.push(box(rand() * 450, rand() * 450, 10 + rand() * 120, 10 + rand() * 120));
  }
  const gtPartner = new Int32Array(gt.length).fill(-1);
  const predPartner = new Int32Array(pred.length).fill(-1);
  const im = boxErrorImage({ gt, pred, gtPartner, predPartner });
  for (let g = 0; g < gt.length; g++) {
    for (let q = im.gStart[g]; q < im.gStart[g + 1]; q++) {
      const p = im.pp[q];
      if (predPartner[p] < 0 && im.piou[q] >= t) {
        gtPartner[g] = p;
        predPartner[p] = g;
        break;
      }
    }
  }
  return { gt, pred, gtPartner, predPartner };
}

describe('split by sweep line: the classes Clipper2 gave', () => {
  it('on 2,000 random cases at T = 0.3 / 0.5 / 0.7, classes and the instances named are identical', () => {
    const rand = rng(2024);
    let splits = 0;
    for (let trial = 0; trial < 2000; trial++) {
      const t = [0.3, 0.5, 0.7][trial % 3];
      const c = randomCase(rand, t);
      const now = classifyBoxes(c, t, false, true);
      const im = boxErrorImage(c);
      const rules: ErrorRules = { iou: t, strict: false, unionIoU: (g, parts) => unionIoU(boxRegion(c.gt[g]), parts.map((p) => boxRegion(c.pred[p]))) };
      const before = classifyImage(im, rules, true, { fn: new Int8Array(im.nGt), fp: new Int8Array(im.nPred) });
      expect([...now.res.fn], `trial ${trial}`).toEqual([...before.fn]);
      expect([...now.res.fp], `trial ${trial}`).toEqual([...before.fp]);
      expect(now.res.fnWith, `trial ${trial}`).toEqual(before.fnWith);
      expect(now.res.fpWith, `trial ${trial}`).toEqual(before.fpWith);
      splits += [...now.res.fn].filter((k) => k === FN_CLASSES.indexOf('split')).length;
    }
    // The comparison exercised the rule it is about.
    expect(splits).toBeGreaterThan(50);
  });
  it('reuses the pairs and unions across thresholds without changing a class', () => {
    const rand = rng(99);
    for (let trial = 0; trial < 300; trial++) {
      const memo = newBoxMemo();
      const base = randomCase(rand, 0.3);
      for (const t of [0.3, 0.5, 0.7]) {
        // Partners at t: the 0.3 pairs that still pass.
        const gtPartner = Int32Array.from(base.gtPartner);
        const predPartner = Int32Array.from(base.predPartner);
        const im = boxErrorImage(base);
        for (let g = 0; g < base.gt.length; g++) {
          const p = gtPartner[g];
          if (p < 0) continue;
          let iou = 0;
          for (let q = im.gStart[g]; q < im.gStart[g + 1]; q++) if (im.pp[q] === p) iou = im.piou[q];
          if (iou < t) {
            gtPartner[g] = -1;
            predPartner[p] = -1;
          }
        }
        const c = { ...base, gtPartner, predPartner };
        const shared = classifyBoxes(c, t, false, true, undefined, memo);
        const alone = classifyBoxes(c, t, false, true);
        expect([...shared.res.fn]).toEqual([...alone.res.fn]);
        expect([...shared.res.fp]).toEqual([...alone.res.fp]);
        expect(shared.res.fpWith).toEqual(alone.res.fpWith);
      }
    }
  });
});

async function scoreDense(n: number): Promise<{ r: ModelResult; visits: number }> {
  const files = densePageFiles(n);
  const s = await BenchSession.open(new MemorySource('dense', files.dataset));
  await s.addPredictions({ source: new MemorySource('r', { 'run.jsonl': files.run }), path: 'run.jsonl', name: 'run' });
  const before = rectUnionStats.visits;
  const [r] = await s.score(s.resolveProtocol(undefined, {}));
  return { r, visits: rectUnionStats.visits - before };
}

describe('one gansulishuzhi page of many overlapping boxes', () => {
  it('costs near-linear union work and error_with ids: 4× the boxes, under 5.5× the work (quadratic: 16×)', async () => {
    const small = await scoreDense(3_000);
    const large = await scoreDense(12_000);
    for (const { r } of [small, large]) {
      const e = r.diagnostics!.errors!['iou0.5'];
      // Every GT is a split of its fragments; the classes still add up to the official counts.
      expect(e.fn.split).toBe(8);
      expect(Object.values(e.fn).reduce((a, b) => a + b, 0)).toBe(e.gt - e.hits);
      expect(Object.values(e.fp).reduce((a, b) => a + b, 0)).toBe(e.pred - e.hits);
    }
    expect(large.visits / small.visits).toBeLessThan(5.5);
    const ids = (r: ModelResult) => r.cases[0].pred.reduce((a, p) => a + (p.error_with?.pred?.length ?? 0) + (p.error_with?.gt?.length ?? 0), 0);
    // A part names at most SIBLINGS_MAX siblings and its GT.
    expect(ids(large.r)).toBeLessThanOrEqual(12_000 * (SIBLINGS_MAX + 1));
    const splitParts = large.r.cases[0].pred.filter((p) => p.error === 'split');
    expect(splitParts.length).toBeGreaterThan(12_000 * 0.8);
    expect(splitParts.every((p) => (p.error_with?.pred?.length ?? 0) === SIBLINGS_MAX)).toBe(true);
    // The GT's own FN still names every part.
    const g0 = large.r.cases[0].gt[0];
    expect(g0.error).toBe('split');
    expect(g0.error_with!.pred!.length).toBe(splitParts.filter((p) => p.error_with!.gt![0] === 0).length);
  }, 60_000);
});
