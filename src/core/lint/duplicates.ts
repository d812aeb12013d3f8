/**
 * `duplicate_instance`: two GT instances of one case with IoU ≥ 0.9 (and equal text where the GT
 * has text), reported on the later one. Only pairs whose bounding boxes overlap are compared
 * (pairs.ts), and only when their areas allow IoU ≥ 0.9 (IoU ≤ smaller area / larger area).
 */
import { overlappingPairs } from './pairs';

export const DUPLICATE_IOU = 0.9;

export interface Duplicate {
  /** The later instance (reported), the earlier one it repeats, their IoU. */
  later: number;
  earlier: number;
  iou: number;
}

/**
 * `bounds`: 4 numbers per instance; `area(i)`: an instance's area (as the IoU sees it); `texts`: null when the GT has
 * no text; `iou(i, j)`: the protocol's IoU of two instances. One Duplicate per later instance
 * (its best earlier partner), in instance order.
 */
export function findDuplicates(
  bounds: Float64Array,
  area: (i: number) => number,
  texts: readonly (string | undefined)[] | null,
  iou: (i: number, j: number) => number,
): Duplicate[] {
  const best = new Map<number, Duplicate>();
  overlappingPairs(bounds, (i, j) => {
    const a = area(i), b = area(j);
    if (!(a > 0 && b > 0) || Math.min(a, b) / Math.max(a, b) < DUPLICATE_IOU) return;
    if (texts && texts[i] !== texts[j]) return;
    const v = iou(i, j);
    if (!(v >= DUPLICATE_IOU)) return;
    const prev = best.get(j);
    if (!prev || v > prev.iou) best.set(j, { later: j, earlier: i, iou: v });
  });
  return [...best.values()].sort((x, y) => x.later - y.later);
}
