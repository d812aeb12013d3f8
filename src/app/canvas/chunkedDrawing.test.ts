import { afterEach, describe, expect, it, vi } from 'vitest';
import { chunkSize, frameWait, rasteriseNow, type FrameYield } from './chunkedDrawing';

/** The 1×1 canvas rasteriseNow copies into (a worker's OffscreenCanvas here): records its calls. */
class RecordingCanvas {
  static made: RecordingCanvas[] = [];
  calls: string[] = [];
  constructor(
    public width: number,
    public height: number,
  ) {
    RecordingCanvas.made.push(this);
  }
  getContext() {
    return {
      drawImage: () => this.calls.push('drawImage'),
      clearRect: (x: number, y: number, w: number, h: number) => this.calls.push(`clearRect ${x},${y},${w},${h}`),
    };
  }
}

describe('rasteriseNow', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('drops the snapshot it takes as soon as it has taken it (else the canvas copies its whole buffer at its next draw)', () => {
    vi.stubGlobal('OffscreenCanvas', RecordingCanvas);
    const source = {} as OffscreenCanvas;
    rasteriseNow(source);
    rasteriseNow(source);
    expect(RecordingCanvas.made).toHaveLength(1);
    const sink = RecordingCanvas.made[0];
    expect([sink.width, sink.height]).toEqual([1, 1]);
    // Each copy is followed at once by a clear of the whole 1×1 canvas, which drops the recorded
    // copy and the snapshot it holds; nothing is left recorded between two calls.
    expect(sink.calls).toEqual(['drawImage', 'clearRect 0,0,1,1', 'drawImage', 'clearRect 0,0,1,1']);
  });
});

describe('chunkSize', () => {
  it('is the probe until a rate is known, then what fits the budget, 16 at least', () => {
    expect(chunkSize(0, 8, 48)).toBe(48);
    expect(chunkSize(100, 8, 48)).toBe(800);
    expect(chunkSize(0.5, 8, 48)).toBe(16);
  });
});

describe('frameWait', () => {
  // Vsyncs at 1000, 1016.67, …; the window around an expected wheel notch 1100 ± 8.
  const f: FrameYield = { vsync: 1000, period: 1000 / 60, from: 1092, until: 1108, yieldMs: 6 };
  it('lets chunks run outside the window', () => {
    expect(frameWait(1050, f, 4)).toBe(0); // ends long before it
    expect(frameWait(1108, f, 4)).toBe(0); // past it
    expect(frameWait(1100, undefined, 4)).toBe(0); // no window asked for
  });
  it('in the window, keeps the first 6 ms after each vsync free, and no chunk runs into the next', () => {
    const v = 1000 + 6 * (1000 / 60); // the vsync at 1100
    expect(frameWait(v + 2, f, 4)).toBeCloseTo(4); // 2 ms after it: wait until 6 ms after it
    expect(frameWait(v + 7, f, 4)).toBe(0); // 7 ms after: a 4-ms chunk ends at 11, clear of the next at 16.7
    expect(frameWait(v - 2, f, 4)).toBeCloseTo(8); // 2 ms before the vsync (in the window): until 6 ms after it
    // 1090 + 4 reaches the window; 1090 is 6.67 ms after the vsync at 1083.33: the chunk would end
    // at 10.67 < 15.67, so it runs.
    expect(frameWait(1090, f, 4)).toBe(0);
  });
});
