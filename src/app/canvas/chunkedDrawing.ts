/**
 * Drawing in timed chunks, as the main thread's slices (staticDrawing.ts) and the raster
 * workers' parts (raster.worker.ts) do: how many shapes the next chunk gets, the rate a chunk
 * reached, and making a chunk rasterise now, so each costs its own time, not the next one's.
 */

/**
 * Shapes for the next chunk: `probe` until a rate is known, then what fits `ms` at `rate`
 * (shapes per ms), 16 at least.
 */
export const chunkSize = (rate: number, ms: number, probe: number): number => (rate > 0 ? Math.max(16, Math.floor(rate * ms)) : probe);

/** Shapes per ms that `n` shapes drawn (and rasterised) since `since` (performance.now()) reached. */
export const rateSince = (n: number, since: number): number => n / Math.max(0.1, performance.now() - since);

let sink: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null = null;

/**
 * Makes a canvas rasterise what it has recorded so far, now (a 2D canvas only records draw
 * calls; they are rasterised when its pixels are needed): copying one of its pixels to a 1×1
 * canvas needs its pixels — no read-back to script, so a canvas on the GPU stays there.
 *
 * The copy takes a snapshot of the canvas, which the 1×1 canvas holds while its call is
 * recorded; a canvas with a snapshot held copies its whole buffer before its next draw call
 * (copy on write). So the 1×1 canvas is cleared right after the copy, which drops the call and
 * the snapshot (the canvas has rasterised by then). Measured in the raster workers, the bench's
 * view at its new zoom in 4 parts: 78–90 ms per drawing with the snapshot kept until the next
 * chunk, 61–71 ms with it dropped — as fast as drawing without chunks.
 */
export function rasteriseNow(canvas: HTMLCanvasElement | OffscreenCanvas): void {
  if (!sink) {
    // A worker has no document: its sink is an OffscreenCanvas.
    const c = typeof document !== 'undefined' ? document.createElement('canvas') : new OffscreenCanvas(1, 1);
    c.width = c.height = 1;
    sink = c.getContext('2d') as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
  }
  if (!sink) return;
  sink.drawImage(canvas, 0, 0, 1, 1, 0, 0, 1, 1);
  // Clearing the whole 1×1 canvas drops its recorded calls, and with them the snapshot.
  sink.clearRect(0, 0, 1, 1);
}
