import { describe, expect, it } from 'vitest';
import { easeOut, GLIDE_MS, glideView, gliding, nextGlide, type Glide } from './glide';
import { cssAt, toImage, zoomAt, type ViewTransform } from './transform';

const at0: ViewTransform = { scale: 0.5, x: 10, y: 20 };

describe('a wheel notch glide', () => {
  it('eases like CSS ease-out: 0 and 1 at its ends, past half way at a fifth of its time', () => {
    expect(easeOut(0)).toBe(0);
    expect(easeOut(1)).toBe(1);
    // CSS ease-out, cubic-bezier(0, 0, 0.58, 1), at 0.5: 0.68464 (the curve's parameter solved
    // for x = 0.5 to 1e-15 by 100 bisections, separately; the e2e test checks the browser's own).
    expect(easeOut(0.5)).toBeCloseTo(0.68464, 4);
    expect(easeOut(0.2)).toBeGreaterThan(0.28);
    for (let p = 0.1; p < 1; p += 0.1) expect(easeOut(p)).toBeGreaterThan(easeOut(p - 0.1));
  });

  it('keeps the image point under the cursor fixed all the way', () => {
    const to = zoomAt(at0, 300, 200, 1.2);
    const g = nextGlide(null, at0, to, true, 1000)!;
    expect(g.from).toEqual(at0);
    expect(g.to).toEqual(to);
    const under = toImage(at0, 300, 200);
    for (const t of [1000, 1010, 1025, 1059]) {
      const [ix, iy] = toImage(glideView(g, t), 300, 200);
      expect(ix).toBeCloseTo(under[0], 9);
      expect(iy).toBeCloseTo(under[1], 9);
    }
    expect(glideView(g, 1000 + GLIDE_MS)).toEqual(to);
    expect(gliding(g, 1000 + GLIDE_MS - 1)).toBe(true);
    expect(gliding(g, 1000 + GLIDE_MS)).toBe(false);
  });

  it('a notch during a glide starts the next from the view on screen, not from the last target', () => {
    const first = nextGlide(null, at0, zoomAt(at0, 300, 200, 1.2), true, 1000)!;
    const mid = glideView(first, 1040);
    const second = nextGlide(first, first.to, zoomAt(first.to, 300, 200, 1.2), true, 1040)!;
    expect(second.from).toEqual(mid);
    expect(second.t0).toBe(1040);
    // The screen a frame behind (its animation's clock at 24 ms): from what it shows.
    expect(nextGlide(first, first.to, zoomAt(first.to, 300, 200, 1.2), true, 1040, 1024)!.from).toEqual(glideView(first, 1024));
    // After the first had ended: from its target.
    const late = nextGlide(first, first.to, zoomAt(first.to, 300, 200, 1.2), true, 1100)!;
    expect(late.from).toEqual(first.to);
  });

  it('a pan during a glide moves it along (the pan shows at once); any other change, or none under way, jumps', () => {
    const g = nextGlide(null, at0, zoomAt(at0, 300, 200, 1.2), true, 1000)!;
    const panned = { ...g.to, x: g.to.x + 7, y: g.to.y - 3 };
    const moved = nextGlide(g, g.to, panned, false, 1020) as Glide;
    expect(moved.t0).toBe(1000);
    const a = glideView(g, 1030);
    const b = glideView(moved, 1030);
    expect(b.scale).toBe(a.scale);
    expect(b.x - a.x).toBeCloseTo(7, 9);
    expect(b.y - a.y).toBeCloseTo(-3, 9);
    expect(nextGlide(g, g.to, zoomAt(g.to, 0, 0, 1.25), false, 1020)).toBeNull();
    expect(nextGlide(g, g.to, panned, false, 1000 + GLIDE_MS)).toBeNull();
  });

  it('gives the CSS transform of a view for a drawing made at another (the identity at its own view)', () => {
    expect(cssAt(at0, at0)).toBe('matrix(1, 0, 0, 1, 0, 0)');
    // Image point (100, 40): at `drawn` on screen at (60, 40); at `v` at (2·… ) = (225, 100).
    const v = { scale: 2, x: 25, y: 20 };
    const m = cssAt(at0, v).match(/-?[\d.]+/g)!.map(Number);
    const [sx, sy] = [60 * m[0] + m[4], 40 * m[3] + m[5]];
    expect([sx, sy]).toEqual([225, 100]);
  });
});
