import { describe, expect, it } from 'vitest';
import { ALL_LAYERS } from './draw';
import { StaticDrawing } from './staticDrawing';
import { FakeCanvas, fakeCanvasesInEachTest } from '../../../test/fakeCanvas';

const view = (w: number, h: number) => ({ transform: { scale: 1, x: 0, y: 0 }, width: w, height: h, pixelRatio: 1, layers: ALL_LAYERS, overlay: false });

describe('StaticDrawing.prepareSpare', () => {
  fakeCanvasesInEachTest();

  it('gives the next drawing its canvas, sized and drawn to once, before that drawing starts', () => {
    const d = new StaticDrawing();
    d.start([], view(1400, 900), 1400, 900, 'c');
    const first = d.step(Infinity)!;
    d.accept(first);
    const made = FakeCanvas.made.length;

    d.prepareSpare(1400, 900);
    const spare = FakeCanvas.made[made];
    expect(spare).toBeDefined();
    expect(spare).not.toBe(first.canvas);
    expect([spare.width, spare.height]).toEqual([1400, 900]);
    // A draw call over the whole canvas gives it its pixel buffer now.
    expect(spare.calls).toContain('clearRect 0,0,1400,900');

    // The next drawing uses that canvas: no canvas is made, none is resized, at its start.
    d.start([], view(1400, 900), 1400, 900, 'c');
    const second = d.step(Infinity)!;
    expect(second.canvas).toBe(spare as unknown as HTMLCanvasElement);
    expect(FakeCanvas.made.filter((c) => c !== spare && c.width === 1400)).toEqual([first.canvas]);
  });

  it('leaves a canvas that a drawing has already used at that size alone (it has its buffer)', () => {
    const d = new StaticDrawing();
    d.start([], view(1400, 900), 1400, 900, 'c');
    const a = d.step(Infinity)!;
    d.accept(a);
    d.prepareSpare(1400, 900);
    d.start([], view(1400, 900), 1400, 900, 'c');
    const b = d.step(Infinity)!;
    d.accept(b);
    // The spare is now the first drawing's canvas, drawn at this size: nothing to do.
    const calls = (a.canvas as unknown as FakeCanvas).calls.length;
    d.prepareSpare(1400, 900);
    expect((a.canvas as unknown as FakeCanvas).calls.length).toBe(calls);
    d.start([], view(1400, 900), 1400, 900, 'c');
    expect(d.step(Infinity)!.canvas).toBe(a.canvas);
  });

  it('never touches the canvas of a drawing in progress (a late call for an older size, say)', () => {
    const d = new StaticDrawing();
    d.start([], view(800, 600), 800, 600, 'c');
    d.accept(d.step(Infinity)!);
    d.start([], view(1000, 600), 1000, 600, 'c');
    const inProgress = FakeCanvas.made.at(-1)!;
    const calls = inProgress.calls.length;
    d.prepareSpare(800, 600);
    expect([inProgress.width, inProgress.height]).toEqual([1000, 600]);
    expect(inProgress.calls.length).toBe(calls);
    expect(d.step(Infinity)!.canvas).toBe(inProgress as unknown as HTMLCanvasElement);
  });

  it('does nothing more for a canvas already prepared at that size, and prepares again at a new size', () => {
    const d = new StaticDrawing();
    d.start([], view(800, 600), 800, 600, 'c');
    d.accept(d.step(Infinity)!);
    d.prepareSpare(800, 600);
    const spare = FakeCanvas.made.at(-1)!;
    const calls = spare.calls.length;
    d.prepareSpare(800, 600);
    expect(spare.calls.length).toBe(calls);
    d.prepareSpare(1000, 600);
    expect(FakeCanvas.made.at(-1)).toBe(spare);
    expect([spare.width, spare.height]).toEqual([1000, 600]);
    expect(spare.calls.at(-1)).toBe('clearRect 0,0,1000,600');
  });
});

describe('StaticDrawing.previous', () => {
  fakeCanvasesInEachTest();

  const at = (scale: number, x = 0) => ({ ...view(800, 600), transform: { scale, x, y: 0 } });
  /** Draws and shows a drawing of content `c` at `o` (at once, labels only if `labels`). */
  const show = (d: StaticDrawing, o: ReturnType<typeof at>, c = 'c') => {
    d.start([], o, 800, 600, c);
    const r = d.step(Infinity)!;
    d.accept(r);
    return r;
  };

  it('keeps the last drawing shown at another zoom, untouched by the drawings after it, until one at another zoom replaces it', () => {
    const d = new StaticDrawing();
    const z0 = show(d, at(1));
    const z1 = show(d, at(2));
    expect(d.previous).toBe(z0);
    // Pans at the new zoom keep it; their drawings never go on its canvas.
    const calls = (z0.canvas as unknown as FakeCanvas).calls.length;
    for (let k = 1; k <= 3; k++) {
      const pan = show(d, at(2, k * 10));
      expect(pan.canvas).not.toBe(z0.canvas);
      d.prepareSpare(800, 600);
    }
    expect(d.previous).toBe(z0);
    expect((z0.canvas as unknown as FakeCanvas).calls.length).toBe(calls);
    // Three canvases at most: on show, kept, and the one the next drawing goes on.
    expect(new Set(FakeCanvas.made.filter((c) => c.width === 800)).size).toBeLessThanOrEqual(3);
    // A drawing at a third zoom: the one on show before it (zoom 2) is kept instead.
    const z2 = show(d, at(3));
    expect(d.previous?.t.scale).toBe(2);
    expect(d.previous).not.toBe(z1);
    expect(z2.canvas).not.toBe(d.previous?.canvas);
  });

  it('drops it for new content, and keeps no drawing with labels', () => {
    const d = new StaticDrawing();
    show(d, at(1));
    show(d, at(2));
    expect(d.previous).not.toBeNull();
    show(d, at(2), 'other content');
    expect(d.previous).toBeNull();
    const withLabels = new StaticDrawing();
    withLabels.start([], at(1), 800, 600, 'c', []);
    const first = withLabels.step(Infinity)!;
    first.labels = 3;
    withLabels.accept(first);
    show(withLabels, at(2));
    expect(withLabels.previous).toBeNull();
  });
});
