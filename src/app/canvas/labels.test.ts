import { describe, expect, it } from 'vitest';
import { fixture } from '../../../harness/fixtures';
import { ALL_LAYERS, labelInput, planLabels, type DrawOptions } from './draw';
import { boxesOverlap, LABEL_H, labelBox, labelRank, placeLabels, shortened, type LabelInput, type PlacedLabel } from './labels';
import { packedLabelInputs, packScene, planPackedLabels, unpackScene } from './packedScene';
import { buildScene } from './scene';

/** A monospace stand-in for the canvas's measureText: 7 px a character. */
const measure = (raw: string) => ({ text: raw, width: 7 * [...raw].length });

/** A seeded generator, so a failing scene can be reproduced. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function randomScene(n: number, seed: number, w = 1366, h = 768): LabelInput[] {
  const r = rng(seed);
  const words = ['EXIT', 'Benchlens', '93.0 % of its area lies in don\'t-care GT 5 (> 50 %)', '甲骨文', 'a', 'OPEN 24 HOURS'];
  return Array.from({ length: n }, () => {
    const x0 = r() * w;
    const y0 = r() * h;
    const bw = 4 + r() * 120;
    const bh = 4 + r() * 40;
    return { box: { x0, y0, x1: x0 + bw, y1: y0 + bh }, gt: r() < 0.5, raw: words[Math.floor(r() * words.length)], rank: Math.floor(r() * 3) };
  });
}

function overlaps(placed: readonly (PlacedLabel | null)[]): [number, number][] {
  const boxes = placed.map((p, i) => [i, p && labelBox(p)] as const).filter(([, b]) => b !== null);
  const out: [number, number][] = [];
  for (let a = 0; a < boxes.length; a++) for (let b = a + 1; b < boxes.length; b++) if (boxesOverlap(boxes[a][1]!, boxes[b][1]!)) out.push([boxes[a][0], boxes[b][0]]);
  return out;
}

describe('label placement', () => {
  it('never places two labels over each other, on dense random scenes', () => {
    for (const seed of [1, 2, 3, 42, 2026]) {
      const inputs = randomScene(1500, seed);
      const placed = placeLabels(inputs, measure);
      expect(overlaps(placed), `seed ${seed}`).toEqual([]);
      // Dense, so some are shortened and some left out — but a good share is still drawn.
      const drawn = placed.filter((p) => p !== null);
      expect(drawn.length, `seed ${seed}`).toBeGreaterThan(150);
      expect(drawn.some((p) => p!.short)).toBe(true);
      expect(drawn.length).toBeLessThan(inputs.length);
    }
  });

  it('keeps the usual places when there is room: GT above its shape, a prediction below', () => {
    const gt: LabelInput = { box: { x0: 100.4, y0: 200, x1: 180, y1: 230 }, gt: true, raw: 'EXIT', rank: 1 };
    const pred: LabelInput = { box: { x0: 100, y0: 200, x1: 180, y1: 230 }, gt: false, raw: 'EXIT', rank: 1 };
    const [g, p] = placeLabels([gt, pred], measure);
    expect(g).toEqual({ text: 'EXIT', width: 28, lx: 100, ly: 200 - LABEL_H - 1, h: LABEL_H, short: false });
    expect(p).toEqual({ text: 'EXIT', width: 28, lx: 100, ly: 232, h: LABEL_H, short: false });
  });

  it('moves a label that would cover another to a free anchor, then shortens it, then leaves it out', () => {
    const box = { x0: 100, y0: 200, x1: 160, y1: 210 };
    const same = (raw: string, rank = 1): LabelInput => ({ box, gt: false, raw, rank });
    const [a, b] = placeLabels([same('first label'), same('second label')], measure);
    expect(a!.ly).toBe(212); // below
    expect(b!.ly).toBe(200 - LABEL_H - 1); // above: below was taken
    // Long labels of a shape to the right take both its places; the long labels of a shape on
    // their left would run into them: shortened to about their shape's width, they fit; a third
    // finds no place even shortened and is left out.
    const long = "93.0 % of its area lies in don't-care GT 5 (> 50 %)";
    const right = { x0: 200, y0: 200, x1: 260, y1: 210 };
    const left = { x0: 100, y0: 200, x1: 160, y1: 210 };
    const placed = placeLabels(
      [
        { box: right, gt: false, raw: long, rank: 0 },
        { box: right, gt: true, raw: long, rank: 0 },
        { box: left, gt: false, raw: long, rank: 1 },
        { box: left, gt: false, raw: long, rank: 1 },
        { box: left, gt: false, raw: long, rank: 1 },
      ],
      measure,
    );
    expect(overlaps(placed)).toEqual([]);
    expect(placed.slice(0, 2).map((p) => p!.text)).toEqual([long, long]);
    expect(placed[2]).toMatchObject({ text: '93.0 % o…', short: true, lx: 100, ly: 212 });
    expect(placed[3]).toMatchObject({ short: true, lx: 100, ly: 200 - LABEL_H - 1 });
    expect(placed[4]).toBeNull();
  });

  it('places errors before matches, whatever their order in the scene', () => {
    const box = { x0: 100, y0: 200, x1: 400, y1: 205 };
    const tp: LabelInput = { box, gt: false, raw: 'matched one', rank: labelRank('tp') };
    const fp: LabelInput = { box, gt: false, raw: 'false positive', rank: labelRank('fp') };
    const [t, f] = placeLabels([tp, fp], measure);
    expect(f!.ly).toBe(207); // the FP took the usual place below
    expect(t!.ly).not.toBe(207);
  });

  it('shortens by code points (no half of a surrogate pair) and says so', () => {
    expect(shortened('𠀀𠀁𠀂𠀃𠀄', 2)).toBe('𠀀𠀁…');
    expect(shortened('short', 9)).toBe('short');
  });

  it('places the same labels at the same places in the raster workers as on the page', () => {
    const dense = fixture('ltb');
    const items = buildScene(dense.views.map((v, index) => ({ ...v, index })), dense.benchmark).items;
    const packed = unpackScene(packScene(items, ALL_LAYERS, false));
    for (const transform of [{ scale: 0.3, x: 10, y: 5 }, { scale: 1, x: -40, y: -20 }]) {
      const o: DrawOptions = { transform, width: 900, height: 600, pixelRatio: 1, layers: ALL_LAYERS, overlay: false };
      const page = placeLabels(planLabels(items, o).map((it) => labelInput(it, transform)), measure);
      const worker = placeLabels(packedLabelInputs(packed, planPackedLabels(packed, o), transform), measure);
      expect(worker).toEqual(page);
      expect(page.filter((p) => p !== null).length).toBeGreaterThan(0);
      expect(overlaps(page)).toEqual([]);
    }
  });
});
