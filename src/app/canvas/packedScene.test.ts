import { describe, expect, it } from 'vitest';
import { fixture } from '../../../harness/fixtures';
import { ALL_LAYERS, itemStyle, labelText, MAX_LABELS, planLabels, planShapes, type DrawOptions, type LayerToggles, type ShapePlan } from './draw';
import { balancedCuts, bandRect, bandRows, centreRows, copyPacked, exposedRects, packScene, packedBuffers, paddedRect, planPacked, planPackedLabels, rectPlan, unpackScene, type BandedShape, type DeviceRect } from './packedScene';
import { buildScene, panesFor } from './scene';

/** A plan as plain data: each group's style and its shapes' points, in drawing order. */
const flat = (p: ShapePlan) => ({ count: p.count, groups: p.groups.map((g) => ({ style: g.style, points: g.items.map((it) => Array.from(it.points)) })) });

const views: DrawOptions['transform'][] = [
  { scale: 0.26, x: 180, y: 60 }, // the dense case fitted in 1400×900
  { scale: 1.7, x: -2100, y: -1300 }, // zoomed in: most shapes culled
  { scale: 0.5, x: -1500, y: 200 }, // half off the left edge
  { scale: 1, x: 5000, y: 0 }, // nothing in view
];

/** The labels planLabels draws at each view, as text, position, side and style (and how many at each view). */
function check(items: Parameters<typeof packScene>[0], layers: LayerToggles, overlay: boolean, colors?: readonly string[]): number[] {
  const packed = unpackScene(packScene(items, layers, overlay, colors));
  const counts: number[] = [];
  for (const transform of views) {
    const o: DrawOptions = { transform, width: 1400, height: 900, pixelRatio: 1, layers, overlay, colors };
    expect(flat(planPacked(packed, o)), JSON.stringify(transform)).toEqual(flat(planShapes(items, o)));
    // The workers draw the same labels, in the same order, at the same places, in the same styles.
    const page = planLabels(items, o).map((it) => [labelText(it), it.bounds.x0, it.bounds.y0, it.bounds.x1, it.bounds.y1, it.side === 'gt', itemStyle(it, overlay, colors)] as const);
    const worker = planPackedLabels(packed, o).map((i) => [packed.labels!.texts[i], ...Array.from(packed.bounds.subarray(i * 4, i * 4 + 4)), packed.labels!.gt[i] === 1, packed.styles[packed.style[i]]] as const);
    expect(worker, JSON.stringify(transform)).toEqual(page);
    counts.push(page.length);
  }
  return counts;
}

describe('packed scenes for the raster workers', () => {
  const dense = fixture('dense5000');
  const items = buildScene(dense.views.map((v, index) => ({ ...v, index })), dense.benchmark).items;

  it('plan the same shapes, styles and order as planShapes, and the same labels as planLabels, at every view', () => {
    expect(items.length).toBeGreaterThanOrEqual(5000);
    const labels = check(items, ALL_LAYERS, false);
    // Fitted, over MAX_LABELS would be in view: none is drawn; zoomed in, some are.
    expect(labels[0]).toBe(0);
    expect(items.filter((it) => it.label).length).toBeGreaterThan(MAX_LABELS);
    expect(labels[1]).toBeGreaterThan(0);
    expect(labels[1]).toBeLessThanOrEqual(MAX_LABELS);
  });

  it('carry no labels when the labels layer is off, and a copy shares no buffer with the original', () => {
    const off = { ...ALL_LAYERS, labels: false };
    const p = packScene(items, off, false);
    expect(p.labels).toBeUndefined();
    expect(planPackedLabels(p, { transform: views[1], width: 1400, height: 900 })).toEqual([]);
    const on = packScene(items, ALL_LAYERS, false);
    const copy = copyPacked(on);
    const mine = new Set(packedBuffers(on));
    expect(packedBuffers(copy).filter((b) => mine.has(b))).toEqual([]);
    expect(packedBuffers(on)).toHaveLength(7); // style, coords, offsets, bounds; the labels' labelled, gt, rank
    expect(copy.labels!.texts).toEqual(on.labels!.texts);
  });

  it('leave out what the layers hide, and keep the overlay colours', () => {
    check(items, { gt: false, pred: true, dontcare: false, labels: true }, false);
    const two = fixture('dense5000', 2);
    const overlay = buildScene(panesFor(two.views, 'overlay')[0], two.benchmark).items;
    check(overlay, ALL_LAYERS, true, ['#123456', '#abcdef']);
  });

  it('hold every outline once, in transferable typed arrays', () => {
    const p = packScene(items, ALL_LAYERS, false);
    expect(p.offsets.length).toBe(items.length + 1);
    expect(p.coords.length).toBe(items.reduce((n, it) => n + it.points.length, 0));
    expect(Array.from(unpackScene(p).shapes[7].points)).toEqual(items[7].points);
  });

  it('cut a canvas into bands that cover every row once, in order', () => {
    for (const h of [0, 1, 5, 871]) {
      const bands = [0, 1, 2, 3].map((k) => bandRows(h, k, 4));
      expect(bands[0][0]).toBe(0);
      for (let k = 1; k < 4; k++) expect(bands[k][0]).toBe(bands[k - 1][1]);
      expect(bands[3][1]).toBe(h);
    }
  });

  it('cut bands that hold about equal numbers of shapes, and the workers and the page read the same rows', () => {
    // Shapes crowded at the top: equally high bands would give the first band nearly all.
    const centres = [...Array.from({ length: 900 }, (_, i) => (i * 200) / 900), ...Array.from({ length: 100 }, (_, i) => 200 + i * 7)];
    const cuts = balancedCuts(centres, 900, 4);
    expect(cuts[0]).toBe(0);
    expect(cuts[4]).toBe(900);
    const inBand = (k: number) => centres.filter((c) => c >= cuts[k] && c < cuts[k + 1]).length;
    // Within one row's worth (4.5 centres per row at the top): edges fall between rows.
    for (let k = 0; k < 4; k++) expect(Math.abs(inBand(k) - 250)).toBeLessThanOrEqual(5);
    // Equally high bands would not be: 900 of the 1,000 centres lie in the first 200 rows.
    expect(centres.filter((c) => c < 225).length).toBeGreaterThan(900);
    for (let k = 0; k < 4; k++) {
      expect(bandRows(900, k, 4, cuts)).toEqual([cuts[k], cuts[k + 1]]);
      expect(paddedRect(bandRect(900, 900, k, 4, cuts), 900, 900)).toEqual([0, Math.max(0, cuts[k] - 24), 900, Math.min(900, cuts[k + 1] + 24)]);
    }
    // No shapes, or all on one row: bands still cover the canvas in order, each at least 8 rows.
    for (const c of [[], Array.from({ length: 50 }, () => 400)]) {
      const k = balancedCuts(c, 900, 4);
      expect(k[0]).toBe(0);
      expect(k[4]).toBe(900);
      for (let i = 0; i < 4; i++) expect(k[i + 1] - k[i]).toBeGreaterThanOrEqual(8);
    }
    // The dense case at its fitted view: the centres are the shapes planShapes draws.
    const o: DrawOptions = { transform: views[0], width: 1400, height: 900, pixelRatio: 1, layers: ALL_LAYERS, overlay: false };
    expect(centreRows(items, o)).toHaveLength(planShapes(items, o).count);
  });

  it('say what a whole-pixel move exposes: every pixel of the view either kept or in exactly one strip', () => {
    const w = 60;
    const h = 40;
    for (const [dx, dy] of [[0, 0], [7, 0], [0, -5], [13, 9], [-20, 11], [-3, -39], [59, 39]]) {
      const rects = exposedRects(w, h, dx, dy)!;
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) {
          // Kept: the pixel the old drawing had at (x - dx, y - dy) exists.
          const kept = x - dx >= 0 && x - dx < w && y - dy >= 0 && y - dy < h;
          const inRects = rects.filter(([x0, y0, x1, y1]) => x >= x0 && x < x1 && y >= y0 && y < y1).length;
          expect(inRects, `${dx},${dy} at ${x},${y}`).toBe(kept ? 0 : 1);
        }
    }
    expect(exposedRects(w, h, 60, 0)).toBeNull();
    expect(exposedRects(w, h, 0, -40)).toBeNull();
    // A strip's canvas holds the spare pixels, clamped to the view.
    expect(paddedRect([0, 0, 60, 9], 60, 40)).toEqual([0, 0, 60, 33]);
    expect(paddedRect([30, 10, 50, 20], 1000, 1000)).toEqual([6, 0, 74, 44]);
  });

  it('give a rectangle every shape that reaches it and no other', () => {
    const packed = unpackScene(packScene(items, ALL_LAYERS, false));
    const transform = views[0];
    const whole = planPacked(packed, { transform, width: 1400, height: 900 });
    const r: DeviceRect = [200, 100, 420, 260];
    const list = rectPlan(whole, transform, 1, r).groups.flatMap((g) => g.items as readonly BandedShape[]);
    const sx = (v: number) => v * transform.scale + transform.x;
    const sy = (v: number) => v * transform.scale + transform.y;
    const reaches = (it: BandedShape, m: number) => sx(it.x1) >= r[0] - m && sx(it.x0) <= r[2] + m && sy(it.y1) >= r[1] - m && sy(it.y0) <= r[3] + m;
    expect(list.length).toBeGreaterThan(50);
    for (const it of list) expect(reaches(it, 4.001)).toBe(true);
    for (const it of whole.groups.flatMap((g) => g.items as readonly BandedShape[])) if (reaches(it, 0)) expect(list).toContain(it);
  });

  it('give each band every shape that reaches it, in the order of the whole plan, and no other', () => {
    const packed = unpackScene(packScene(items, ALL_LAYERS, false));
    const transform = views[0];
    const whole = planPacked(packed, { transform, width: 1400, height: 900 });
    const order = new Map(whole.groups.flatMap((g) => g.items).map((it, k) => [it, k]));
    const seen = new Set<unknown>();
    for (let k = 0; k < 4; k++) {
      const [y0, y1] = bandRows(900, k, 4);
      const band = rectPlan(whole, transform, 1, [-Infinity, y0, Infinity, y1]);
      const list = band.groups.flatMap((g) => g.items as readonly BandedShape[]);
      expect(list.length).toBe(band.count);
      // The whole plan's order, restricted.
      const at = list.map((it) => order.get(it)!);
      expect(at).toEqual([...at].sort((a, b) => a - b));
      for (const it of list) {
        // On screen, every shape of the band reaches its rows (with the 4 px stroke margin).
        expect(it.y1 * transform.scale + transform.y).toBeGreaterThanOrEqual(y0 - 4.001);
        expect(it.y0 * transform.scale + transform.y).toBeLessThanOrEqual(y1 + 4.001);
        seen.add(it);
      }
      // A shape wholly above or below the band is not in it.
      const outside = whole.groups.flatMap((g) => g.items as readonly BandedShape[]).filter((it) => it.y1 * transform.scale + transform.y < y0 - 5 || it.y0 * transform.scale + transform.y > y1 + 5);
      for (const it of outside) expect(list).not.toContain(it);
    }
    // Together the bands draw every shape of the view.
    expect(seen.size).toBe(whole.count);
  });
});
