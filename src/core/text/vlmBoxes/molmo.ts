/**
 * Molmo answers with points, not boxes: `<point x="61.5" y="40.6" alt="t">t</point>` or
 * `<points x1="…" y1="…" x2="…" y2="…" alt="t">t</points>`, in percent (0–100) of the image —
 * the pattern allenai/olmo-ui reads (`src/components/thread/points/pointRegex.ts`):
 *     /<points?(?:\s+x\d?="\d+\.?\d*"\s+y\d?="\d+\.?\d*")+.*>(?<text>.*)<\/points?>/g
 *
 * An IoU metric cannot credit a point, so the decision here (documented in docs/vlm-boxes.md):
 * a `<points>` element with an even number of points ≥ 2 is read as boxes, each pair of points the
 * two corners (x1, y1)–(x2, y2) (what a "point to the top-left and bottom-right corner" prompt
 * gives); any other point is a zero-area box: it counts as a prediction and matches nothing, and
 * the diagnosis says how many there were.
 */
import type { FamilyRead, FamilyReader, UnitBox } from './types';

const ELEMENT = /<(points?)\b([^>]*)>/g;
const ATTR = /\b([xy])(\d*)\s*=\s*"([-+]?(?:\d+(?:\.\d*)?|\.\d+))"/g;

function pointsOf(attrs: string): [number, number][] {
  const xs = new Map<string, number>();
  const ys = new Map<string, number>();
  for (const m of attrs.matchAll(ATTR)) (m[1] === 'x' ? xs : ys).set(m[2], Number(m[3]));
  const out: [number, number][] = [];
  for (const [k, x] of xs) {
    const y = ys.get(k);
    if (y !== undefined) out.push([x / 100, y / 100]);
  }
  return out;
}

export const molmo: FamilyReader = {
  family: 'molmo',
  short: '<point(s)> in percent',
  models: 'Molmo',
  writes: 'points `<point x="…" y="…">` / `<points x1="…" y1="…" x2="…" y2="…">`',
  space: 'percent (0–100) of the image; a pair of points in one `<points>` = two corners, a lone point = a zero-area box',
  detect: (t) => /<points?\s+x\d*\s*=/.test(t),
  read: (t): FamilyRead => {
    const boxes: UnitBox[] = [];
    let points = 0;
    for (const m of t.matchAll(ELEMENT)) {
      const pts = pointsOf(m[2]);
      if (m[1] === 'points' && pts.length >= 2 && pts.length % 2 === 0) {
        for (let i = 0; i < pts.length; i += 2) boxes.push([pts[i][0], pts[i][1], pts[i + 1][0], pts[i + 1][1]]);
      } else {
        for (const [x, y] of pts) boxes.push([x, y, x, y]);
        points += pts.length;
      }
    }
    return { boxes, found: boxes.length > 0, needsSize: false, points };
  },
};
