import { afterEach, describe, expect, it, vi } from 'vitest';
import { chunkSize, rasteriseNow } from './chunkedDrawing';

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
