/**
 * Makes a canvas rasterise what it has recorded so far, now (a 2D canvas only records draw calls;
 * they are rasterised when its pixels are needed): copying one of its pixels to a 1×1 canvas
 * needs its pixels — no read-back to script, so a canvas on the GPU stays there. Used by the
 * main thread's sliced drawing (staticDrawing.ts) and the raster workers' chunks
 * (raster.worker.ts), so each slice or chunk costs its own time, not the next one's.
 */
let sink: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null = null;

export function rasteriseNow(canvas: HTMLCanvasElement | OffscreenCanvas): void {
  if (!sink) {
    // A worker has no document: its sink is an OffscreenCanvas.
    const c = typeof document !== 'undefined' ? document.createElement('canvas') : new OffscreenCanvas(1, 1);
    c.width = c.height = 1;
    sink = c.getContext('2d') as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
  }
  if (!sink) return;
  // Clearing the whole 1×1 canvas first drops its recorded calls, and with them the previous
  // snapshot.
  sink.clearRect(0, 0, 1, 1);
  sink.drawImage(canvas, 0, 0, 1, 1, 0, 0, 1, 1);
}
