import { describe, expect, it } from 'vitest';
import { CanvasTurns } from './canvasTurns';
import { FakeCanvas, fakeCanvasesInEachTest } from '../../../test/fakeCanvas';

const asCanvas = (c: FakeCanvas) => c as unknown as HTMLCanvasElement;
const asFake = (c: HTMLCanvasElement) => c as unknown as FakeCanvas;

describe('CanvasTurns', () => {
  fakeCanvasesInEachTest();

  it('reserved before anything is shown, gives both canvases their buffers: the drawing after the first one shown makes no canvas (the image drawn ahead, first shown mid-gesture)', () => {
    const turns = new CanvasTurns();
    // One canvas a call (each in an idle period of its own): true while another lacks its buffer.
    expect([turns.reserve(1400, 900), turns.reserve(1400, 900), turns.reserve(1400, 900)]).toEqual([true, false, false]);
    const sink = (c: FakeCanvas) => c.width === 1 && c.height === 1;
    const pairCanvases = FakeCanvas.made.filter((c) => !sink(c));
    expect(pairCanvases).toHaveLength(2);
    for (const c of pairCanvases) {
      expect([c.width, c.height]).toEqual([1400, 900]);
      expect(c.calls).toContain('clearRect 0,0,1400,900');
    }
    // Drawings made and dropped go on the same canvas; the first shown is one of the two.
    const a = turns.next(1400, 900);
    expect(turns.next(1400, 900)).toBe(a);
    turns.shown(a);
    const b = turns.next(1400, 900);
    expect(b).not.toBe(a);
    turns.shown(b);
    expect(turns.next(1400, 900)).toBe(a);
    expect(FakeCanvas.made.filter((c) => !sink(c))).toEqual(pairCanvases);
  });

  it('never touches the canvas on show, nor one a drawing went on at that size (it may hold that drawing), and resizes the other for a new size', () => {
    const turns = new CanvasTurns();
    const a = turns.next(800, 600);
    turns.shown(a);
    const b = turns.next(800, 600);
    const callsA = asFake(a).calls.length;
    const callsB = asFake(b).calls.length;
    turns.reserve(800, 600);
    expect([asFake(a).calls.length, asFake(b).calls.length]).toEqual([callsA, callsB]);
    turns.reserve(1000, 600);
    expect([a.width, a.height]).toEqual([800, 600]);
    expect(asFake(a).calls.length).toBe(callsA);
    expect([b.width, b.height]).toEqual([1000, 600]);
    expect(asFake(b).calls.at(-1)).toBe('clearRect 0,0,1000,600');
    expect(turns.next(1000, 600)).toBe(asCanvas(asFake(b)));
  });

  it('never gives out a kept canvas; with one kept it turns three, and lets the third one\'s pixels go once nothing is kept', () => {
    const turns = new CanvasTurns();
    const a = turns.next(800, 600);
    turns.shown(a);
    const b = turns.next(800, 600);
    turns.keep(a);
    turns.shown(b);
    turns.reserve(800, 600);
    const c = turns.next(800, 600);
    expect([c === a, c === b]).toEqual([false, false]);
    turns.shown(c);
    // b is free again (neither on show nor kept), a still kept.
    expect(turns.next(800, 600)).toBe(b);
    turns.keep(null);
    const live = FakeCanvas.made.filter((f) => f.width === 800);
    expect(live).toHaveLength(2);
    expect(live.map(asCanvas)).toContain(c);
  });
});
