import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ALL_LAYERS } from './draw';
import { StaticDrawing } from './staticDrawing';

/** A page canvas as far as StaticDrawing uses one: records the calls that give it its buffer. */
class FakeCanvas {
  static made: FakeCanvas[] = [];
  width = 300;
  height = 150;
  calls: string[] = [];
  constructor() {
    FakeCanvas.made.push(this);
  }
  getContext() {
    const rec = (name: string) => (...a: unknown[]) => this.calls.push(`${name} ${a.join(',')}`);
    return { setTransform: rec('setTransform'), clearRect: rec('clearRect'), drawImage: rec('drawImage') };
  }
}

const view = (w: number, h: number) => ({ transform: { scale: 1, x: 0, y: 0 }, width: w, height: h, pixelRatio: 1, layers: ALL_LAYERS, overlay: false });

describe('StaticDrawing.prepareSpare', () => {
  beforeEach(() => {
    FakeCanvas.made = [];
    vi.stubGlobal('document', { createElement: () => new FakeCanvas() });
  });
  afterEach(() => vi.unstubAllGlobals());

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
