/**
 * LTB units on the shared ltb-mini folder with its three reference prediction sets: every weight
 * 1 gives `metrics` bit for bit; a subset of images (weights 0/1) gives what scoring that subset
 * alone gives, including subsets whose best threshold is not the official one.
 */
import { describe, expect, it } from 'vitest';
import { predictionInput } from '../../../../cli/predictionInput';
import { nodeFolderSource } from '../../../../cli/nodeSource';
import { HAS_SHARED, shared } from '../../../../test/shared';
import type { LoadedPredictions, ModelResult } from '../../model';
import { BenchSession } from '../../session';
import type { LtbDataset } from '../../benchmarks/ltb/dataset';
import type { LtbPredictions } from '../../benchmarks/ltb/readPredictions';
import { scoreLtb } from '../../benchmarks/ltb/score';
import { ltbTables } from './ltb';
import { computeUncertainty, uncertaintyOptions } from '../index';
import type { GroupTable } from '../table';

async function openMini() {
  const session = await BenchSession.open(nodeFolderSource(shared('data', 'ltb-mini')));
  const loaded: LoadedPredictions<LtbPredictions>[] = [];
  for (const p of ['ltbmini-object.json', 'ltbmini-mmocr.jsonl', 'ltbmini-icdar']) {
    const preds = await session.adapter.loadPredictions(session.dataset, predictionInput(shared('reference', 'ltb', p)));
    loaded.push(...(preds as LoadedPredictions<LtbPredictions>[]));
    await session.addPredictions(predictionInput(shared('reference', 'ltb', p)));
  }
  return { session, ds: session.dataset as LtbDataset, loaded };
}

function evalWith(t: GroupTable, m: number, weights: ArrayLike<number>): Float64Array {
  const sums = new Float64Array(t.width);
  for (let i = 0; i < t.units.length; i++) for (let s = 0; s < t.width; s++) sums[s] += weights[i] * t.stats[m][i * t.width + s];
  const out = new Float64Array(t.keys.length);
  t.evaluate(sums, out);
  return out;
}

describe.skipIf(!HAS_SHARED)('LTB uncertainty units (ltb-mini)', () => {
  it('every weight 1 reproduces metrics exactly, both variants, the sweep and a pinned threshold', async () => {
    const { session } = await openMini();
    for (const [variant, options] of [
      ['mmocr-1.0.1', {}],
      ['mmocr-0.6.3', {}],
      ['mmocr-1.0.1', { score_thr: '0.5' }],
    ] as [string, Record<string, string>][]) {
      const protocol = session.resolveProtocol(variant, options);
      const results = await session.score(protocol);
      const tables = ltbTables(session.dataset as LtbDataset, results, protocol);
      expect(tables.map((t) => t.id)).toEqual(['blurred', 'artistic', 'glass', 'single_char', 'distorted', 'inverse', 'delimited', 'dense', 'overlapped', 'occluded', 'low_contrast', 'complex_bg', 'others', 'hard', 'norm'].filter((k) => tables.some((t) => t.id === k)));
      let checked = 0;
      for (const t of tables) {
        expect([...t.units]).toEqual([...t.units].sort());
        for (let m = 0; m < results.length; m++) {
          const out = evalWith(t, m, new Float64Array(t.units.length).fill(1));
          t.keys.forEach((k, i) => {
            expect(out[i], `${results[m].model} ${k}`).toBe(results[m].metrics[k]);
            checked++;
          });
        }
      }
      expect(checked).toBeGreaterThan(100);
    }
  });

  it('an image subset gives the numbers scoring that subset gives, also where the best threshold moves', async () => {
    const { session, ds, loaded } = await openMini();
    const protocol = session.resolveProtocol(undefined, {});
    const results = await session.score(protocol);
    const tables = ltbTables(ds, results, protocol);
    const thresholdsMoved = new Set<string>();
    const n = ds.images.length;
    // Every subset that leaves out one or two images (the 10-image mini dataset: 55 subsets).
    for (let x = 0; x < n; x++) {
      for (let y = x; y < n; y++) {
        const keep = ds.images.map((_, i) => i !== x && i !== y);
        const subDs: LtbDataset = { ...ds, images: ds.images.filter((_, i) => keep[i]) };
        for (let m = 0; m < loaded.length; m++) {
          const p = loaded[m];
          const sub: LoadedPredictions<LtbPredictions> = { ...p, data: { ...p.data, images: p.data.images.filter((_, i) => keep[i]) } };
          const rescored: ModelResult = await scoreLtb(subDs, sub, protocol, { diagnostics: false });
          for (const t of tables) {
            const w = t.units.map((u) => (keep[ds.byName.get(u)!] ? 1 : 0));
            if (w.every((v) => v === 0)) continue;
            const out = evalWith(t, m, w);
            t.keys.forEach((k, i) => expect(out[i], `${k} without ${x},${y}`).toBe(rescored.metrics[k]));
            if (rescored.metrics[`${t.id}/threshold`] !== results[m].metrics[`${t.id}/threshold`]) thresholdsMoved.add(`${t.id} ${m}`);
          }
        }
      }
    }
    // The check above covers replicates whose best threshold differs from the official one.
    expect(thresholdsMoved.size).toBeGreaterThan(0);
  });

  it('the block: one group per split, intervals around the official value, pairs for every split', async () => {
    const { session } = await openMini();
    const protocol = session.resolveProtocol(undefined, { ci_replicates: '200', ci_permutations: '100' });
    const results = await session.score(protocol);
    const opts = uncertaintyOptions(protocol)!;
    expect(opts).toEqual({ level: 0.95, replicates: 200, permutations: 100, seed: 0 });
    const block = await computeUncertainty('ltb', session.dataset, results, protocol, opts);
    expect(block.groups.length).toBe((session.dataset as LtbDataset).splitFiles.length);
    expect(block.pairs.length).toBe(3 * block.groups.length);
    for (const r of results) {
      for (const g of block.groups) {
        const [lo, hi] = block.intervals[r.model][`${g.id}/hmean`];
        expect(lo).toBeLessThanOrEqual(hi);
        expect(lo).toBeGreaterThanOrEqual(0);
        expect(hi).toBeLessThanOrEqual(1);
      }
    }
    for (const p of block.pairs) {
      expect(p.diff).toBe(results.find((r) => r.model === p.a)!.metrics[p.key] - results.find((r) => r.model === p.b)!.metrics[p.key]);
      expect(p.p_holm).toBeGreaterThanOrEqual(p.p);
      expect(p.p).toBeGreaterThan(0);
    }
    // Same inputs, same bits.
    expect(await computeUncertainty('ltb', session.dataset, results, protocol, opts)).toEqual(block);
  });

  it('the same predictions under two names: Δ 0, interval [0, 0], p 1 in every split; 10 images: exact p on 1024 assignments', async () => {
    const session = await BenchSession.open(nodeFolderSource(shared('data', 'ltb-mini')));
    const file = shared('reference', 'ltb', 'ltbmini-object.json');
    await session.addPredictions({ ...predictionInput(file), name: 'one' });
    await session.addPredictions({ ...predictionInput(file), name: 'two' });
    await session.addPredictions({ ...predictionInput(shared('reference', 'ltb', 'ltbmini-mmocr.jsonl')), name: 'other' });
    const protocol = session.resolveProtocol(undefined, { ci_replicates: '300' });
    const results = await session.score(protocol);
    const block = await computeUncertainty('ltb', session.dataset, results, protocol, uncertaintyOptions(protocol)!);
    const same = block.pairs.filter((p) => p.a === 'one' && p.b === 'two');
    expect(same.length).toBe(block.groups.length);
    for (const p of same) {
      expect(p.diff).toBe(0);
      expect(p.ci).toEqual([0, 0]);
      expect(p.p).toBe(1);
      expect(p.p_holm).toBe(1);
    }
    expect(block.intervals.one).toEqual(block.intervals.two);
    for (const g of block.groups) expect(g.units).toBeLessThanOrEqual(12);
    for (const p of block.pairs) expect(Number.isInteger(p.p * 2 ** block.groups.find((g) => g.id === p.group)!.units)).toBe(true);
  });
});
