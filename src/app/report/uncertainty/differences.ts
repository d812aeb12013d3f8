/**
 * Comparing two models with the block's paired results: the difference A − B of one metric (the
 * block stores each pair once, in model order, so B − A is read by negating), whether it is
 * significant after Holm, and the "Where do A and B differ" ranking. Pure functions, unit-tested.
 */
import { formatMetric } from '../format';
import type { UncertaintyBlockView, UncertaintyPair } from './block';

/** One paired result read as A − B. */
export interface Difference {
  group: string;
  key: string;
  /** The key without its group prefix: the metric compared across groups (`hmean`, `t2r/f1`). */
  family: string;
  diff: number;
  ci: [number, number];
  p: number;
  p_holm: number;
  significant: boolean;
  units: number | undefined;
}

/** The metric a pair key measures, whatever the group: `hard/hmean` → `hmean`; `overall` (group all) → `overall`. */
export function familyOf(group: string, key: string): string {
  return key.startsWith(group + '/') ? key.slice(group.length + 1) : key;
}

/**
 * Significant after Holm at the block's level (spec: `p_holm < 1 − ci_level`). The bound is
 * computed as the spec writes it; 1 − 0.95 is 0.050000000000000044 in doubles, which only matters
 * for a p of exactly 0.05, and then the same way as in any checker that follows the spec.
 */
export function isSignificant(pHolm: number, level: number): boolean {
  return pHolm < 1 - level;
}

/** Every paired result of models a and b, read as a − b; empty when the block has no such pair. */
export function differencesOf(block: UncertaintyBlockView, a: string, b: string): Difference[] {
  if (a === b) return [];
  const units = new Map(block.groups.map((g) => [g.id, g.units]));
  const out: Difference[] = [];
  for (const p of block.pairs) {
    const flip = p.a === b && p.b === a;
    if (!flip && !(p.a === a && p.b === b)) continue;
    out.push(oriented(p, flip, block.level, units.get(p.group)));
  }
  return out;
}

function oriented(p: UncertaintyPair, flip: boolean, level: number, units: number | undefined): Difference {
  return {
    group: p.group,
    key: p.key,
    family: familyOf(p.group, p.key),
    // -0 would print as "−0.00"; a zero difference is zero either way.
    diff: flip ? 0 - p.diff : p.diff,
    ci: flip ? [0 - p.ci[1], 0 - p.ci[0]] : [p.ci[0], p.ci[1]],
    p: p.p,
    p_holm: p.p_holm,
    significant: isSignificant(p.p_holm, level),
    units,
  };
}

/** The metric families of a pair, in the order the block first lists them (the first is the default). */
export function familiesOf(diffs: readonly Difference[]): string[] {
  return [...new Set(diffs.map((d) => d.family))];
}

/**
 * "Where do A and B differ": one metric family's differences over every group, most significant
 * first (adjusted p ascending), ties by the larger |Δ|, then by the block's group order (stable).
 * A difference whose p is not a number (no units) sorts last.
 */
export function rankDifferences(diffs: readonly Difference[], family: string): Difference[] {
  const p = (d: Difference) => (Number.isNaN(d.p_holm) ? Infinity : d.p_holm);
  const size = (d: Difference) => (Number.isNaN(d.diff) ? -1 : Math.abs(d.diff));
  return diffs
    .filter((d) => d.family === family)
    .map((d, i) => ({ d, i }))
    .sort((x, y) => p(x.d) - p(y.d) || size(y.d) - size(x.d) || x.i - y.i)
    .map((x) => x.d);
}

/** The differences the report's headline metrics have (the layout's headlines; else those of the first group). */
export function headlineDifferences(diffs: readonly Difference[], headlines: readonly string[]): Difference[] {
  const picked = diffs.filter((d) => headlines.includes(d.key));
  if (picked.length > 0) return headlines.flatMap((h) => picked.filter((d) => d.key === h));
  const first = diffs[0]?.group;
  return diffs.filter((d) => d.group === first);
}

/** A difference in the metric's display format with its sign: "+2.10", "−0.35", "0.00". */
export function formatDelta(key: string, v: number, decimals?: number): string {
  if (Number.isNaN(v)) return 'NaN';
  const text = formatMetric(key, Math.abs(v), decimals);
  // The sign goes by the digits shown: a difference that rounds to zero is not "+0.00".
  if (/^[0.]*$/.test(text)) return text;
  return `${v > 0 ? '+' : '−'}${text}`;
}

/** A p-value for reading: three decimals, "< 0.001" below (the exact value goes in the title). */
export function formatP(p: number): string {
  if (Number.isNaN(p)) return '—';
  return p < 0.001 ? '< 0.001' : p.toFixed(3);
}
