/**
 * The canvases of a raster worker (raster.worker.ts) for its parts. A part is drawn into a
 * canvas's top-left corner, and the page reads each bitmap's part by its rectangle
 * (StaticDrawing.put), not by the bitmap's size, so a canvas may be larger than the part.
 *
 * Why keep sizes: a canvas's pixel buffer is worth keeping — a new one took 4–12 ms a part on
 * the bench's machine (up to 50 under load) — and a resize throws it away. Bands of one drawing
 * differ by a few rows (cut by shape counts), so the height is rounded up to ROW_STEP rows; and
 * since a part's bitmap is a snapshot that shares its canvas's buffer until the page has put the
 * whole drawing in (a snapshot still held when its canvas is drawn on again is copied: measured
 * in a bare worker, 7–10 ms a part at 1400×320 against 1.9 with two canvases in turn), a worker
 * keeps a few canvases and takes the one it used longest ago (canvasSlot).
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

/**
 * Which of a worker's canvases (their sizes, least recently used first) a part of w×h pixels
 * goes on, and at what size: the least recently used one that keeps its size for it
 * (partCanvasSize) once there are `ring` such canvases — before that, and when none keeps its
 * size, a new one (index = sizes.length) while there are fewer than `max` — else the least
 * recently used one (index 0), resized. Why a ring: the page holds a drawing's parts until the
 * last is in, so a worker drawing two parts of it on one canvas would draw on a held snapshot.
 */
export function canvasSlot(sizes: readonly (readonly [number, number])[], w: number, h: number, max: number, ring = 1): { index: number; size: [number, number] } {
  const fitting = sizes.flatMap(([cw, ch], k) => {
    const [nw, nh] = partCanvasSize(cw, ch, w, h);
    return nw === cw && nh === ch ? [k] : [];
  });
  if (fitting.length > 0 && (fitting.length >= ring || sizes.length >= max)) return { index: fitting[0], size: [...sizes[fitting[0]]] as [number, number] };
  if (sizes.length < max) return { index: sizes.length, size: partCanvasSize(0, 0, w, h) };
  return { index: 0, size: partCanvasSize(sizes[0][0], sizes[0][1], w, h) };
}
