/**
 * For e2e tests: a raster worker of its own (not the viewer's pool), driven message by message,
 * to see what it does with an abort (probeRasterAbort), and that a part's bitmap, a snapshot of
 * one of the worker's canvases, keeps its pixels while the worker draws on (probeSnapshots).
 */
import { ALL_LAYERS } from '../src/app/canvas/draw';
import { packedBuffers, packScene } from '../src/app/canvas/packedScene';
import type { RasterReply, RasterRequest } from '../src/app/canvas/rasterProtocol';
import { buildScene } from '../src/app/canvas/scene';
import { rasterWorker } from '../src/worker/spawn';
import type { Fixture } from './fixtures';

/** What a worker replied to one draw request. */
export interface ProbeReply {
  bitmap: boolean;
  aborted: boolean;
  width: number;
  height: number;
  ms: number;
  /** Shapes drawn of the part's `of`. */
  shapes: number;
  of: number;
  via: string;
}

/** A raster worker started for a probe, with the fixture's shapes as pane 1's content 1. */
async function probeWorker(fx: Fixture) {
  const w = rasterWorker(99);
  const replies: RasterReply[] = [];
  const waiters: (() => void)[] = [];
  w.onmessage = (e: MessageEvent<RasterReply>) => {
    replies.push(e.data);
    waiters.shift()?.();
  };
  const next = async (): Promise<RasterReply> => {
    if (replies.length === 0) await new Promise<void>((r) => waiters.push(r));
    return replies.shift()!;
  };
  const post = (m: RasterRequest, transfer: Transferable[] = []) => w.postMessage(m, transfer);
  const ready = await next();
  if (ready.type !== 'ready' || !ready.ok) {
    w.terminate();
    throw new Error(`the raster worker cannot draw: ${JSON.stringify(ready)}`);
  }
  const scene = packScene(buildScene(fx.views.map((v, index) => ({ ...v, index })), fx.benchmark).items, ALL_LAYERS, false);
  post({ type: 'content', pane: 1, content: 1, scene }, packedBuffers(scene));
  return { next, post, terminate: () => w.terminate() };
}

/** The reply to a draw request; its bitmap is closed, or added to `keep`. */
function summary(m: RasterReply, keep?: ImageBitmap[]): ProbeReply {
  if (m.type !== 'drawn') throw new Error(`unexpected reply ${m.type}`);
  const r = { bitmap: !!m.bitmap, aborted: !!m.aborted, width: m.bitmap?.width ?? 0, height: m.bitmap?.height ?? 0, ms: m.ms ?? NaN, shapes: m.shapes ?? NaN, of: m.of ?? NaN, via: m.via ?? '' };
  if (m.bitmap && keep) keep.push(m.bitmap);
  else m.bitmap?.close();
  return r;
}

/** The whole image in view, every shape in one part (the longest part there can be). */
const WHOLE = { transform: { scale: 0.26, x: 180, y: 60 }, width: 1400, height: 900, pixelRatio: 1, w: 1400, h: 900 };

/**
 * Draws the fixture's whole view as one part and tells the worker to abort it: at once (the
 * abort right behind the request), and once the worker is under way (a few ms later); then asks
 * for the same part again and lets it finish.
 */
export async function probeRasterAbort(fx: Fixture): Promise<{ atOnce: ProbeReply; underWay: ProbeReply; whole: ProbeReply; olderAbort: ProbeReply }> {
  const { next, post, terminate } = await probeWorker(fx);
  const view = WHOLE;
  try {
    post({ type: 'draw', pane: 1, content: 1, generation: 1, ...view, part: 0, parts: 1 });
    post({ type: 'abort', pane: 1, generation: 1 });
    const atOnce = summary(await next());
    // Under way: the abort comes while the worker sets the part up or draws its chunks.
    post({ type: 'draw', pane: 1, content: 1, generation: 2, ...view, part: 0, parts: 1 });
    await new Promise((r) => setTimeout(r, 20));
    post({ type: 'abort', pane: 1, generation: 2 });
    const underWay = summary(await next());
    post({ type: 'draw', pane: 1, content: 1, generation: 3, ...view, part: 0, parts: 1 });
    const whole = summary(await next());
    // An abort of an older generation does not stop a newer drawing.
    post({ type: 'draw', pane: 1, content: 1, generation: 4, ...view, part: 0, parts: 1 });
    post({ type: 'abort', pane: 1, generation: 3 });
    const olderAbort = summary(await next());
    return { atOnce, underWay, whole, olderAbort };
  } finally {
    terminate();
  }
}

/** Pixels (RGBA) of the top-left w×h of a bitmap. */
function pixelsOf(b: ImageBitmap, w: number, h: number): Uint8ClampedArray {
  const c = new OffscreenCanvas(w, h);
  const g = c.getContext('2d')!;
  g.drawImage(b, 0, 0);
  return g.getImageData(0, 0, w, h).data;
}

/** Pixels that differ between two RGBA arrays of the same size. */
function differing(a: Uint8ClampedArray, b: Uint8ClampedArray): number {
  let n = 0;
  for (let i = 0; i < a.length; i += 4) if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2] || a[i + 3] !== b[i + 3]) n++;
  return n;
}

/**
 * Draws the whole view and keeps its bitmap open (as the page does until every part of a drawing
 * is in) while the worker draws `others` parts of another view — more than it has canvases, so
 * it draws on the kept bitmap's canvas again — then the first view once more. `kept`: pixels of
 * the kept bitmap that differ from that last drawing (0: its snapshot kept its pixels);
 * `other`: pixels that differ between the two views (a check that could fail).
 */
export async function probeSnapshots(fx: Fixture, others = 6): Promise<{ first: ProbeReply; again: ProbeReply; kept: number; other: number }> {
  const { next, post, terminate } = await probeWorker(fx);
  const elsewhere = { ...WHOLE, transform: { scale: 0.4, x: -200, y: -100 } };
  const { w, h } = WHOLE;
  // The kept bitmaps: the first view's, the other view's first, the first view's again.
  const open: ImageBitmap[] = [];
  try {
    post({ type: 'draw', pane: 1, content: 1, generation: 1, ...WHOLE, part: 0, parts: 1 });
    const first = summary(await next(), open);
    for (let k = 0; k < others; k++) {
      post({ type: 'draw', pane: 1, content: 1, generation: 2 + k, ...elsewhere, part: 0, parts: 1 });
      summary(await next(), k === 0 ? open : undefined);
    }
    post({ type: 'draw', pane: 1, content: 1, generation: 2 + others, ...WHOLE, part: 0, parts: 1 });
    const again = summary(await next(), open);
    const [firstPixels, otherPixels, againPixels] = open.map((b) => pixelsOf(b, w, h));
    return { first, again, kept: differing(firstPixels, againPixels), other: differing(firstPixels, otherPixels) };
  } finally {
    for (const b of open) b.close();
    terminate();
  }
}
