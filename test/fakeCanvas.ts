/**
 * A page canvas as far as the canvas turns (src/app/canvas/canvasTurns.ts) and StaticDrawing use
 * one in unit tests: records the calls that give it its pixel buffer. `document.createElement`
 * is stubbed to make them (vi.stubGlobal).
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
