import { describe, expect, it } from 'vitest';
import { fixture } from '../../../harness/fixtures';
import { ALL_LAYERS, planShapes, type DrawOptions, type LayerToggles, type ShapePlan } from './draw';
import { packScene, planPacked, planPart, unpackScene } from './packedScene';
import { buildScene, panesFor } from './scene';

/** A plan as plain data: each group's style and its shapes' points, in drawing order. */
const flat = (p: ShapePlan) => ({ count: p.count, groups: p.groups.map((g) => ({ style: g.style, points: g.items.map((it) => Array.from(it.points)) })) });

const views: DrawOptions['transform'][] = [
  { scale: 0.26, x: 180, y: 60 }, // the dense case fitted in 1400×900
  { scale: 1.7, x: -2100, y: -1300 }, // zoomed in: most shapes culled
  { scale: 0.5, x: -1500, y: 200 }, // half off the left edge
  { scale: 1, x: 5000, y: 0 }, // nothing in view
];

function check(items: Parameters<typeof packScene>[0], layers: LayerToggles, overlay: boolean, colors?: readonly string[]) {
  const packed = unpackScene(packScene(items, layers, overlay, colors));
  for (const transform of views) {
    const o: DrawOptions = { transform, width: 1400, height: 900, pixelRatio: 1, layers, overlay, colors };
    expect(flat(planPacked(packed, o)), JSON.stringify(transform)).toEqual(flat(planShapes(items, o)));
  }
}

describe('packed scenes for the raster workers', () => {
  const dense = fixture('dense5000');
  const items = buildScene(dense.views.map((v, index) => ({ ...v, index })), dense.benchmark).items;

  it('plan the same shapes, styles and order as planShapes, at every view', () => {
    expect(items.length).toBeGreaterThanOrEqual(5000);
    check(items, ALL_LAYERS, false);
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

  it('split a plan into parts that cover it once, in order', () => {
    for (const count of [0, 1, 5, 4999]) {
      const parts = [0, 1].map((k) => planPart(count, k, 2));
      expect(parts[0][0]).toBe(0);
      expect(parts[0][1]).toBe(parts[1][0]);
      expect(parts[1][1]).toBe(count);
    }
  });
});
