/**
 * TABench: a unit is an image with all of its queries (both tasks); groups are `all` and every
 * category / source / level slice. Each query's sums (tabench/metrics SLICE_COLUMNS, recorded
 * while scoring) are added up per image and slice; a replicate turns the weighted sums into the
 * slice's rates with the official sliceRates (micro or macro T2R as the protocol says).
 */
import { InputError, type CaseRecord, type ModelResult, type Protocol } from '../../model';
import { SLICE_COLUMNS, SLICE_RATE_KEYS, sliceRates, type SliceSums } from '../../benchmarks/tabench/metrics';
import { tabenchOptions } from '../../benchmarks/tabench/score';
import type { GroupTable } from '../table';
import { sortedUnits } from './common';

const W = SLICE_COLUMNS.length;
const FACETS = [
  ['category', 'category'],
  ['source', 'source_dataset'],
  ['level', 'annotation_level'],
] as const;

/** The groups a query belongs to: `all` and its slices. */
function groupsOf(c: CaseRecord): string[] {
  const out = ['all'];
  for (const [kind, facet] of FACETS) {
    const v = c.facets[facet];
    if (v !== undefined) out.push(`${kind}/${String(v)}`);
  }
  return out;
}

export function tabenchTables(results: readonly ModelResult[], protocol: Protocol): GroupTable[] {
  if (results.length === 0) return [];
  const average = tabenchOptions(protocol).average;
  // group → image → per model the image's summed query rows. Each model's own cases say where
  // its queries go (models scored in different coordinate spaces read different benchmark files).
  const members = new Map<string, Map<string, Float64Array>>();
  results.forEach((r, m) => {
    const t = r.unitStats?.queries;
    if (!t || t.width !== W || t.rows.length !== r.cases.length * W) throw new InputError(`uncertainty: ${r.model} carries no per-query statistics`);
    r.cases.forEach((c, qi) => {
      for (const g of groupsOf(c)) {
        let byImage = members.get(g);
        if (!byImage) members.set(g, (byImage = new Map()));
        const img = c.image_path ?? c.case_id;
        let rows = byImage.get(img);
        if (!rows) byImage.set(img, (rows = new Float64Array(results.length * W)));
        // The image's queries in file order, as the official sums add them.
        for (let s = 0; s < W; s++) rows[m * W + s] += t.rows[qi * W + s];
      }
    });
  });
  const kindRank = (g: string) => (g === 'all' ? 0 : 1 + FACETS.findIndex(([k]) => g.startsWith(`${k}/`)));
  const ids = [...members.keys()].sort((a, b) => kindRank(a) - kindRank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const sums: SliceSums = Object.fromEntries(SLICE_COLUMNS.map((k) => [k, 0])) as SliceSums;
  return ids.map((id) => {
    const byImage = members.get(id)!;
    const { units } = sortedUnits([...byImage.keys()]);
    const prefix = id === 'all' ? '' : `${id}/`;
    const stats = results.map((_, m) => {
      const out = new Float64Array(units.length * W);
      units.forEach((u, i) => out.set(byImage.get(u)!.subarray(m * W, (m + 1) * W), i * W));
      return out;
    });
    const keys = SLICE_RATE_KEYS.map((k) => prefix + k);
    return {
      id,
      units,
      width: W,
      stats,
      keys,
      pairKeys: (['overall', 'r2t/accuracy', 't2r/f1'] as const).map((k) => ({ index: SLICE_RATE_KEYS.indexOf(k), family: k })),
      evaluate(s: Float64Array, out: Float64Array) {
        for (let c = 0; c < W; c++) sums[SLICE_COLUMNS[c]] = s[c];
        sliceRates(sums, average, out);
      },
    } satisfies GroupTable;
  });
}
