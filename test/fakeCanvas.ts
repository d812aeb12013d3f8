import { afterEach, beforeEach, vi } from 'vitest';

/**
 * A page canvas as far as the canvas turns (src/app/canvas/canvasTurns.ts) and StaticDrawing use
 * one in unit tests: records the calls that give it its pixel buffer (made by a stubbed
 * `document.createElement`: fakeCanvasesInEachTest).
 */
export class FakeCanvas {
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

/** In the calling `describe`: before each test, `document.createElement` makes FakeCanvases (counted afresh in FakeCanvas.made); after it, the real globals again. */
export function fakeCanvasesInEachTest(): void {
  beforeEach(() => {
    FakeCanvas.made = [];
    vi.stubGlobal('document', { createElement: () => new FakeCanvas() });
  });
  afterEach(() => vi.unstubAllGlobals());
}
