/**
 * The page's two raster workers (raster.worker.ts), shared by all panes: a full-detail drawing
 * for a new view is split in two halves of the plan, one per worker, drawn at the same time on
 * the machine's cores, and composited in order on the main thread (StaticDrawing.composite).
 *
 * Measured in software-rasterised Chromium (1400×900, 5,000 polygons): the whole drawing takes
 * 80–90 ms on the main thread, 85–113 ms in one worker (with the bitmap's transfer and copy),
 * 54–70 ms as two halves in two workers.
 *
 * Until both workers have said they can draw (OffscreenCanvas with a 2D context and
 * transferToImageBitmap in a worker), or if one fails, rasterPool() is null and panes draw on
 * the main thread in slices as before.
 */
import { rasterWorker } from '../../worker/spawn';
import { packedBuffers, type PackedScene } from './packedScene';
import type { RasterReply, RasterRequest } from './rasterProtocol';
import type { ViewTransform } from './transform';

/** Halves of the plan, one per worker. */
export const PARTS = 2;
/** A worker that has not said it can draw by then counts as failed. */
const READY_TIMEOUT_MS = 10_000;

export interface RasterView {
  transform: ViewTransform;
  width: number;
  height: number;
  pixelRatio: number;
  /** Canvas size in device pixels. */
  w: number;
  h: number;
}

/** A pooled drawing's outcome: the parts in plan order, or why there are none. */
export type RasterResult = { bitmaps: ImageBitmap[] } | { stale: true } | { failed: string };

type Pending = { bitmaps: (ImageBitmap | null)[]; left: number; resolve(r: RasterResult): void };

export class RasterPool {
  state: 'starting' | 'ready' | 'failed' = 'starting';
  why = '';
  /** Drawings finished by the workers (a test hook). */
  drawn = 0;
  private workers: Worker[] = [];
  private ready = 0;
  private timer: ReturnType<typeof setTimeout>;
  private generation = new Map<number, number>();
  private pending = new Map<string, Pending>();
  private contents = new Map<number, number>();

  constructor(spawn: (n: number) => Worker) {
    this.timer = setTimeout(() => this.fail('the raster workers did not start'), READY_TIMEOUT_MS);
    try {
      for (let n = 0; n < PARTS; n++) {
        const w = spawn(n);
        w.onmessage = (e: MessageEvent<RasterReply>) => this.receive(n, e.data);
        w.onerror = (e) => {
          e.preventDefault?.();
          this.fail(`raster worker ${n}: ${e.message || 'failed to start'}`);
        };
        this.workers.push(w);
      }
    } catch (e) {
      this.fail(`raster workers: ${(e as Error).message}`);
    }
  }

  /** Whether the workers hold the pane's shapes of content number `content`. */
  hasContent(pane: number, content: number): boolean {
    return this.contents.get(pane) === content;
  }

  /** Sends the pane's shapes to both workers (the first gets a copy, the second the original). */
  setContent(pane: number, content: number, scene: PackedScene): void {
    if (this.state === 'failed') return;
    this.contents.set(pane, content);
    this.workers.forEach((w, n) => {
      const s = n < this.workers.length - 1 ? { ...scene, style: scene.style.slice(), coords: scene.coords.slice(), offsets: scene.offsets.slice(), bounds: scene.bounds.slice() } : scene;
      this.post(w, { type: 'content', pane, content, scene: s }, packedBuffers(s));
    });
  }

  /**
   * Draws the pane's shapes of `content` at `view`, half in each worker. A newer request for the
   * same pane makes this one stale (its bitmaps are closed when they arrive).
   */
  draw(pane: number, content: number, view: RasterView): Promise<RasterResult> {
    if (this.state !== 'ready') return Promise.resolve({ failed: this.why || 'the raster workers are not ready' });
    const generation = (this.generation.get(pane) ?? 0) + 1;
    this.generation.set(pane, generation);
    for (const [k, p] of this.pending) {
      if (k.startsWith(`${pane}:`)) {
        this.pending.delete(k);
        p.resolve({ stale: true });
      }
    }
    return new Promise((resolve) => {
      this.pending.set(`${pane}:${generation}`, { bitmaps: this.workers.map(() => null), left: this.workers.length, resolve });
      this.workers.forEach((w, part) => this.post(w, { type: 'draw', pane, content, generation, ...view, part, parts: this.workers.length }));
    });
  }

  /** Forgets a pane (unmounted); its drawing in progress becomes stale. */
  drop(pane: number): void {
    this.contents.delete(pane);
    this.generation.set(pane, (this.generation.get(pane) ?? 0) + 1);
    for (const [k, p] of this.pending) {
      if (k.startsWith(`${pane}:`)) {
        this.pending.delete(k);
        p.resolve({ stale: true });
      }
    }
    for (const w of this.workers) this.post(w, { type: 'drop', pane });
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
      }
      return;
    }
    const key = `${m.pane}:${m.generation}`;
    const p = this.pending.get(key);
    if (!p) {
      // A result for an older generation (the view moved on, or the pane is gone).
      m.bitmap?.close();
      return;
    }
    if (!m.bitmap) {
      this.pending.delete(key);
      for (const b of p.bitmaps) b?.close();
      p.resolve({ failed: m.error ?? 'no bitmap' });
      return;
    }
    p.bitmaps[n] = m.bitmap;
    if (--p.left > 0) return;
    this.pending.delete(key);
    this.drawn++;
    p.resolve({ bitmaps: p.bitmaps as ImageBitmap[] });
  }

  private fail(why: string) {
    if (this.state === 'failed') return;
    this.state = 'failed';
    this.why = why;
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
  pool ??= new RasterPool(rasterWorker);
  return pool.state === 'ready' ? pool : null;
}

/** Starts the workers early (they take a moment to load), so the first view change can use them. */
export function warmRasterPool(): void {
  rasterPool();
}
