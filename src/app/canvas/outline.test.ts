import { describe, expect, it } from 'vitest';
import { MITER_LIMIT, traceRing, type PathSink } from './outline';

/** Records the contours a PathSink receives. */
function record(pts: number[], hw: number): number[][][] {
  const contours: number[][][] = [];
  const sink: PathSink = {
    moveTo: (x, y) => contours.push([[x, y]]),
    lineTo: (x, y) => contours[contours.length - 1].push([x, y]),
    closePath: () => {},
  };
  traceRing(sink, pts, hw);
  return contours;
}

const signedArea = (c: number[][]) => c.reduce((a, [x, y], i) => a + x * c[(i + 1) % c.length][1] - c[(i + 1) % c.length][0] * y, 0) / 2;

/** Winding number of the contours around (x, y), as the 'nonzero' fill rule counts it. */
function winding(contours: number[][][], x: number, y: number): number {
  let w = 0;
  for (const c of contours)
    for (let i = 0; i < c.length; i++) {
      const [x0, y0] = c[i];
      const [x1, y1] = c[(i + 1) % c.length];
      if (y0 <= y && y1 > y && (x1 - x0) * (y - y0) - (x - x0) * (y1 - y0) > 0) w++;
      else if (y0 > y && y1 <= y && (x1 - x0) * (y - y0) - (x - x0) * (y1 - y0) < 0) w--;
    }
  return w;
}

const filled = (contours: number[][][], x: number, y: number) => winding(contours, x, y) !== 0;

describe('traceRing (a solid outline as a filled band)', () => {
  it('offsets a rectangle by the half width to both sides, with mitred corners, in opposite orientations', () => {
    const c = record([0, 0, 100, 0, 100, 50, 0, 50], 2);
    expect(c).toHaveLength(2);
    const round = (k: number[][]) => k.map(([x, y]) => [Math.round(x * 1e9) / 1e9, Math.round(y * 1e9) / 1e9]);
    // Exactly the rectangle grown and shrunk by 2 (the order of corners follows the polygon).
    const corners = (k: number[][]) => round(k).map((p) => p.join(',')).sort();
    const a = corners(c[0]);
    const b = corners(c[1]);
    const outer = ['-2,-2', '102,-2', '102,52', '-2,52'].sort();
    const inner = ['2,2', '98,2', '98,48', '2,48'].sort();
    expect([a, b].sort()).toEqual([outer, inner].sort());
    expect(Math.sign(signedArea(c[0]))).toBe(-Math.sign(signedArea(c[1])));
    // The band's area is the stroke's: outer minus inner.
    expect(Math.abs(Math.abs(signedArea(c[0])) - Math.abs(signedArea(c[1])))).toBeCloseTo(104 * 54 - 96 * 46, 6);
  });

  it('fills the band and nothing inside or outside it (nonzero)', () => {
    const c = record([10, 10, 60, 10, 60, 40, 10, 40], 1.5);
    expect(filled(c, 10, 25)).toBe(true); // on the left edge
    expect(filled(c, 35, 40.9)).toBe(true); // just inside the band below the bottom edge
    expect(filled(c, 35, 25)).toBe(false); // the interior stays open
    expect(filled(c, 35, 42)).toBe(false); // beyond the band
    expect(filled(c, 8.9, 8.9)).toBe(true); // the mitred corner
  });

  it('covers a polygon thinner than the line, as a stroke does', () => {
    // 40 × 2 with a line 4 wide: the inner contour turns over and adds to the winding.
    const c = record([0, 0, 40, 0, 40, 2, 0, 2], 2);
    for (const [x, y] of [[20, 1], [1, 1], [39, 1], [20, -1.5], [20, 3.5]]) expect(filled(c, x, y)).toBe(true);
    expect(filled(c, 20, 4.5)).toBe(false);
  });

  it('bevels a corner sharper than the miter limit instead of a long spike', () => {
    // A thin spike: the turn at (100, 0) has a miter ratio far above MITER_LIMIT.
    const c = record([0, -1, 100, 0, 0, 1], 1);
    const reach = Math.max(...c.flat().map(([x]) => x));
    expect(reach).toBeLessThan(100 + MITER_LIMIT);
    expect(reach).toBeGreaterThan(100);
    // A right angle is mitred: its corner point lies at the full miter, √2 · hw from the vertex.
    const sq = record([0, 0, 10, 0, 10, 10, 0, 10], 1).flat();
    expect(sq.some(([x, y]) => Math.abs(x - 11) < 1e-9 && Math.abs(y + 1) < 1e-9)).toBe(true);
  });

  it('ignores repeated points and a closing repeat, and draws nothing for a point', () => {
    const a = record([0, 0, 0, 0, 30, 0, 30, 20, 0, 20, 0, 0], 1);
    const b = record([0, 0, 30, 0, 30, 20, 0, 20], 1);
    expect(a).toEqual(b);
    expect(record([5, 5, 5, 5], 1)).toEqual([]);
    expect(record([0, 0, 30, 0, 30, 20], 0)).toEqual([]);
  });

  it('draws a two-point polygon (a line) as a rectangle around it', () => {
    const c = record([0, 0, 10, 0], 1);
    expect(filled(c, 5, 0.5)).toBe(true);
    expect(filled(c, 5, -0.5)).toBe(true);
    expect(filled(c, 5, 1.5)).toBe(false);
  });
});
