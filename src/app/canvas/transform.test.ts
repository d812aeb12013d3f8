import { describe, expect, it } from 'vitest';
import { actualSize, fitTransform, isWheelNotch, paneGrid, panBy, toImage, toScreen, wheelFactor, zoomAt, zoomToRect } from './transform';

describe('view transform', () => {
  it('fits an image centred in the viewport', () => {
    const t = fitTransform(1000, 500, 616, 616, 8);
    expect(t.scale).toBeCloseTo(0.6, 12);
    expect(toScreen(t, 0, 0)).toEqual([8, 158]);
    expect(toScreen(t, 1000, 500)[0]).toBeCloseTo(608, 9);
  });

  it('zooms about the cursor: the image point under it stays put', () => {
    const t = { scale: 0.5, x: 30, y: -20 };
    const before = toImage(t, 200, 150);
    const z = zoomAt(t, 200, 150, 3);
    expect(z.scale).toBeCloseTo(1.5, 12);
    const after = toImage(z, 200, 150);
    expect(after[0]).toBeCloseTo(before[0], 9);
    expect(after[1]).toBeCloseTo(before[1], 9);
  });

  it('goes to 1:1 about the viewport centre, pans by screen pixels', () => {
    const t = actualSize({ scale: 0.25, x: 10, y: 10 }, 800, 600);
    expect(t.scale).toBe(1);
    expect(toImage(t, 400, 300)).toEqual(toImage({ scale: 0.25, x: 10, y: 10 }, 400, 300));
    expect(panBy(t, 5, -7)).toEqual({ scale: 1, x: t.x + 5, y: t.y - 7 });
  });

  it('centres a shape when zooming to it', () => {
    const t = zoomToRect({ x0: 100, y0: 200, x1: 140, y1: 220 }, 900, 600);
    expect(toScreen(t, 120, 210)).toEqual([450, 300]);
    expect(t.scale).toBeLessThanOrEqual(16);
    // A shape larger than a third of the view: centred, but no zooming out past the fit.
    expect(zoomToRect({ x0: 0, y0: 0, x1: 2000, y1: 1000 }, 900, 600, 0.33, 0.4).scale).toBe(0.4);
  });

  it('zooms in for wheel up and out for wheel down', () => {
    expect(wheelFactor(-100)).toBeGreaterThan(1);
    expect(wheelFactor(100)).toBeLessThan(1);
    expect(wheelFactor(100) * wheelFactor(-100)).toBeCloseTo(1, 12);
  });
});

describe('wheel notches', () => {
  it('takes an ordinary wheel\'s notch (±120 px on Linux, ±100 on Windows, lines, pages) for a step and a smooth stream\'s few px for part of a motion', () => {
    const w = (deltaY: number, deltaMode = 0, deltaX = 0) => isWheelNotch({ deltaY, deltaMode, deltaX });
    expect([w(-120), w(120), w(100), w(-3, 1), w(1, 2), w(0, 0, -120)]).toEqual([true, true, true, true, true, true]);
    expect([w(-8), w(8), w(49.5), w(-1.25), w(0)]).toEqual([false, false, false, false, false]);
  });
});

describe('paneGrid', () => {
  it('keeps one row when it shows the image about as large as any grid', () => {
    expect(paneGrid(1, 800, 600, 4000, 3000)).toEqual({ cols: 1, rows: 1 });
    expect(paneGrid(2, 900, 600, 3000, 4000)).toEqual({ cols: 2, rows: 1 }); // two portrait pages
  });

  it('stacks or makes a grid when that shows the image at least 1.25× larger', () => {
    // Three landscape photos in a 760×620 canvas area: in one row each fits at ~6 %; 2×2 at ~9 %.
    const g = paneGrid(3, 760, 620, 4000, 3000);
    expect(g).toEqual({ cols: 2, rows: 2 });
    const one = fitTransform(4000, 3000, 760 / 3, 620).scale;
    const grid = fitTransform(4000, 3000, 380, 310).scale;
    expect(grid / one).toBeGreaterThan(1.25);
    // Two wide pages stack.
    expect(paneGrid(2, 800, 700, 2000, 800)).toEqual({ cols: 1, rows: 2 });
  });

  it('falls back to one row before the area or image is known', () => {
    expect(paneGrid(3, 0, 0, 4000, 3000)).toEqual({ cols: 3, rows: 1 });
  });
});
