/**
 * Holm's step-down adjustment: sorted ascending, p_(j) · (m − j + 1) (j from 1), made
 * monotone by a running maximum and capped at 1. Ties keep their input order, which does not
 * change the adjusted values.
 */
export function holm(p: readonly number[]): number[] {
  const m = p.length;
  const order = p.map((_, i) => i).sort((x, y) => p[x] - p[y] || x - y);
  const out = new Array<number>(m);
  let running = 0;
  for (let j = 0; j < m; j++) {
    const i = order[j];
    running = Math.max(running, Math.min(1, (m - j) * p[i]));
    out[i] = running;
  }
  return out;
}
