/**
 * Canvases taken in turn for a drawing that is made off screen and then copied where it is shown
 * (StaticDrawing's full-detail drawings, PreparedImage's image): the next drawing never goes on
 * the canvas on show, nor on one kept (StaticDrawing keeps the drawing before the one on show,
 * which a view back at its zoom reuses), and the canvases can get their pixel buffers while the
 * page is idle. Two canvases, three while one is kept.
 *
 * Why the buffers ahead: a canvas gets its pixel buffer at its first draw call, and on the bench's
 * machine the buffer of a 1400×900 canvas took 11–19 ms to come (measured in StaticDrawing.start:
 * its first setTransform) — in the frame where a motion paused for the first time, when the
 * second canvas was made then. Both canvases, not only the next one: the image drawn ahead had
 * one canvas with a buffer (reserved when the pane was made) until its first drawing was shown,
 * in the middle of a gesture; the next drawing came 18 ms later, before the page was idle, and
 * made the second canvas — traced in the viewer bench, a first call of 12–21 ms in the task
 * drawing the image ahead, while the raster workers drew the view the gesture ended at.
 */
import { rasteriseNow } from './chunkedDrawing';

/** The size at which a canvas got its pixel buffer (drawn by a caller of next, or by reserve); a resize drops it. */
const bufferAt = new WeakMap<HTMLCanvasElement, string>();
const sizeKey = (w: number, h: number) => `${w}×${h}`;

function sized(canvas: HTMLCanvasElement, w: number, h: number): HTMLCanvasElement {
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  return canvas;
}

export class CanvasTurns {
  /** The one the last drawing went on first. */
  private canvases: HTMLCanvasElement[] = [];
  private onShow: HTMLCanvasElement | null = null;
  private kept: HTMLCanvasElement | null = null;

  /** Canvases a drawing may go on: neither on show nor kept. */
  private free(): HTMLCanvasElement[] {
    return this.canvases.filter((c) => c !== this.onShow && c !== this.kept);
  }

  /**
   * The canvas the next drawing goes on, at w×h device pixels (resized only if it must be): the
   * one the last drawing went on unless it is on show or kept (a drawing made and dropped leaves
   * it free), else another. The caller draws on it.
   */
  next(w: number, h: number): HTMLCanvasElement {
    const canvas = sized(this.free()[0] ?? this.make(), w, h);
    this.canvases = [canvas, ...this.canvases.filter((c) => c !== canvas)];
    bufferAt.set(canvas, sizeKey(w, h));
    return canvas;
  }

  /** `canvas` (from next) is now the one on show. */
  shown(canvas: HTMLCanvasElement): void {
    this.onShow = canvas;
  }

  /** No drawing goes on `canvas` (from next; null: none) until another is kept instead. */
  keep(canvas: HTMLCanvasElement | null): void {
    this.kept = canvas;
    // Nothing kept: two canvases do, and a third one's pixels go (the least recently used).
    const extra = this.free().at(-1);
    if (!canvas && this.canvases.length > 2 && extra) {
      this.canvases = this.canvases.filter((c) => c !== extra);
      extra.width = extra.height = 0;
    }
  }

  /**
   * Gives a canvas neither on show nor kept its pixel buffer at w×h now, making the second canvas
   * if there is none yet; true if another one still lacks it. One canvas a call, in an idle
   * period (idleSteps): a buffer took 11–19 ms to come on the bench's machine, and input that
   * arrives meanwhile waits. A canvas that already has its buffer at that size — one a drawing
   * went on, which it may still hold — is left alone.
   */
  reserve(w: number, h: number): boolean {
    while (this.canvases.length < 2 || this.free().length === 0) this.make();
    const lacking = this.free().filter((c) => bufferAt.get(c) !== sizeKey(w, h));
    const canvas = lacking[0];
    if (!canvas) return false;
    bufferAt.set(canvas, sizeKey(w, h));
    const ctx = sized(canvas, w, h).getContext('2d');
    if (ctx) {
      ctx.clearRect(0, 0, w, h);
      rasteriseNow(canvas);
    }
    return lacking.length > 1;
  }

  private make(): HTMLCanvasElement {
    const canvas = document.createElement('canvas');
    this.canvases.push(canvas);
    return canvas;
  }
}
