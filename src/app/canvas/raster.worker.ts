/**
 * A raster worker (rasterPool.ts starts two): holds each pane's packed shapes (packedScene.ts)
 * and draws one horizontal band of a view (one request = one band, bandRect) — or one rectangle
 * of it, a strip a pan exposed — into its own OffscreenCanvas with the page's drawing code
 * (drawPlanned, the whole view's plan restricted to the shapes that reach it, rectPlan), then
 * posts the pixels back as a transferred ImageBitmap. The page puts each part at its place:
 * parts do not overlap, so that is the drawing of one canvas.
 */
import { drawPlanned, type ShapePlan } from './draw';
import { bandRect, paddedRect, planPacked, rectPlan, unpackScene, type UnpackedScene } from './packedScene';
import type { RasterReply, RasterRequest } from './rasterProtocol';

const scope = self as unknown as { postMessage(m: RasterReply, transfer?: Transferable[]): void; onmessage: ((e: MessageEvent<RasterRequest>) => void) | null };
const scenes = new Map<number, { content: number; scene: UnpackedScene; plan?: { generation: number; plan: ShapePlan } }>();
let canvas: OffscreenCanvas | null = null;
let ctx: OffscreenCanvasRenderingContext2D | null = null;

function probe(): string {
  if (typeof OffscreenCanvas === 'undefined') return 'no OffscreenCanvas in workers';
  const c = new OffscreenCanvas(1, 1);
  if (!c.getContext('2d')) return 'no 2D context on an OffscreenCanvas';
  if (typeof c.transferToImageBitmap !== 'function') return 'no OffscreenCanvas.transferToImageBitmap';
  return '';
}

function draw(r: Extract<RasterRequest, { type: 'draw' }>) {
  const s = scenes.get(r.pane);
  if (!s || s.content !== r.content) {
    scope.postMessage({ type: 'drawn', pane: r.pane, generation: r.generation, bitmap: null, error: 'no shapes for that content' });
    return;
  }
  if (!canvas) {
    canvas = new OffscreenCanvas(r.w, r.h);
    ctx = canvas.getContext('2d');
  }
  if (!ctx) {
    scope.postMessage({ type: 'drawn', pane: r.pane, generation: r.generation, bitmap: null, error: 'no 2D context' });
    return;
  }
  // A band (every column of its rows) or a rectangle; the canvas holds it with BAND_PAD pixels
  // to spare on each side, which the page does not show.
  const rect = r.rect ?? bandRect(r.w, r.h, r.part, r.parts, r.cuts);
  const [fx, fy, tx, ty] = paddedRect(rect, r.w, r.h);
  if (canvas.width !== tx - fx || canvas.height !== ty - fy) {
    canvas.width = tx - fx;
    canvas.height = ty - fy;
  }
  const t0 = performance.now();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  // The transform Konva gives a layer at this view, as StaticDrawing.start sets it, moved by the
  // canvas's first column and row (whole device pixels, so every pixel gets the same value).
  const { scale, x, y } = r.transform;
  ctx.setTransform(r.pixelRatio * scale, 0, 0, r.pixelRatio * scale, r.pixelRatio * x - fx, r.pixelRatio * y - fy);
  // The parts of one drawing share its plan (one worker often draws several of them).
  if (s.plan?.generation !== r.generation) s.plan = { generation: r.generation, plan: planPacked(s.scene, r) };
  drawPlanned(ctx, rectPlan(s.plan.plan, r.transform, r.pixelRatio, rect), scale);
  // The canvas only recorded the calls above (a few ms); rasterising them happens here.
  const bitmap = canvas.transferToImageBitmap();
  scope.postMessage({ type: 'drawn', pane: r.pane, generation: r.generation, bitmap, ms: performance.now() - t0 }, [bitmap]);
}

scope.onmessage = (e) => {
  const m = e.data;
  if (m.type === 'content') scenes.set(m.pane, { content: m.content, scene: unpackScene(m.scene) });
  else if (m.type === 'drop') scenes.delete(m.pane);
  // One part at a time: the pool sends a worker its next part only once the last is back.
  else if (m.type === 'draw') draw(m);
};

const why = probe();
scope.postMessage({ type: 'ready', ok: why === '', why });
