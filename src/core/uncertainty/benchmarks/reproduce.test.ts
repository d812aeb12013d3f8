/**
 * For every benchmark's shared mini dataset and its reference prediction sets: a replicate with
 * every weight 1 is the official aggregation itself, so it gives `metrics` bit for bit — except
 * gansulishuzhi's mean IoUs and TABench's CER, sums of per-pair / per-query floats that the
 * official code adds in file order and a replicate adds per unit first, then in the spec's unit
 * order (they agree to an ulp).
 */
import { describe, expect, it } from 'vitest';
import { predictionInput } from '../../../../cli/predictionInput';
import { nodeFolderSource } from '../../../../cli/nodeSource';
import { HAS_SHARED, shared } from '../../../../test/shared';
import type { BenchmarkId } from '../../model';
import { BenchSession } from '../../session';
import { groupTablesFor } from '../adapters';
import { computeUncertainty, uncertaintyOptions } from '../index';

const CASES: { benchmark: BenchmarkId; data: string; preds: string[]; exact: (key: string) => boolean }[] = [
  { benchmark: 'gansulishuzhi', data: 'gansulishuzhi-mini', preds: ['glm4v-sim.jsonl', 'qwen25vl-7b-sim.jsonl'], exact: (k) => !k.endsWith('mean_iou') },
  { benchmark: 'tabench', data: 'tabench-mini', preds: ['qwen3vl-2b-sim.jsonl', 'thinker-7b-sim.jsonl'], exact: (k) => !k.endsWith('r2t/cer') },
  { benchmark: 'pulsebench-select', data: 'pulsebench-select-mini', preds: ['gpt-vision-sim.jsonl', 'pulse-ultra-sim.jsonl'], exact: () => true },
  { benchmark: 'chronicles', data: 'chronicles-mini', preds: [], exact: () => true },
];

async function scored(c: (typeof CASES)[number], options: Record<string, string> = {}) {
  const session = await BenchSession.open(nodeFolderSource(shared('data', c.data)), c.benchmark);
  if (c.preds.length === 0) await session.addBundledPredictions();
  for (const p of c.preds) await session.addPredictions(predictionInput(shared('reference', c.benchmark, p)));
  const protocol = session.resolveProtocol(undefined, options);
  return { session, protocol, results: await session.score(protocol) };
}

describe.skipIf(!HAS_SHARED)('every weight 1 reproduces metrics', () => {
  for (const c of CASES) {
    it(c.benchmark, async () => {
      const { session, protocol, results } = await scored(c);
      expect(results.length).toBeGreaterThanOrEqual(2);
      const tables = groupTablesFor(c.benchmark, session.dataset, results, protocol);
      let exact = 0;
      let close = 0;
      for (const t of tables) {
        for (let m = 0; m < results.length; m++) {
          const sums = new Float64Array(t.width);
          for (let i = 0; i < t.units.length * t.width; i++) sums[i % t.width] += t.stats[m][i];
          const out = new Float64Array(t.keys.length);
          t.evaluate(sums, out);
          t.keys.forEach((k, i) => {
            const want = results[m].metrics[k];
            if (want === undefined) return expect(out[i], k).toBeNaN();
            if (c.exact(k)) {
              expect(out[i], `${t.id} ${k}`).toBe(want);
              exact++;
            } else {
              expect(Math.abs(out[i] - want), `${t.id} ${k}`).toBeLessThanOrEqual(1e-12);
              close++;
            }
          });
        }
      }
      expect(exact + close).toBeGreaterThan(5);
    });
  }

  it('TABench t2r_average=macro, every slice', async () => {
    const { session, protocol, results } = await scored(CASES[1], { t2r_average: 'macro' });
    const tables = groupTablesFor('tabench', session.dataset, results, protocol);
    expect(tables[0].id).toBe('all');
    expect(tables.length).toBeGreaterThan(3);
    for (const t of tables) {
      const sums = new Float64Array(t.width);
      for (let i = 0; i < t.units.length * t.width; i++) sums[i % t.width] += t.stats[0][i];
      const out = new Float64Array(t.keys.length);
      t.evaluate(sums, out);
      t.keys.forEach((k, i) => expect(Math.abs(out[i] - results[0].metrics[k]), k).toBeLessThanOrEqual(1e-12));
    }
  });

  it('the blocks are well formed and identical when computed twice', async () => {
    for (const c of CASES) {
      const { session, protocol, results } = await scored(c, { ci_replicates: '100', ci_permutations: '50' });
      const opts = uncertaintyOptions(protocol)!;
      const block = await computeUncertainty(c.benchmark, session.dataset, results, protocol, opts);
      expect(block.groups.length, c.benchmark).toBeGreaterThan(0);
      expect(block.pairs.length, c.benchmark).toBeGreaterThan(0);
      for (const r of results) expect(Object.keys(block.intervals[r.model]).length, c.benchmark).toBeGreaterThan(0);
      expect(JSON.stringify(await computeUncertainty(c.benchmark, session.dataset, results, protocol, opts))).toBe(JSON.stringify(block));
    }
  });
});
