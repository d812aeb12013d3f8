/** Pure geometry for the GT editor: what a drag or a resize turns into, in image coordinates. */

export type Box = [number, number, number, number];

/** A box from two drag corners (any direction); null when it is too small to be meant. */
export function boxFromDrag(x0: number, y0: number, x1: number, y1: number, minSize: number): Box | null {
  const box: Box = [Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)];
  return box[2] - box[0] < minSize || box[3] - box[1] < minSize ? null : box;
}

/** A Konva Rect after a transform (position, size, scale — scale may be negative after a flip). */
export function boxFromRect(x: number, y: number, width: number, height: number, scaleX: number, scaleY: number): Box {
  const w = width * scaleX;
  const h = height * scaleY;
  return [Math.min(x, x + w), Math.min(y, y + h), Math.max(x, x + w), Math.max(y, y + h)];
}

/** The polygon with vertex i moved to (x, y); a new array. */
export function moveVertex(points: readonly number[], i: number, x: number, y: number): number[] {
  const out = [...points];
  out[2 * i] = x;
  out[2 * i + 1] = y;
  return out;
}

/** The polygon moved by (dx, dy). */
export function translate(points: readonly number[], dx: number, dy: number): number[] {
  return points.map((v, i) => v + (i % 2 === 0 ? dx : dy));
}

/** The polygon without vertex i, or null when that would leave fewer than 3 points. */
export function removeVertex(points: readonly number[], i: number): number[] | null {
  if (points.length <= 6) return null;
  return [...points.slice(0, 2 * i), ...points.slice(2 * i + 2)];
}

/** Rounds to 1/100 px so stored coordinates do not carry float noise from the screen transform. */
export function roundCoords(v: readonly number[]): number[] {
  return v.map((x) => Math.round(x * 100) / 100);
}
