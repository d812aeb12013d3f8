import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CanvasTurns } from './canvasTurns';

/** A page canvas as far as CanvasTurns uses one: records the calls that give it its buffer. */
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

const asCanvas = (c: FakeCanvas) => c as unknown as HTMLCanvasElement;
const asFake = (c: HTMLCanvasElement) => c as unknown as FakeCanvas;

describe('CanvasTurns', () => {
  beforeEach(() => {
    FakeCanvas.made = [];
    vi.stubGlobal('document', { createElement: () => new FakeCanvas() });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('reserved before anything is shown, gives both canvases their buffers: the drawing after the first one shown makes no canvas (the image drawn ahead, first shown mid-gesture)', () => {
    const pair = new CanvasTurns();
    pair.reserve(1400, 900);
    const sink = (c: FakeCanvas) => c.width === 1 && c.height === 1;
    const pairCanvases = FakeCanvas.made.filter((c) => !sink(c));
    expect(pairCanvases).toHaveLength(2);
    for (const c of pairCanvases) {
      expect([c.width, c.height]).toEqual([1400, 900]);
      expect(c.calls).toContain('clearRect 0,0,1400,900');
    }
    // Drawings made and dropped go on the same canvas; the first shown is one of the two.
    const a = pair.next(1400, 900);
    expect(pair.next(1400, 900)).toBe(a);
    pair.shown(a);
    const b = pair.next(1400, 900);
    expect(b).not.toBe(a);
    pair.shown(b);
    expect(pair.next(1400, 900)).toBe(a);
    expect(FakeCanvas.made.filter((c) => !sink(c))).toEqual(pairCanvases);
  });

  it('never touches the canvas on show, nor one a drawing went on at that size (it may hold that drawing), and resizes the other for a new size', () => {
    const pair = new CanvasTurns();
    const a = pair.next(800, 600);
    pair.shown(a);
    const b = pair.next(800, 600);
    const callsA = asFake(a).calls.length;
    const callsB = asFake(b).calls.length;
    pair.reserve(800, 600);
    expect([asFake(a).calls.length, asFake(b).calls.length]).toEqual([callsA, callsB]);
    pair.reserve(1000, 600);
    expect([a.width, a.height]).toEqual([800, 600]);
    expect(asFake(a).calls.length).toBe(callsA);
    expect([b.width, b.height]).toEqual([1000, 600]);
    expect(asFake(b).calls.at(-1)).toBe('clearRect 0,0,1000,600');
    expect(pair.next(1000, 600)).toBe(asCanvas(asFake(b)));
  });
});
