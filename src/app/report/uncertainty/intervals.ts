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
  if (!block) return undefined;
  let best: { id: string; units: number } | undefined;
  for (const g of block.groups) {
    if (key.startsWith(g.id + '/') && (!best || g.id.length > best.id.length)) best = g;
  }
  return best ?? block.groups.find((g) => g.id === 'all');
}

/** "61.23 – 69.01" in the metric's own display format. */
export function formatInterval(key: string, ci: readonly [number, number], decimals?: number): string {
  return `${formatMetric(key, ci[0], decimals)} – ${formatMetric(key, ci[1], decimals)}`;
}

/** "95 %" for a level of 0.95. */
export function levelText(level: number): string {
  return `${+(level * 100).toFixed(4)} %`;
}

/** The second line of a metric cell's tooltip, or null when the metric has no interval. */
export function intervalTitle(block: UncertaintyBlockView | null | undefined, model: string, key: string, decimals?: number): string | null {
  const ci = intervalOf(block, model, key);
  if (!block || !ci) return null;
  const g = groupOfKey(block, key);
  const n = g ? `, ${g.units} unit${g.units === 1 ? '' : 's'} in ${g.id}${g.units < SMALL_GROUP ? ' (n < 30: rough)' : ''}` : '';
  return `${levelText(block.level)} interval: ${formatInterval(key, ci, decimals)} (bootstrap, ${block.replicates} replicates${n})`;
}
