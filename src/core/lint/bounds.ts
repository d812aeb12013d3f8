/** `out_of_image`: a GT point or box edge more than 1 px outside the image (0 ≤ x ≤ width, 0 ≤ y ≤ height). */
import { coord } from './format';

export const OUT_OF_IMAGE_SLACK = 1;

/**
 * Null when every point is within the image (1 px slack); else a sentence naming the farthest
 * point outside. `points` is flat [x, y, …]; `what` names a point ("point", "corner").
 */
export function outsideImage(
  points: ArrayLike<number>,
  width: number,
  height: number,
  what = 'point',
  frame = `the ${width}×${height} image`,
): string | null {
  let worst = OUT_OF_IMAGE_SLACK;
  let at = -1;
  let n = 0;
  for (let i = 0; i + 1 < points.length; i += 2) {
    const x = points[i], y = points[i + 1];
    const d = Math.max(-x, x - width, -y, y - height);
    if (d > OUT_OF_IMAGE_SLACK) n++;
    if (d > worst) {
      worst = d;
      at = i >> 1;
    }
  }
  if (at < 0) return null;
  return (
    `${n} ${what}${n === 1 ? '' : 's'} outside ${frame}, the farthest ${what} ${at + 1} ` +
    `(${coord(points[2 * at])}, ${coord(points[2 * at + 1])}) by ${coord(worst)} px`
  );
}
