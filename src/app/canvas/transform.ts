/**
 * The view transform (image pixels → screen pixels: screen = image * scale + offset), shared by
 * every pane in a side-by-side comparison so zoom and pan stay linked. Pure functions.
 */
import type { Rect } from './geometry';

export interface ViewTransform {
  scale: number;
  x: number;
  y: number;
}

export const MIN_SCALE = 1 / 64;
export const MAX_SCALE = 64;

const clampScale = (s: number) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, s));

/** Fits a w×h image into a viewport with a margin, centred. */
export function fitTransform(w: number, h: number, vw: number, vh: number, margin = 8): ViewTransform {
  if (!(w > 0 && h > 0 && vw > 0 && vh > 0)) return { scale: 1, x: 0, y: 0 };
  const scale = clampScale(Math.min((vw - 2 * margin) / w, (vh - 2 * margin) / h));
  return { scale, x: (vw - w * scale) / 2, y: (vh - h * scale) / 2 };
}

/** 1:1 (one image pixel per CSS pixel), keeping the image point at the viewport centre fixed. */
export function actualSize(t: ViewTransform, vw: number, vh: number): ViewTransform {
  return zoomAt(t, vw / 2, vh / 2, 1 / t.scale);
}

/** Zooms by `factor` keeping the screen point (sx, sy) over the same image point. */
export function zoomAt(t: ViewTransform, sx: number, sy: number, factor: number): ViewTransform {
  const scale = clampScale(t.scale * factor);
  const ix = (sx - t.x) / t.scale;
  const iy = (sy - t.y) / t.scale;
  return { scale, x: sx - ix * scale, y: sy - iy * scale };
}

/**
 * The CSS transform (origin at the top left) that shows a drawing made at view `drawn` as view
 * `v`: screen = image·scale + offset for both.
 */
export function cssAt(drawn: ViewTransform, v: ViewTransform): string {
  const s = v.scale / drawn.scale;
  return `matrix(${s}, 0, 0, ${s}, ${v.x - drawn.x * s}, ${v.y - drawn.y * s})`;
}

export function panBy(t: ViewTransform, dx: number, dy: number): ViewTransform {
  return { scale: t.scale, x: t.x + dx, y: t.y + dy };
}

/**
 * Centres a shape's bounds, zoomed so it fills about a third of the viewport (its surroundings
 * stay visible) and at most 16× (a one-pixel box does not become a blur), but never below
 * `minScale` (the fit), so going to a large shape does not zoom out past the whole image.
 */
export function zoomToRect(r: Rect, vw: number, vh: number, fill = 0.33, minScale = MIN_SCALE): ViewTransform {
  const w = Math.max(1, r.x1 - r.x0);
  const h = Math.max(1, r.y1 - r.y0);
  const scale = clampScale(Math.max(minScale, Math.min((vw * fill) / w, (vh * fill) / h, 16)));
  const cx = (r.x0 + r.x1) / 2;
  const cy = (r.y0 + r.y1) / 2;
  return { scale, x: vw / 2 - cx * scale, y: vh / 2 - cy * scale };
}

export function toImage(t: ViewTransform, sx: number, sy: number): [number, number] {
  return [(sx - t.x) / t.scale, (sy - t.y) / t.scale];
}

export function toScreen(t: ViewTransform, ix: number, iy: number): [number, number] {
  return [ix * t.scale + t.x, iy * t.scale + t.y];
}

/** Wheel delta → zoom factor; trackpads send small deltas, mouse wheels ±100. */
export function wheelFactor(deltaY: number, deltaMode = 0): number {
  const px = deltaMode === 1 ? deltaY * 16 : deltaMode === 2 ? deltaY * 400 : deltaY;
  return Math.exp(-Math.max(-300, Math.min(300, px)) * 0.0015);
}

/**
 * Whether a wheel event is a notch of an ordinary wheel (Chromium: ∓120 px on Linux, ∓100 on
 * Windows; or a delta in lines or pages) rather than one step of a smooth stream (a trackpad or a
 * high-resolution wheel: a few px every 8–16 ms). The viewer draws a notch's view at full detail
 * without waiting for a frame without input (useSettledView).
 */
export function isWheelNotch(e: Pick<WheelEvent, 'deltaMode' | 'deltaX' | 'deltaY'>): boolean {
  return e.deltaMode !== 0 || Math.abs(e.deltaY) >= 50 || Math.abs(e.deltaX) >= 50;
}

/**
 * The grid of `n` linked panes in an area w×h for an image iw×ih: the columns × rows whose panes
 * fit the image largest (issue #42: three models in one row opened at 19 %, unreadable). One row
 * — side by side, what the mode is named for — unless another grid fits the image at least 1.25×
 * larger (two landscape pages stack; three or four often make a 2×2 grid).
 */
export function paneGrid(n: number, w: number, h: number, iw: number, ih: number): { cols: number; rows: number } {
  if (n <= 1 || !(w > 0 && h > 0 && iw > 0 && ih > 0)) return { cols: Math.max(1, n), rows: 1 };
  const fitOf = (cols: number) => fitTransform(iw, ih, Math.floor(w / cols), Math.floor(h / Math.ceil(n / cols))).scale;
  const row = fitOf(n);
  let best = { cols: n, rows: 1, scale: row };
  for (let cols = n - 1; cols >= 1; cols--) {
    const s = fitOf(cols);
    if (s > best.scale && s >= row * 1.25) best = { cols, rows: Math.ceil(n / cols), scale: s };
  }
  return { cols: best.cols, rows: best.rows };
}
