/**
 * The full-detail drawing of a pane's static shapes, made off screen in slices of a few
 * milliseconds (Pane runs them as separate tasks), then shown in one go (the static layer
 * copies it).
 *
 * Why slices: in software-rasterised Chromium, stroking 5,000 dashed polygons takes 40–300 ms
 * (more on a busy machine). Done in one frame, it blocks the input that resumes a gesture —
 * the pan after a short pause would stall for that long. A slice is drawn and rasterised (the
 * canvas' recorded commands are flushed at the end of every slice, by copying one pixel of it)
 * within its budget, and motion puts the unfinished drawing on hold at the next slice.
 *
 * When the raster workers can draw (rasterPool.ts), the shapes of a new view come from them
 * instead, as bitmaps (horizontal bands of the canvas, packedScene.ts bandRect) that `composite`
 * puts at their rows — or, for a view at the zoom of the drawing on show, that drawing moved by
 * whole pixels and the workers' drawings of the strips the move exposed (`compositeShifted`);
 * the workers draw the labels too, so nothing is left to draw here.
 */
import { drawLabelRange, drawPlanned, planLabels, planShapes, type DrawOptions, type ShapePlan } from './draw';
import { bandRect, paddedRect, type DeviceRect } from './packedScene';
import { chunkSize, rasteriseNow, rateSince } from './chunkedDrawing';
import { CanvasTurns } from './canvasTurns';
import type { SceneItem } from './scene';
import type { ViewTransform } from './transform';
import type { PartsVia } from './rasterProtocol';

/** Main-thread time one slice may take, drawing and rasterising. */
export const SLICE_MS = 10;

export interface Drawing {
  canvas: HTMLCanvasElement;
  t: ViewTransform;
  content: unknown;
  /** What the drawing holds, by "side:state". */
  stats: Record<string, number>;
  /**
   * Who drew the shapes: in one go (new content), in main-thread slices, the raster workers, or
   * the last drawing moved by whole pixels with the workers' drawing of what a pan exposed.
   */
  by: 'at once' | 'slices' | 'workers' | 'shifted';
  /** Labels it holds (a drawing with labels is never shifted: a label may cross the seam). */
  labels: number;
  /** How the raster workers' parts came (snapshots or transfers: raster.worker.ts partBitmap); for tests. */
  via?: PartsVia;
}

export class StaticDrawing {
  /** The finished drawing on show (null before the first); see accept. */
  shown: Drawing | null = null;
  /**
   * The last drawing shown before it at another zoom, of the same content and without labels
   * (null if none), kept as it was: a view that comes back to its zoom reuses it, moved by whole
   * pixels (useFullDetail shiftOf), as one at the zoom on show reuses that one.
   */
  previous: Drawing | null = null;
  /** The canvases drawings go on, in turn: the one on show and the previous one are never drawn over. */
  private canvases = new CanvasTurns();
  private job: {
    d: Drawing;
    ctx: CanvasRenderingContext2D;
    plan: ShapePlan;
    labels: SceneItem[];
    o: DrawOptions;
    /** Position in the work: shapes first (0 … plan.count), then labels. */
    next: number;
    /** Work items per 1 ms, learnt from the slices so far. */
    rate: number;
  } | null = null;

  /** Starts a drawing of `items` for view `o.transform` on a canvas of w×h device pixels (`planned`: planLabels for it, if already made). */
  start(items: readonly SceneItem[], o: DrawOptions, w: number, h: number, content: unknown, planned?: SceneItem[]): void {
    const canvas = this.canvases.next(w, h);
    const ctx = canvas.getContext('2d');
    if (!ctx) {
      this.job = null;
      return;
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, w, h);
    // The transform Konva gives a layer at this view: device pixels × view.
    const { scale, x, y } = o.transform;
    const pr = o.pixelRatio;
    ctx.setTransform(pr * scale, 0, 0, pr * scale, pr * x, pr * y);
    const stats: Record<string, number> = {};
    const opts = { ...o, stats };
    const labels = planned ?? planLabels(items, opts);
    this.job = { d: { canvas, t: o.transform, content, stats, by: 'slices', labels: labels.length }, ctx, plan: planShapes(items, opts), labels, o: opts, next: 0, rate: 0 };
  }

  get pending(): boolean {
    return this.job !== null;
  }

  /** Draws the next slice (all of it when `budgetMs` is Infinity); the finished drawing when done. */
  step(budgetMs: number): Drawing | null {
    const j = this.job;
    if (!j) return null;
    const t0 = performance.now();
    const shapes = j.plan.count;
    const total = shapes + j.labels.length;
    while (j.next < total) {
      // A small probe first; later chunks are sized from the rate the earlier ones reached.
      const left = budgetMs - (performance.now() - t0);
      const n = budgetMs === Infinity ? total : chunkSize(j.rate, left, 32);
      const to = Math.min(total, j.next + n);
      const c0 = performance.now();
      if (j.next < shapes) drawPlanned(j.ctx, j.plan, j.o.transform.scale, j.next, Math.min(to, shapes));
      if (to > shapes) drawLabelRange(j.ctx, j.labels, j.o, Math.max(0, j.next - shapes), to - shapes);
      rasteriseNow(j.d.canvas);
      j.rate = rateSince(to - j.next, c0);
      j.next = to;
      if (performance.now() - t0 > budgetMs * 0.7) break;
    }
    if (j.next < total) return null;
    if (budgetMs === Infinity) j.d.by = 'at once';
    this.job = null;
    return j.d;
  }

  /**
   * Puts the raster workers' drawings of the shapes and their labels (band k of bitmaps.length
   * at index k, its edges `cuts` as the workers were given them) in; step then only finishes.
   * Closes the bitmaps.
   */
  composite(bitmaps: readonly ImageBitmap[], cuts?: readonly number[], via?: PartsVia): void {
    const c = this.job?.d.canvas;
    this.put('workers', bitmaps, c ? bitmaps.map((_, k) => bandRect(c.width, c.height, k, bitmaps.length, cuts)) : [], via);
  }

  /**
   * Puts the drawing `from` in, moved by (dx, dy) whole device pixels, and the workers' drawings
   * of the rectangles it does not cover (exposedRects, in that order). Closes the bitmaps.
   */
  compositeShifted(from: Drawing, dx: number, dy: number, bitmaps: readonly ImageBitmap[], rects: readonly DeviceRect[], via?: PartsVia): void {
    this.put('shifted', bitmaps, rects, via, (ctx) => ctx.drawImage(from.canvas, dx, dy));
  }

  /**
   * Puts bitmap k at rectangle `rects[k]` (its canvas holds BAND_PAD pixels to spare around it,
   * paddedRect), after `under` if given; rasterised now, in this task, so the bitmaps may go and
   * the commit only copies. Closes the bitmaps.
   */
  private put(by: Drawing['by'], bitmaps: readonly ImageBitmap[], rects: readonly DeviceRect[], via: PartsVia | undefined, under?: (ctx: CanvasRenderingContext2D) => void): void {
    const j = this.job;
    if (j) {
      const { width: w, height: h } = j.d.canvas;
      j.ctx.save();
      j.ctx.setTransform(1, 0, 0, 1, 0, 0);
      under?.(j.ctx);
      bitmaps.forEach((b, k) => {
        const r = rects[k];
        const [fx, fy] = paddedRect(r, w, h);
        j.ctx.drawImage(b, r[0] - fx, r[1] - fy, r[2] - r[0], r[3] - r[1], r[0], r[1], r[2] - r[0], r[3] - r[1]);
      });
      j.ctx.restore();
      rasteriseNow(j.d.canvas);
      // The workers drew the labels too (raster.worker.ts, from the same plan: planPackedLabels).
      j.next = j.plan.count + j.labels.length;
      j.d.by = by;
      j.d.via = via;
    }
    for (const b of bitmaps) b.close();
  }

  /** The drawing `d` (from step) is now the one on show; the one shown before may be kept (previous). */
  accept(d: Drawing): void {
    const before = this.shown;
    if (before && before.t.scale !== d.t.scale && before.labels === 0) this.previous = before;
    if (this.previous?.content !== d.content) this.previous = null;
    this.canvases.keep(this.previous?.canvas ?? null);
    this.canvases.shown(d.canvas);
    this.shown = d;
  }

  /**
   * Makes a canvas the next drawings will use ready, at w×h device pixels, now rather than at
   * a drawing's start; true if another still lacks its buffer (CanvasTurns.reserve: one a call,
   * in an idle period).
   */
  prepareSpare(w: number, h: number): boolean {
    // A drawing in progress is on the spare canvas (and has its buffer): never resized under it.
    if (this.job) return false;
    return this.canvases.reserve(w, h);
  }

  cancel(): void {
    this.job = null;
  }
}

// Linked panes (side by side) show their new drawings in the same frame: a finished drawing
// waits until every drawing started with it has finished too, then all are shown together.
const running = new Set<object>();
const finished = new Map<object, () => void>();

/** Registers a sliced drawing in progress under `key` (one per pane). */
export function drawingStarted(key: object): void {
  running.add(key);
  finished.delete(key);
}

/** Drops a drawing that was abandoned; the others may then be shown. */
export function drawingAbandoned(key: object): void {
  running.delete(key);
  finished.delete(key);
  release();
}

/** `show` runs once no other registered drawing is still in progress. */
export function drawingFinished(key: object, show: () => void): void {
  running.delete(key);
  finished.set(key, show);
  release();
}

function release() {
  if (running.size > 0) return;
  const all = [...finished.values()];
  finished.clear();
  for (const f of all) f();
}
