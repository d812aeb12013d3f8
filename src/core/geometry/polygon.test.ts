import { describe, expect, it } from 'vitest';
import { clipArea, convexHull, isConvexSimpleRing, isSimpleRing, ringArea, signedArea, triangulate } from './polygon';
import { clipperIntersectionArea, intersectionArea, makeRegion, regionIoU } from './polygonRegion';

const box = (x0: number, y0: number, x1: number, y1: number) => [x0, y0, x1, y0, x1, y1, x0, y1];

function rng(seed: number) {
  let s = seed;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

describe('polygon basics', () => {
  it('shoelace area is signed by orientation', () => {
    expect(signedArea(box(0, 0, 10, 10))).toBe(100);
    expect(signedArea([0, 10, 10, 10, 10, 0, 0, 0])).toBe(-100);
    expect(ringArea([0, 0, 10, 10, 10, 0, 0, 10])).toBe(0); // symmetric bow-tie: lobes cancel
  });

  it('tells simple, convex and self-intersecting rings apart', () => {
    expect(isConvexSimpleRing(box(0, 0, 4, 2))).toBe(true);
    expect(isSimpleRing([0, 0, 10, 0, 10, 10, 5, 3, 0, 10])).toBe(true);
    expect(isConvexSimpleRing([0, 0, 10, 0, 10, 10, 5, 3, 0, 10])).toBe(false);
    expect(isSimpleRing([0, 0, 10, 10, 10, 0, 0, 10])).toBe(false); // bow-tie
    expect(isSimpleRing([0, 0, 5, 0, 10, 0])).toBe(false); // collinear, zero area
    // A pentagram turns one way at every vertex but winds twice: not convex.
    const star: number[] = [];
    for (let i = 0; i < 5; i++) star.push(Math.cos((i * 4 * Math.PI) / 5), Math.sin((i * 4 * Math.PI) / 5));
    expect(isConvexSimpleRing(star)).toBe(false);
    expect(isSimpleRing(star)).toBe(false);
  });

  it('convex hull of two squares', () => {
    expect(ringArea(convexHull([...box(0, 0, 1, 1), ...box(3, 0, 4, 1)]))).toBe(4);
  });

  it('triangles of a non-convex ring tile it exactly', () => {
    const u = [0, 0, 30, 0, 30, 20, 20, 20, 20, 8, 10, 8, 10, 20, 0, 20];
    const t = triangulate(u)!;
    let sum = 0;
    for (let i = 0; i < t.length; i += 6) sum += ringArea(t.subarray(i, i + 6));
    expect(sum).toBe(ringArea(u));
  });
});

describe('intersection areas', () => {
  it('clips a non-convex subject by a convex one exactly', () => {
    const u = [0, 0, 30, 0, 30, 20, 20, 20, 20, 8, 10, 8, 10, 20, 0, 20];
    expect(clipArea(u, box(0, 10, 30, 30))).toBe(100 + 100); // the two prongs above y = 10
  });

  it('agrees with Clipper2 on random star polygons (convex and not)', () => {
    const rnd = rng(12345);
    const star = (cx: number, cy: number, n: number) => {
      const p: number[] = [];
      for (let i = 0; i < n; i++) {
        const a = (i / n) * 2 * Math.PI;
        const r = 20 + rnd() * 40;
        p.push(cx + r * Math.cos(a), cy + r * Math.sin(a));
      }
      return p;
    };
    let nonConvex = 0;
    for (let k = 0; k < 500; k++) {
      const a = makeRegion(star(100, 100, 3 + Math.floor(rnd() * 12)), 'pieces');
      const b = makeRegion(star(70 + rnd() * 60, 70 + rnd() * 60, 3 + Math.floor(rnd() * 12)), 'pieces');
      if (!a.convex && !b.convex) nonConvex++;
      const exact = intersectionArea(a, b);
      const grid = clipperIntersectionArea(a, b);
      expect(Math.abs(exact - grid) / Math.max(1, grid)).toBeLessThan(1e-5);
    }
    expect(nonConvex).toBeGreaterThan(100);
  });

  it('IoU of two offset squares', () => {
    expect(regionIoU(makeRegion(box(0, 0, 10, 10), 'pieces'), makeRegion(box(5, 0, 15, 10), 'pieces'))).toBeCloseTo(50 / 150, 15);
  });
});

describe('invalid polygons are repaired like shapely buffer(0)', () => {
  it('a symmetric bow-tie keeps one triangle, chosen by the vertex order', () => {
    const a = makeRegion([0, 0, 10, 10, 10, 0, 0, 10], 'pieces');
    expect(a.repaired).toBe(true);
    expect(a.area).toBeCloseTo(25, 9);
    // zero total area counts as negative: the clockwise (right) lobe stays
    expect(intersectionArea(a, makeRegion(box(5, 0, 10, 10), 'pieces'))).toBeCloseTo(25, 9);
    expect(intersectionArea(a, makeRegion(box(0, 0, 5, 10), 'pieces'))).toBeCloseTo(0, 9);
    const reversed = makeRegion([0, 10, 10, 0, 10, 10, 0, 0], 'pieces');
    expect(intersectionArea(reversed, makeRegion(box(0, 0, 5, 10), 'pieces'))).toBeCloseTo(25, 9);
  });

  it('an asymmetric bow-tie keeps the lobe whose sign matches the whole ring', () => {
    const r = makeRegion([0, 0, 10, 10, 10, -10, 0, 0.5], 'pieces');
    expect(r.maxX).toBe(10);
    expect(r.minX).toBeGreaterThan(0.2); // the big right lobe, not the sliver at x < 0.25
    expect(r.area).toBeCloseTo(97.5609756, 5);
  });

  it('several pieces: mmocr 1.x takes their convex hull, 0.6.3 keeps them', () => {
    const ring = [0, 0, 10, 10, 20, 0, 30, 10, 30, 0, 20, 10, 10, 0, 0, 10];
    const pieces = makeRegion(ring, 'pieces');
    const hull = makeRegion(ring, 'hull');
    expect(pieces.pieces).toBe(2);
    expect(pieces.area).toBeCloseTo(75, 6);
    expect(hull.convex).toBe(true);
    expect(hull.area).toBeCloseTo(225, 6);
  });

  it('axis-parallel clipping is exact on integer boxes (crossings take the edge coordinate)', () => {
    // 22 × 7 box against 6..7 × 0..13: the crossings at x = 6 and x = 7 were an ulp off when
    // interpolated (area 7.000000000000007); the intersection is exactly 1 × 7.
    expect(clipArea(box(0, 0, 22, 7), box(6, 0, 7, 13))).toBe(7);
    for (let a = 0; a < 40; a++) for (let c = 0; c < 40; c += 3) {
      expect(clipArea(box(a, 0, a + 23, 7), box(c, 0, c + 5, 13))).toBe(Math.max(0, Math.min(a + 23, c + 5) - Math.max(a, c)) * 7);
    }
  });

  it('lobes touching at a vertex are separate pieces (GEOS MultiPolygon); a loop turning back is a hole', () => {
    // Two counter-clockwise triangles of area 100 meeting at (10,10): 2 pieces, hull = 0..20 square.
    const hourglass = [0, 0, 20, 0, 10, 10, 20, 20, 0, 20, 10, 10];
    expect(makeRegion(hourglass, 'pieces').pieces).toBe(2);
    expect(makeRegion(hourglass, 'pieces').area).toBeCloseTo(200, 9);
    expect(makeRegion(hourglass, 'hull').area).toBeCloseTo(400, 9);
    // Square 0..10, then a clockwise 3..6 square entered at the corner (0,0)→(3,3): one piece with a
    // hole of 9 → area 91 in both modes (no hull for a single piece).
    const keyhole = [0, 0, 10, 0, 10, 10, 0, 10, 0, 0, 3, 3, 3, 6, 6, 6, 6, 3, 3, 3];
    expect(makeRegion(keyhole, 'hull').pieces).toBe(1);
    expect(makeRegion(keyhole, 'hull').area).toBeCloseTo(91, 9);
    expect(intersectionArea(makeRegion(keyhole, 'pieces'), makeRegion(box(0, 0, 10, 10), 'pieces'))).toBeCloseTo(91, 6);
  });

  it('a ring with fewer than 3 distinct points is empty', () => {
    expect(makeRegion([1, 1, 1, 1, 1, 1], 'hull').area).toBe(0);
    expect(intersectionArea(makeRegion([0, 0, 5, 0, 10, 0], 'pieces'), makeRegion(box(0, -1, 10, 1), 'pieces'))).toBe(0);
  });
});
