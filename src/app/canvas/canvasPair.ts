/**
 * Two canvases in turn for a drawing that is made off screen and then copied where it is shown
 * (StaticDrawing's full-detail drawings, PreparedImage's image): the next drawing never goes on
 * the canvas on show, and the next canvas can get its pixel buffer while the page is idle.
 *
 * Why the buffer ahead: a canvas gets its pixel buffer at its first draw call, and on the bench's
 * machine the buffer of a 1400×900 canvas took 11–19 ms to come (measured in StaticDrawing.start:
 * its first setTransform) — in the frame where a motion paused for the first time, when the
 * second canvas was made then.
 */
import { rasteriseNow } from './chunkedDrawing';

/** The size at which a canvas got its pixel buffer (drawn by a caller of next, or by reserve); a resize drops it. */
const bufferAt = new WeakMap<HTMLCanvasElement, string>();
const sizeKey = (w: number, h: number) => `${w}×${h}`;

export class CanvasPair {
  private spare: HTMLCanvasElement | null = null;
  private onShow: HTMLCanvasElement | null = null;

  /** The canvas the next drawing goes on, at w×h device pixels (resized only if it must be); the caller draws on it. */
  next(w: number, h: number): HTMLCanvasElement {
    const canvas = this.pick(w, h);
    bufferAt.set(canvas, sizeKey(w, h));
    return canvas;
  }

  /** `canvas` (from next) is now the one on show; the one shown before is the next spare. */
  shown(canvas: HTMLCanvasElement): void {
    if (this.onShow && this.onShow !== canvas) this.spare = this.onShow;
    this.onShow = canvas;
  }

  /** Gives the canvas the next drawing will use its pixel buffer at w×h now (call it when the main thread is idle). */
  reserve(w: number, h: number): void {
    const canvas = this.pick(w, h);
    if (bufferAt.get(canvas) === sizeKey(w, h)) return;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.clearRect(0, 0, w, h);
    rasteriseNow(canvas);
    bufferAt.set(canvas, sizeKey(w, h));
  }

  private pick(w: number, h: number): HTMLCanvasElement {
    const canvas = this.spare && this.spare !== this.onShow ? this.spare : document.createElement('canvas');
    this.spare = canvas;
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
    }
    return canvas;
  }
}
