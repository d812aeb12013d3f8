import { describe, expect, it } from 'vitest';
import { boundsOf, distanceToOutline, pointInPolygon, polygonArea, shapePoints } from './geometry';
import { SpatialIndex } from './hitTest';

const shape = (points: number[]) => ({ points, bounds: boundsOf(points)!, area: polygonArea(points) });

describe('geometry', () => {
  it('turns a box into its four corners and keeps every polygon vertex', () => {
    expect(shapePoints({ type: 'box', box: [10, 20, 5, 8] })).toEqual([5, 8, 10, 8, 10, 20, 5, 20]);
    const curve = [0, 0, 10, -2, 20, 0, 30, 5, 20, 10, 10, 8, 0, 10];
    expect(shapePoints({ type: 'polygon', points: curve })).toEqual(curve);
    expect(shapePoints({ type: 'polygon', points: [1, 2] })).toEqual([]);
    expect(shapePoints({ type: 'box', box: [0, NaN, 1, 1] })).toEqual([]);
  });

  it('tests points against a concave polygon, not its bounding box', () => {
    // A U shape: the notch (5, 8) is inside the bounds but outside the polygon.
    const u = [0, 0, 3, 0, 3, 6, 7, 6, 7, 0, 10, 0, 10, 10, 0, 10];
    expect(pointInPolygon(1, 5, u)).toBe(true);
    expect(pointInPolygon(5, 3, u)).toBe(false);
    expect(pointInPolygon(5, 8, u)).toBe(true);
    expect(polygonArea(u)).toBe(100 - 4 * 6);
    expect(distanceToOutline(5, 3, u)).toBeCloseTo(2, 9);
  });
});

describe('SpatialIndex', () => {
  it('returns the smallest shape containing the point (a word inside a don\'t-care region)', () => {
    const region = shape([0, 0, 100, 0, 100, 100, 0, 100]);
    const word = shape([40, 40, 60, 40, 60, 50, 40, 50]);
    const idx = new SpatialIndex([region, word]);
    expect(idx.hit(50, 45)).toBe(1);
    expect(idx.hit(10, 10)).toBe(0);
    expect(idx.hit(150, 150)).toBe(-1);
  });

  it('hits a thin shape near its outline within the tolerance only', () => {
    const line = shape([0, 0, 100, 0, 100, 1, 0, 1]);
    const idx = new SpatialIndex([line]);
    expect(idx.hit(50, 4, 2)).toBe(-1);
    expect(idx.hit(50, 2.5, 2)).toBe(0);
  });

  it('skips shapes the filter rejects (hidden layers)', () => {
    const a = shape([0, 0, 10, 0, 10, 10, 0, 10]);
    const b = shape([0, 0, 20, 0, 20, 20, 0, 20]);
    const idx = new SpatialIndex([a, b]);
    expect(idx.hit(5, 5)).toBe(0);
    expect(idx.hit(5, 5, 0, (_s, i) => i !== 0)).toBe(1);
  });

  it('agrees with a brute-force scan on 5,000 random quads', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const shapes = Array.from({ length: 5000 }, () => {
      const x = rnd() * 4000;
      const y = rnd() * 3000;
      const w = 20 + rnd() * 80;
      const h = 8 + rnd() * 20;
      return shape([x, y, x + w, y + 3, x + w - 2, y + h, x - 1, y + h - 2]);
    });
    const idx = new SpatialIndex(shapes);
    for (let k = 0; k < 600; k++) {
      const px = rnd() * 4000;
      const py = rnd() * 3000;
      let best = -1;
      shapes.forEach((s, i) => {
        if (pointInPolygon(px, py, s.points) && (best < 0 || s.area < shapes[best].area || (s.area === shapes[best].area && i > best))) best = i;
      });
      expect(idx.hit(px, py)).toBe(best);
    }
  });
});
