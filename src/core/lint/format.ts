/** Numbers as the findings' `detail` sentences write them. */

/** An area in px²: "1,204"; under 10 with one decimal ("0.5"). */
export function area(a: number): string {
  if (a > 0 && a < 10) return a.toFixed(1);
  return Math.round(a).toLocaleString('en-US');
}

/** An IoU or share with two decimals, never rounded up to a threshold it does not reach. */
export function ratio(x: number): string {
  const s = (Math.floor(x * 100) / 100).toFixed(2);
  return s;
}

/** A share as a percentage with one decimal (rounded: 0.99999 is "100.0%"). */
export function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/** A coordinate: integers as they are, others with at most 2 decimals. */
export function coord(x: number): string {
  return Number.isInteger(x) ? String(x) : String(Math.round(x * 100) / 100);
}

export function box(b: readonly number[]): string {
  return `[${b.map(coord).join(', ')}]`;
}

export function list(xs: readonly string[], max = 6): string {
  return xs.length <= max ? xs.join(', ') : `${xs.slice(0, max).join(', ')} and ${xs.length - max} more`;
}
