/**
 * How numbers appear on screen: rates × 100 with a fixed number of decimals, counts as integers,
 * thresholds as they are. The exact value always goes in the cell's title (tooltip).
 */

/** Last key segments that hold counts, never rates. */
const COUNT_KEYS = new Set(['n', 'tp', 'fp', 'fn', 'hits', 'gt', 'pred', 'ignored', 'pages', 'samples', 'macro_skipped_samples', 'cases', 'skipped']);

export type MetricKind = 'rate' | 'count' | 'threshold';

export function metricKind(key: string): MetricKind {
  const last = key.slice(key.lastIndexOf('/') + 1);
  if (last === 'threshold' || last === 'score_thr') return 'threshold';
  if (COUNT_KEYS.has(last)) return 'count';
  return 'rate';
}

export function formatMetric(key: string, v: number | undefined, decimals = 2): string {
  if (v === undefined || v === null) return '—';
  if (Number.isNaN(v)) return 'NaN';
  switch (metricKind(key)) {
    case 'count':
      return Number.isInteger(v) ? String(v) : v.toFixed(2);
    case 'threshold':
      return v.toFixed(2);
    default:
      return (v * 100).toFixed(decimals);
  }
}

export function formatOptions(options: Record<string, unknown>): string {
  const parts = Object.entries(options).map(([k, v]) => `${k}=${String(v)}`);
  return parts.length ? parts.join(', ') : 'no options';
}
