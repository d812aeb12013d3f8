/**
 * The page's two raster workers (raster.worker.ts), shared by all panes: a full-detail drawing
 * for a new view is split into PARTS horizontal bands of the canvas (packedScene.ts bandRect),
 * handed out one at a time to whichever worker is free, drawn on the machine's cores at the same
 * time, and put at their rows on the main thread (StaticDrawing.composite); for a view at the
 * zoom on show, only the strips a pan exposed (drawRects, StaticDrawing.compositeShifted).
 * Handing out quarters rather than halves keeps both workers busy to the end when one gets less
 * CPU than the other (the machine is shared). A drawing made stale — by a newer one for the
 * pane, or by input (dropUnwanted) — gets no further part, and the workers stop the parts they
 * hold within a chunk of a few ms (raster.worker.ts). (Bands replaced consecutive parts of the plan composited in
 * order, which differed from the one-canvas drawing on 0.55 % of the pixels where antialiased
 * edges of two parts overlapped; bands differ on a handful, see e2e/viewer-motion.spec.ts.)
 *
 * Measured in software-rasterised Chromium (1400×900, 5,000 polygons, quiet machine): the whole
 * drawing takes 80–90 ms on the main thread, 85–113 ms in one worker (with the bitmap's transfer
 * and copy), 54–70 ms as two halves in two workers. Nearly all of a part's time is spent
 * rasterising the recorded calls (recording them takes 2–3 ms).
 *
 * Until both workers have said they can draw (OffscreenCanvas with a 2D context and
 * transferToImageBitmap in a worker), or if one fails, rasterPool() is null and panes draw on
 * the main thread in slices as before.
 */
import { rasterWorker } from '../../worker/spawn';
import { copyPacked, packedBuffers, type DeviceRect, type PackedScene } from './packedScene';
import type { PartsVia, RasterReply, RasterRequest, RasterView } from './rasterProtocol';
import { onMotionInput } from './useSettledView';

export type { RasterView };

/** Workers, and parts of the plan per drawing. */
export const WORKERS = 2;
/**
 * Parts (bands) per drawing. Measured with parts of the plan (viewer bench, load average 2–4,
 * median of 6 runs): redraw on screen 170 ms after the last input with 4 parts, 188 ms with 8
 * (more bitmaps to composite), 206 ms with 2 (one per worker: a worker slowed by the machine's
 * other programs holds the whole drawing up, and a drawing made useless by motion cannot stop
 * early). Measured again with bands (new-zoom ending, 3 runs each, same conditions per pair):
 * 148–169 ms with 4 against 166–178 with 8; 124–162 with 4 against 145–167 with 6. Again with
 * 4-ms chunks and the warm-up (2026-12-02, 6 runs each, interleaved): 118–132 ms (median 125)
 * with 4 against 110–160 ms (median 137.5) with 6.
 */
export const PARTS = 4;
/**
 * Times the warm-up draws the whole view (RasterPool.warm). One part per worker left the code the
 * parts run only partly optimised: V8 went on compiling it on the renderer's thread pool during
 * the first drawings the user waited for (seen with /proc schedstat: 5–8 ms of every 15 ms).
 */
export const WARM_ROUNDS = 3;
/** A worker that has not said it can draw by then counts as failed. */
const READY_TIMEOUT_MS = 10_000;

/**
 * A pooled drawing's outcome: the parts in plan order and how their pixels came (undefined
 * without parts), or why there are none.
 */
export type RasterResult = { bitmaps: ImageBitmap[]; via?: PartsVia } | { stale: true } | { failed: string };

type Pending = {
  pane: number;
  content: number;
  generation: number;
  view: RasterView;
  /** Asked before each further part is handed out; false makes the drawing stale. */
  wanted: () => boolean;
  bitmaps: (ImageBitmap | null)[];
  via?: PartsVia;
  /** What each part asks for: a band of the view, or a rectangle of it. */
  parts: { part: number; parts: number; rect?: DeviceRect }[];
  /** Parts not yet handed out, and not yet back. */
  next: number;
  left: number;
  resolve(r: RasterResult): void;
};

export class RasterPool {
  state: 'starting' | 'ready' | 'failed' = 'starting';
  why = '';
  /** Drawings finished by the workers, parts a worker stopped when told to, warm-up parts drawn to the end, and panes' shapes sent (test hooks). */
  drawn = 0;
  aborted = 0;
  warmed = 0;
  sent = 0;
  private workers: Worker[] = [];
  private ready = 0;
  private timer: ReturnType<typeof setTimeout>;
  private generation = new Map<number, number>();
  private pending = new Map<string, Pending>();
  /** What each worker is drawing: a pending drawing's key and part, or null when idle. */
  private busy: ({ key: string; part: number; pane: number; generation: number; aborting?: boolean } | null)[] = [];
  private contents = new Map<number, number>();
  /** Warm-up parts still to hand out (warm), after every real drawing's. */
  private warmUps: Extract<RasterRequest, { type: 'draw' }>[] = [];
  private started!: () => void;
  /** Resolves once the workers can draw, or have failed. */
  readonly settled = new Promise<void>((resolve) => (this.started = resolve));

  /**
   * `spawn(n)` starts worker n; with `transfer`, the workers are told to send their parts by
   * transfer, their fallback (the partsByTransfer test hook).
   */
  constructor(spawn: (n: number) => Worker, transfer = false) {
    this.timer = setTimeout(() => this.fail('the raster workers did not start'), READY_TIMEOUT_MS);
    try {
      for (let n = 0; n < WORKERS; n++) {
        const w = spawn(n);
        w.onmessage = (e: MessageEvent<RasterReply>) => this.receive(n, e.data);
        w.onerror = (e) => {
          e.preventDefault?.();
          this.fail(`raster worker ${n}: ${e.message || 'failed to start'}`);
        };
        this.workers.push(w);
        this.busy.push(null);
        if (transfer) this.post(w, { type: 'transfer' });
      }
    } catch (e) {
      this.fail(`raster workers: ${(e as Error).message}`);
    }
  }

  /** Parts the workers are drawing now (a test hook). */
  get inProgress(): number {
    return this.busy.filter((b) => b && b.key !== 'warm-up').length;
  }

  /** Whether the workers hold the pane's shapes of content number `content`. */
  hasContent(pane: number, content: number): boolean {
    return this.contents.get(pane) === content;
  }

  /** Sends the pane's shapes to both workers (the first gets a copy, the second the original). */
  setContent(pane: number, content: number, scene: PackedScene): void {
    if (this.state === 'failed') return;
    this.contents.set(pane, content);
    this.sent++;
    this.workers.forEach((w, n) => {
      const s = n < this.workers.length - 1 ? copyPacked(scene) : scene;
      this.post(w, { type: 'content', pane, content, scene: s }, packedBuffers(s));
    });
  }

  /**
   * Draws the pane's shapes of `content` at `view`, in parts shared by the workers. A newer
   * request for the same pane makes this one stale (its bitmaps are closed when they arrive), as
   * does `wanted()` turning false (the view moved): then no further part is drawn.
   */
  draw(pane: number, content: number, view: RasterView, wanted: () => boolean = () => true): Promise<RasterResult> {
    const parts = Array.from({ length: PARTS }, (_, part) => ({ part, parts: PARTS }));
    return this.queue(pane, content, view, wanted, parts);
  }

  /**
   * Draws only rectangles `rects` of the pane's view (what a pan exposed; see exposedRects), one
   * part each, with draw's staleness rules. The bitmaps come in the order of `rects`.
   */
  drawRects(pane: number, content: number, view: RasterView, rects: readonly DeviceRect[], wanted: () => boolean = () => true): Promise<RasterResult> {
    return this.queue(pane, content, view, wanted, rects.map((rect, part) => ({ part, parts: rects.length, rect })));
  }

  private queue(pane: number, content: number, view: RasterView, wanted: () => boolean, parts: Pending['parts']): Promise<RasterResult> {
    if (this.state !== 'ready') return Promise.resolve({ failed: this.why || 'the raster workers are not ready' });
    const generation = this.nextGeneration(pane);
    this.staleWhere((p) => p.pane === pane);
    if (parts.length === 0) return Promise.resolve({ bitmaps: [] });
    return new Promise((resolve) => {
      this.pending.set(`${pane}:${generation}`, { pane, content, generation, view, wanted, bitmaps: parts.map(() => null), parts, next: 0, left: parts.length, resolve });
      this.dispatch();
    });
  }

  /**
   * Has the workers draw `view` WARM_ROUNDS times over, in parts, and throws the parts away, while
   * nothing else is asked of them: the first real drawing of a new view then runs on warm workers.
   * Measured in a trace: a worker's first part took 37–41 ms of CPU, the following ones 22–27 ms
   * (compiled code, Skia's caches).
   */
  warm(pane: number, content: number, view: RasterView): void {
    if (this.state !== 'ready') return;
    // A generation of its own, newer than any the pane's drawings had: a worker stops every part
    // of a generation at or below the newest it was told to abort, so a fixed one (it was -1)
    // stopped the warm-ups of a pane for good once any of its drawings had been aborted.
    const generation = this.nextGeneration(pane);
    this.warmUps = [];
    for (let k = 0; k < WARM_ROUNDS * PARTS; k++) this.warmUps.push({ type: 'draw', pane, content, generation, ...view, part: k % PARTS, parts: PARTS });
    this.dispatch();
  }

  private nextGeneration(pane: number): number {
    const g = (this.generation.get(pane) ?? 0) + 1;
    this.generation.set(pane, g);
    return g;
  }

  /**
   * Ends the warm-up: no further part is handed out, and the parts in progress are stopped (the
   * view moves: the cores are the motion's).
   */
  stopWarming(): void {
    this.warmUps = [];
    this.abortJobs('warm-up');
  }

  /** Tells each worker drawing a part of `key` (once) to stop it: its pane's generation, and older. */
  private abortJobs(key: string) {
    this.busy.forEach((job, n) => {
      if (job?.key !== key || job.aborting) return;
      job.aborting = true;
      this.post(this.workers[n], { type: 'abort', pane: job.pane, generation: job.generation });
    });
  }

  /** Forgets a pane (unmounted); its drawing in progress becomes stale. */
  drop(pane: number): void {
    this.contents.delete(pane);
    this.nextGeneration(pane);
    this.staleWhere((p) => p.pane === pane);
    for (const w of this.workers) this.post(w, { type: 'drop', pane });
  }

  /**
   * Ends the drawings whose `wanted()` has turned false (the view moved), at once: the parts in
   * progress are aborted (see staleWhere). For a caller that learns of motion before the pool
   * would next hand out a part.
   */
  dropUnwanted(): void {
    this.staleWhere((p) => !p.wanted());
  }

  /**
   * Ends the pending drawings `test` picks as stale, closing the parts they already have, and
   * tells the workers drawing their other parts to stop (raster.worker.ts checks between chunks):
   * a part nobody wants must not hold a core the motion's frames need.
   */
  private staleWhere(test: (p: Pending) => boolean) {
    for (const [k, p] of this.pending) {
      if (!test(p)) continue;
      this.pending.delete(k);
      for (const b of p.bitmaps) b?.close();
      p.resolve({ stale: true });
      this.abortJobs(k);
    }
  }

  /** Hands the next parts of the pending drawings, oldest first, to the idle workers. */
  private dispatch() {
    this.staleWhere((p) => !p.wanted());
    for (let n = 0; n < this.workers.length; n++) {
      if (this.busy[n]) continue;
      const entry = [...this.pending].find(([, p]) => p.next < p.parts.length);
      if (!entry) {
        // Not a pending drawing's key: receive() closes the bitmap and frees the worker.
        const w = this.pending.size === 0 ? this.warmUps.shift() : undefined;
        if (!w) return;
        this.busy[n] = { key: 'warm-up', part: w.part, pane: w.pane, generation: w.generation };
        this.post(this.workers[n], w);
        continue;
      }
      const [key, p] = entry;
      const part = p.next++;
      this.busy[n] = { key, part, pane: p.pane, generation: p.generation };
      this.post(this.workers[n], { type: 'draw', pane: p.pane, content: p.content, generation: p.generation, ...p.view, ...p.parts[part] });
    }
  }

  private post(w: Worker, m: RasterRequest, transfer: Transferable[] = []) {
    try {
      w.postMessage(m, transfer);
    } catch (e) {
      this.fail(`raster worker: ${(e as Error).message}`);
    }
  }

  private receive(n: number, m: RasterReply) {
    if (m.type === 'ready') {
      if (!m.ok) this.fail(`raster worker ${n}: ${m.why}`);
      else if (++this.ready === this.workers.length && this.state === 'starting') {
        clearTimeout(this.timer);
        this.state = 'ready';
        this.started();
      }
      return;
    }
    const job = this.busy[n];
    this.busy[n] = null;
    if (m.aborted && job?.key !== 'warm-up') this.aborted++;
    if (m.bitmap && job?.key === 'warm-up') this.warmed++;
    const key = `${m.pane}:${m.generation}`;
    const p = this.pending.get(key);
    if (!p || !job || job.key !== key) {
      // A result for an older generation (the view moved on, or the pane is gone), or a part
      // it stopped (aborted).
      m.bitmap?.close();
    } else if (!m.bitmap) {
      this.pending.delete(key);
      for (const b of p.bitmaps) b?.close();
      p.resolve({ failed: m.error ?? 'no bitmap' });
    } else {
      p.bitmaps[job.part] = m.bitmap;
      if (m.via) p.via = p.via && p.via !== m.via ? 'mixed' : m.via;
      if (--p.left === 0) {
        this.pending.delete(key);
        this.drawn++;
        p.resolve({ bitmaps: p.bitmaps as ImageBitmap[], via: p.via });
      }
    }
    this.dispatch();
  }

  private fail(why: string) {
    if (this.state === 'failed') return;
    this.state = 'failed';
    this.why = why;
    this.started();
    clearTimeout(this.timer);
    for (const p of this.pending.values()) {
      for (const b of p.bitmaps) b?.close();
      p.resolve({ failed: why });
    }
    this.pending.clear();
    for (const w of this.workers) w.terminate();
    this.workers = [];
    console.warn(`Benchlens: drawing on the main thread (${why})`);
  }
}

let pool: RasterPool | null = null;
let mainOnly = false;
let byTransfer = false;

/**
 * Test hook (the viewer harness's `#…&parts=transfer`): the workers send their parts by
 * transfer, as where a snapshot of a canvas fails (raster.worker.ts partBitmap), so that
 * fallback is tested in a browser that never needs it. Before the first pane.
 */
export function partsByTransfer(): void {
  byTransfer = true;
}

/**
 * Test hook (the viewer harness's `#…&raster=main`): every full-detail drawing is made on the
 * main thread, in slices, as when the workers cannot start.
 */
export function drawOnMainThreadOnly(): void {
  mainOnly = true;
}

/** The shared pool once its workers can draw; null before, when they cannot, or in main-only mode. */
export function rasterPool(): RasterPool | null {
  if (mainOnly || typeof Worker === 'undefined' || typeof OffscreenCanvas === 'undefined') return null;
  if (!pool) {
    const p = (pool = new RasterPool(rasterWorker, byTransfer));
    // Every pan / zoom input, as it is dispatched: a drawing it made useless stops at once.
    onMotionInput(() => {
      p.stopWarming();
      p.dropUnwanted();
    });
  }
  return pool.state === 'ready' ? pool : null;
}

/** Starts the workers (they take a moment to load); resolves with the pool once they can draw, or null. */
export async function rasterPoolReady(): Promise<RasterPool | null> {
  if (!rasterPool() && pool?.state === 'starting') await pool.settled;
  return rasterPool();
}
