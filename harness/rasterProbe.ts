/**
 * For e2e tests: a raster worker of its own (not the viewer's pool), driven message by message,
 * to see what it does with an abort. Draws the fixture's whole view as one part and tells the
 * worker to abort it: at once (the abort right behind the request), and once the worker is
 * under way (a few ms later); then asks for the same part again and lets it finish.
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
}

export async function probeRasterAbort(fx: Fixture): Promise<{ atOnce: ProbeReply; underWay: ProbeReply; whole: ProbeReply; olderAbort: ProbeReply }> {
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
  const summary = (m: RasterReply): ProbeReply => {
    if (m.type !== 'drawn') throw new Error(`unexpected reply ${m.type}`);
    const r = { bitmap: !!m.bitmap, aborted: !!m.aborted, width: m.bitmap?.width ?? 0, height: m.bitmap?.height ?? 0, ms: m.ms ?? NaN, shapes: m.shapes ?? NaN, of: m.of ?? NaN };
    m.bitmap?.close();
    return r;
  };
  try {
    const ready = await next();
    if (ready.type !== 'ready' || !ready.ok) throw new Error(`the raster worker cannot draw: ${JSON.stringify(ready)}`);
    const scene = packScene(buildScene(fx.views.map((v, index) => ({ ...v, index })), fx.benchmark).items, ALL_LAYERS, false);
    post({ type: 'content', pane: 1, content: 1, scene }, packedBuffers(scene));
    // The whole image in view, every shape in one part (the longest part there can be).
    const view = { transform: { scale: 0.26, x: 180, y: 60 }, width: 1400, height: 900, pixelRatio: 1, w: 1400, h: 900 };
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
    w.terminate();
  }
}
