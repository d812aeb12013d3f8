/**
 * A raster worker (rasterPool.ts starts two): holds each pane's packed shapes (packedScene.ts)
 * and draws one horizontal band of a view (one request = one band, bandRect) — or one rectangle
 * of it, a strip a pan exposed — into one of its OffscreenCanvases with the page's drawing code
 * (drawPlanned, the whole view's plan restricted to the shapes that reach it, rectPlan), in the
 * canvas's top-left corner (partCanvas.ts), then posts the pixels back as an ImageBitmap, a
 * snapshot of the canvas (partBitmap). The page puts each part at its place:
 * parts do not overlap, so that is the drawing of one canvas.
 *
 * A part is drawn in chunks of about CHUNK_MS, each rasterised before the next (a 2D canvas
 * only records calls; copying one of its pixels makes it rasterise them), with a turn of the
 * event loop in between, so an `abort` from the page (the view moved again: the part is no longer
 * wanted) stops it within one chunk. Measured in the viewer bench before: a drawing asked at a one-frame pause
 * in a gesture kept both cores busy for 65–95 ms after the gesture had resumed, and its frames
 * took 24 ms of main-thread time and came 65 ms apart.
 */
import { beginLabels, drawLabel, measureLabel, drawPlanned, type Ctx2D, type ShapePlan } from './draw';
import { placeLabels, type PlacedLabel } from './labels';
import { bandRect, packedLabelInputs, paddedRect, planPacked, planPackedLabels, rectPlan, unpackScene, type DeviceRect, type UnpackedScene } from './packedScene';
import type { RasterReply, RasterRequest } from './rasterProtocol';
import { chunkSize, rasteriseNow, rateSince } from './chunkedDrawing';
import { canvasSlot } from './partCanvas';

/**
 * Time one chunk of a part may take, drawing and rasterising (how soon an abort takes effect).
 * Measured (viewer bench, 12 runs of each ending each way, interleaved, 2026-12-02): 4 ms against
 * 8 — frames over 33 ms 50 against 61 in 24 runs, the longest frame median 42 against 46 ms at the
 * new-zoom ending; there, worker CPU median 95 against 106 ms and the redraw median 136 against
 * 155.5 ms. A part aborted by input lets go of its core sooner, and the extra chunks cost nothing
 * measurable (worker CPU went down, not up).
 * 2 ms measured no clearer (12 runs of each ending each way: frames over 33 ms 72 against 91 —
 * one run of the 4-ms build alone had 19 — and the new-zoom redraw median 145.5 against 141 ms).
 */
const CHUNK_MS = 4;

const scope = self as unknown as { postMessage(m: RasterReply, transfer?: Transferable[]): void; onmessage: ((e: MessageEvent<RasterRequest>) => void) | null };
/** A pane's shapes, and the plan of the drawing its parts come from. */
type PaneScene = { content: number; scene: UnpackedScene; plan?: { generation: number; plan: ShapePlan; labels: number[]; placed?: (PlacedLabel | null)[] } };
type DrawRequest = Extract<RasterRequest, { type: 'draw' }>;
const scenes = new Map<number, PaneScene>();
/**
 * The worker's canvases, least recently used first (canvasFor). Several, because a part's bitmap
 * is a snapshot sharing the canvas's pixels until the page closes it (after putting the whole
 * drawing in): a snapshot still held when its canvas is drawn on again is copied.
 */
const canvases: { canvas: OffscreenCanvas; ctx: OffscreenCanvasRenderingContext2D }[] = [];
/**
 * Canvases of one size a worker takes in turn (RING), and at most this many in all (MAX): a
 * worker draws 2 of a drawing's PARTS (rasterPool.ts) as a rule, 3 when the other is slow, and a
 * pan's strips, thinner than bands, get a canvas of their own.
 */
const RING = 3;
const MAX_CANVASES = 4;
/** Whether parts are sent as snapshots (createImageBitmap) or, where that fails, transferred. */
let snapshots = typeof createImageBitmap === 'function';

/** Parts are transferred from now on (a failed snapshot, or the page's `transfer` test hook), from one canvas: `keep`. */
function transferFrom(keep: (typeof canvases)[number] | undefined) {
  snapshots = false;
  canvases.splice(0, canvases.length, ...(keep ? [keep] : []));
}
/** Per pane, the newest generation the page has aborted: its parts, and older ones, stop. */
const aborted = new Map<number, number>();

function probe(): string {
  if (typeof OffscreenCanvas === 'undefined') return 'no OffscreenCanvas in workers';
  const c = new OffscreenCanvas(1, 1);
  if (!c.getContext('2d')) return 'no 2D context on an OffscreenCanvas';
  if (typeof c.transferToImageBitmap !== 'function') return 'no OffscreenCanvas.transferToImageBitmap';
  return '';
}

// A turn of the event loop (a MessageChannel: no timer clamping), in which an abort is received.
const turn = new MessageChannel();
const resumers: (() => void)[] = [];
turn.port1.onmessage = () => resumers.shift()?.();
const nextTurn = () =>
  new Promise<void>((resolve) => {
    resumers.push(resolve);
    turn.port2.postMessage(0);
  });

const wasAborted = (r: DrawRequest) => (aborted.get(r.pane) ?? -Infinity) >= r.generation;

async function draw(r: DrawRequest) {
  const s = scenes.get(r.pane);
  if (!s || s.content !== r.content) {
    scope.postMessage({ type: 'drawn', pane: r.pane, generation: r.generation, bitmap: null, error: 'no shapes for that content' });
    return;
  }
  // A band (every column of its rows) or a rectangle; the canvas holds it with BAND_PAD pixels
  // to spare on each side, which the page does not show, in its top-left corner (partCanvas.ts).
  const rect = r.rect ?? bandRect(r.w, r.h, r.part, r.parts, r.cuts);
  const [fx, fy, tx, ty] = paddedRect(rect, r.w, r.h);
  const w = tx - fx;
  const h = ty - fy;
  const slot = canvasFor(w, h);
  if (!slot) {
    scope.postMessage({ type: 'drawn', pane: r.pane, generation: r.generation, bitmap: null, error: 'no 2D context' });
    return;
  }
  const t0 = performance.now();
  const { canvas: c, ctx: g } = slot;
  g.save();
  let shapes: number | null;
  try {
    // Clipped to the part: nothing is drawn beyond it.
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, w, h);
    g.beginPath();
    g.rect(0, 0, w, h);
    g.clip();
    shapes = await drawPart(c, g, s, r, rect, [fx, fy, tx, ty], t0);
  } finally {
    g.restore();
  }
  if (shapes === null) return;
  const bitmap = await partBitmap(slot);
  scope.postMessage({ type: 'drawn', pane: r.pane, generation: r.generation, bitmap, ms: performance.now() - t0, shapes, of: shapes, via: snapshots ? 'snapshot' : 'transfer' }, [bitmap]);
  // A transferred bitmap took the canvas's buffer: the next one is made now, while the page
  // takes this part, rather than by the next part's first call. Only after a band: the next part
  // is then most likely a band of the same size; the strips a pan exposed differ in size, and a
  // resize would throw the buffer away (measured: panned endings median 58 against 39 ms).
  if (!snapshots && !r.rect) g.clearRect(0, 0, 1, 1);
}

/**
 * The canvas for a part of w×h pixels (partCanvas.ts canvasSlot; one only when parts are
 * transferred: the bitmap takes its buffer anyway), now the most recently used. Null without a
 * 2D context.
 */
function canvasFor(w: number, h: number) {
  const { index, size } = canvasSlot(canvases.map((s) => [s.canvas.width, s.canvas.height] as const), w, h, snapshots ? MAX_CANVASES : 1, snapshots ? RING : 1);
  if (index === canvases.length) {
    const canvas = new OffscreenCanvas(...size);
    const ctx = canvas.getContext('2d');
    if (!ctx) return null;
    canvases.push({ canvas, ctx });
  }
  const [slot] = canvases.splice(index, 1);
  if (slot.canvas.width !== size[0] || slot.canvas.height !== size[1]) [slot.canvas.width, slot.canvas.height] = size;
  canvases.push(slot);
  return slot;
}

/**
 * The part's pixels to send: a snapshot of the canvas (createImageBitmap), which shares its
 * buffer — the canvas keeps it, and a later part is drawn into the same memory once the page has
 * closed the bitmap. Why: a transferred bitmap (transferToImageBitmap) takes the buffer away,
 * and a new one took 4–12 ms a part on the bench's machine (up to 50 under load: fresh memory is
 * slow to come there) — in a V8 profile of the viewer bench, 21–36 ms of each worker's 77–150 ms
 * in the redraw at a new zoom. In a bare worker, a 1400×320 canvas's first call after a transfer
 * took a median 6–9 ms, after a snapshot 0.0 — and the snapshot 1.9 ms with two canvases in turn,
 * each bitmap closed by the page before its canvas came round again, but 7–10 ms on one canvas
 * whose last snapshot the page still held (a copy), hence the ring (canvasFor). Transferred
 * where a snapshot fails.
 */
async function partBitmap(slot: (typeof canvases)[number]): Promise<ImageBitmap> {
  if (snapshots) {
    try {
      return await createImageBitmap(slot.canvas);
    } catch {
      transferFrom(slot);
    }
  }
  // What the last chunk recorded is rasterised here.
  return slot.canvas.transferToImageBitmap();
}

/**
 * Draws rectangle `rect` of the view `r` asks for on `g` (cleared and clipped; its top-left pixel
 * is `part`'s, rect with its spare pixels): the shapes that reach it, then their labels. The
 * number of shapes drawn, or null when the part was aborted (replied there).
 */
async function drawPart(c: OffscreenCanvas, g: OffscreenCanvasRenderingContext2D, s: PaneScene, r: DrawRequest, rect: DeviceRect, part: DeviceRect, t0: number): Promise<number | null> {
  const [fx, fy] = part;
  // The transform Konva gives a layer at this view, as StaticDrawing.start sets it, moved by the
  // canvas's first column and row (whole device pixels, so every pixel gets the same value).
  const { scale, x, y } = r.transform;
  g.setTransform(r.pixelRatio * scale, 0, 0, r.pixelRatio * scale, r.pixelRatio * x - fx, r.pixelRatio * y - fy);
  // The parts of one drawing share its plan (one worker often draws several of them).
  if (s.plan?.generation !== r.generation) s.plan = { generation: r.generation, plan: planPacked(s.scene, r), labels: planPackedLabels(s.scene, r) };
  const labels = s.plan.labels;
  const plan = rectPlan(s.plan.plan, r.transform, r.pixelRatio, rect);
  // `shapes`: how many of the part's shapes were drawn when it stopped.
  const stopped = async (shapes: number) => {
    await nextTurn();
    if (!wasAborted(r)) return false;
    scope.postMessage({ type: 'drawn', pane: r.pane, generation: r.generation, bitmap: null, aborted: true, ms: performance.now() - t0, shapes, of: plan.count });
    return true;
  };
  if (await stopped(0)) return null;
  // Drawing a plan in several calls gives the same pixels as in one (drawPlanned), and so does
  // drawing labels in several.
  if (!(await inChunks(c, plan.count, 48, (from, to) => drawPlanned(g, plan, scale, from, to), stopped, labels.length > 0))) return null;
  // The labels of the view that reach this part, over its shapes (as drawLabelRange draws them
  // over the whole canvas's), in the same chunks: measuring a label's text the first time is
  // most of a label's cost, and the main thread used to pay it in the frames after a notch.
  if (labels.length > 0) {
    g.save();
    beginLabels(g, r.pixelRatio, fx, fy);
    // Every part places all the view's labels (placeLabels, as the page does), so each band
    // draws its share of one placement; made once per drawing on each worker.
    const placed = (s.plan.placed ??= placeLabels(packedLabelInputs(s.scene, labels, r.transform), (raw) => measureLabel(g, raw)));
    const drawn = await inChunks(c, labels.length, 32, (from, to) => {
      for (let k = from; k < to; k++) drawPackedLabel(g, s.scene, labels[k], placed[k], r.pixelRatio, part);
    }, () => stopped(plan.count));
    g.restore();
    if (!drawn) return null;
  }
  return plan.count;
}

/**
 * Draws items 0 … count with `draw(from, to)` in chunks of about CHUNK_MS, each rasterised and
 * followed by a turn of the event loop (`stopped(done)`: true when the part was aborted there),
 * the last one too only when `more` is drawn after them. A small probe first; later chunks are
 * sized from the rate this part has reached (one learnt from another part misled: a shape's cost
 * goes with its size on screen, i.e. with the zoom, and with what else the core is doing —
 * traced, first chunks of 17–38 ms). False when aborted.
 */
async function inChunks(c: OffscreenCanvas, count: number, probe: number, draw: (from: number, to: number) => void, stopped: (done: number) => Promise<boolean>, more = false): Promise<boolean> {
  let rate = 0;
  for (let next = 0; next < count; ) {
    const to = Math.min(count, next + chunkSize(rate, CHUNK_MS, probe));
    const c0 = performance.now();
    draw(next, to);
    if (to === count && !more) break;
    rasteriseNow(c);
    rate = rateSince(to - next, c0);
    next = to;
    if (await stopped(next)) return false;
  }
  return true;
}

/** Draws label `i` of `scene`, placed at `p`, if it reaches `rect` (device pixels, the part's canvas), as drawLabelRange would on the whole canvas. */
function drawPackedLabel(ctx: Ctx2D, scene: UnpackedScene, i: number, p: PlacedLabel | null, pr: number, rect: DeviceRect) {
  if (!p) return;
  // One pixel to spare each way: the text's antialiasing.
  if ((p.ly - 1) * pr >= rect[3] || (p.ly + p.h + 1) * pr <= rect[1]) return;
  if ((p.lx - 1) * pr >= rect[2] || (p.lx + p.width + 7) * pr <= rect[0]) return;
  drawLabel(ctx, p, scene.styles[scene.style[i]]);
}

scope.onmessage = (e) => {
  const m = e.data;
  if (m.type === 'content') scenes.set(m.pane, { content: m.content, scene: unpackScene(m.scene) });
  else if (m.type === 'drop') scenes.delete(m.pane);
  else if (m.type === 'transfer') transferFrom(canvases.at(-1));
  else if (m.type === 'abort') aborted.set(m.pane, Math.max(m.generation, aborted.get(m.pane) ?? -Infinity));
  // One part at a time: the pool sends a worker its next part only once the last is back.
  else if (m.type === 'draw') void draw(m);
};

const why = probe();
scope.postMessage({ type: 'ready', ok: why === '', why });
