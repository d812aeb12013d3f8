/** Axis-aligned boxes `[x_min, y_min, x_max, y_max]`, continuous coordinates (no +1 pixel rule). */
export type Box = [number, number, number, number];

export function boxArea(b: readonly number[]): number {
  const w = b[2] - b[0];
  const h = b[3] - b[1];
  return w > 0 && h > 0 ? w * h : 0;
}

/** inter / (areaA + areaB − inter); 0 for degenerate boxes or an empty union. */
export function boxIoU(a: readonly number[], b: readonly number[]): number {
  const aa = boxArea(a);
  const ab = boxArea(b);
  if (aa <= 0 || ab <= 0) return 0;
  const iw = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const ih = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  if (iw <= 0 || ih <= 0) return 0;
  const inter = iw * ih;
  const union = aa + ab - inter;
  return union > 0 ? inter / union : 0;
}

/** Centre of a box. */
export function boxCenter(b: readonly number[]): [number, number] {
  return [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
}

export function isFiniteNumberArray(v: unknown, n?: number): v is number[] {
  return Array.isArray(v) && (n === undefined || v.length === n) && v.every((x) => typeof x === 'number' && Number.isFinite(x));
}
