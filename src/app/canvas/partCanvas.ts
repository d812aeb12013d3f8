/**
 * The size of a raster worker's canvas for a part (raster.worker.ts). A part is drawn into the
 * canvas's top-left corner, and the page reads each bitmap's part by its rectangle
 * (StaticDrawing.put), not by the bitmap's size, so the canvas may be larger than the part.
 *
 * Why keep one size: a canvas gets a new pixel buffer after each part (the bitmap takes the old
 * one), and the worker makes it right after sending a band, while the page takes that band — but
 * a resize at the next part would throw it away and make another. Bands of one drawing
 * differ by a few rows (cut by shape counts), so the height is rounded up to ROW_STEP rows.
 */
export const ROW_STEP = 64;

/**
 * The canvas size for a part of w×h pixels, the canvas being cw×ch now: unchanged if the part fits
 * and fills at least half of it (a much larger buffer costs more to make and to send); else the
 * part's width and its height rounded up to ROW_STEP.
 */
export function partCanvasSize(cw: number, ch: number, w: number, h: number): [number, number] {
  if (w <= cw && h <= ch && 2 * w * h >= cw * ch) return [cw, ch];
  return [w, Math.ceil(h / ROW_STEP) * ROW_STEP];
}
