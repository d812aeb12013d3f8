/**
 * A pane's image layer (Pane.tsx): the case image, or the pre-scaled copy that suits the zoom
 * (mipLevels.ts mipFor), drawn at a view — directly into the layer, or ahead of time into a
 * canvas of the layer's size that the layer then only copies (PreparedImage).
 *
 * Why ahead: at a new view the image is drawn again with the full-detail drawing, in the task
 * that shows it, after the raster workers' last part — traced in the viewer bench, 4–9 ms of that
 * task's ~10 (resampling the copy at the new zoom, where the pane's shapes and labels take 0.5 ms
 * to put in). The main thread is idle while the workers draw, so the image is drawn there
 * instead (useFullDetail's `prepare`), and the task that shows the drawing copies it 1:1.
 */
import { rasteriseNow } from './chunkedDrawing';
import { CanvasTurns } from './canvasTurns';
import { idleSteps } from './idle';
import { same } from './useSettledView';
import type { ViewTransform } from './transform';

/** What the image layer draws: `image` over the case image's `width` × `height` image pixels. */
export interface ImageSource {
  image: CanvasImageSource;
  width: number;
  height: number;
}

/** The size of a case image in image pixels. */
export const imageSize = (image: CanvasImageSource): { width: number; height: number } => {
  const s = image as { width: number; height: number };
  return { width: s.width, height: s.height };
};

/**
 * Draws `src` at view `t` on `ctx` (a canvas of device pixels, `pixelRatio` per CSS pixel), with
 * the transform Konva gives the layer: the same pixels whether drawn into the layer or ahead.
 * Smoothed below 2× (pixels are shown as pixels when zoomed far in).
 */
export function drawImageAt(ctx: CanvasRenderingContext2D, src: ImageSource, t: ViewTransform, pixelRatio: number): void {
  ctx.save();
  ctx.setTransform(pixelRatio * t.scale, 0, 0, pixelRatio * t.scale, pixelRatio * t.x, pixelRatio * t.y);
  ctx.imageSmoothingEnabled = t.scale < 2;
  ctx.drawImage(src.image, 0, 0, src.width, src.height);
  ctx.restore();
}

/** The image drawn ahead for one view. */
export class PreparedImage {
  /** Two canvases in turn: the one the layer copied last is never drawn over. */
  private canvases = new CanvasTurns();
  private ready: { t: ViewTransform; image: CanvasImageSource; canvas: HTMLCanvasElement } | null = null;

  /** Gives a canvas the images drawn ahead go on its pixel buffer at w×h now; true if another still lacks it (CanvasTurns.reserve: one a call, in an idle period). */
  reserve(w: number, h: number): boolean {
    return this.canvases.reserve(w, h);
  }

  /** The image drawn ahead, if it is `image` at view `t` on a w×h canvas. */
  private readyFor(image: CanvasImageSource, t: ViewTransform, w: number, h: number) {
    const r = this.ready;
    return r && r.image === image && same(r.t, t) && r.canvas.width === w && r.canvas.height === h ? r : null;
  }

  /** Draws `src` at view `t` on a w×h device-pixel canvas, now (rasterised), for `put`. */
  prepare(src: ImageSource, t: ViewTransform, pixelRatio: number, w: number, h: number): void {
    if (this.readyFor(src.image, t, w, h)) return;
    const canvas = this.canvases.next(w, h);
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, w, h);
    drawImageAt(ctx, src, t, pixelRatio);
    rasteriseNow(canvas);
    this.ready = { t, image: src.image, canvas };
  }

  /**
   * Copies the image drawn ahead onto `ctx` (the layer's canvas) if it is `image` at view `t` and
   * of that canvas's size; false (nothing drawn) otherwise. The other canvas then gets its buffer
   * while the page is idle.
   */
  put(ctx: CanvasRenderingContext2D, image: CanvasImageSource, t: ViewTransform): boolean {
    const r = this.readyFor(image, t, ctx.canvas.width, ctx.canvas.height);
    if (!r) return false;
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(r.canvas, 0, 0);
    ctx.restore();
    this.canvases.shown(r.canvas);
    const { width: w, height: h } = r.canvas;
    idleSteps(() => this.canvases.reserve(w, h));
    return true;
  }
}
