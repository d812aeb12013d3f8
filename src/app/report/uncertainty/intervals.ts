/**
 * Reading the uncertainty block for display: a metric's interval, the group a metric key belongs
 * to (for "n < 30"), and the text of a tooltip. Pure functions, unit-tested.
 */
import { formatMetric } from '../format';
import type { UncertaintyBlockView } from './block';

/** Below this many units a group is flagged: percentile intervals of so few resampled units are rough. */
export const SMALL_GROUP = 30;

/** The interval of one metric of one model; undefined where the block has none (counts, empty groups). */
export function intervalOf(block: UncertaintyBlockView | null | undefined, model: string, key: string): [number, number] | undefined {
  return block?.intervals[model]?.[key];
}

/**
 * The group a metric key is aggregated over: the longest group id that prefixes the key
 * (`hard` for `hard/hmean`, `category/x` for `category/x/overall`), else `all` when the block has
 * it (TABench's `overall`, gansulishuzhi's `iou0.5/f1`).
 */
export function groupOfKey(block: UncertaintyBlockView | null | undefined, key: string): { id: string; units: number } | undefined {
  return prefixGroupOfKey(block, key) ?? block?.groups.find((g) => g.id === 'all');
}

/** The longest group id that prefixes `key` (`hard` for `hard/hmean`); undefined when none does. */
export function prefixGroupOfKey(block: UncertaintyBlockView | null | undefined, key: string): { id: string; units: number } | undefined {
  let best: { id: string; units: number } | undefined;
  for (const g of block?.groups ?? []) {
    if (key.startsWith(g.id + '/') && (!best || g.id.length > best.id.length)) best = g;
  }
  return best;
}

/** "61.23 – 69.01" in the metric's own display format. */
export function formatInterval(key: string, ci: readonly [number, number], decimals?: number): string {
  return `${formatMetric(key, ci[0], decimals)} – ${formatMetric(key, ci[1], decimals)}`;
}

export function unitsText(n: number): string {
  return `${n} unit${n === 1 ? '' : 's'}`;
}

/** "95 %" for a level of 0.95. */
export function levelText(level: number): string {
  return `${+(level * 100).toFixed(4)} %`;
}

/** A metric cell's interval popover (two lines), or null when the metric has no interval. */
export function intervalTitle(block: UncertaintyBlockView | null | undefined, model: string, key: string, decimals?: number): string | null {
  const ci = intervalOf(block, model, key);
  if (!block || !ci) return null;
  const g = groupOfKey(block, key);
  const n = g ? `; ${g.id}: ${unitsText(g.units)}${g.units < SMALL_GROUP ? ' (n < 30)' : ''}` : '';
  return `${levelText(block.level)} interval ${formatInterval(key, ci, decimals)}\nbootstrap, ${block.replicates} replicates${n}`;
}
