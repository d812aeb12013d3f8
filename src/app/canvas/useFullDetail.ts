/**
 * A pane's drawing strategy for pan and zoom, for Pane.tsx: the Konva layers carry `drawn`, the
 * view of the last finished full-detail drawing, and the stage's wrapper carries `motion`, the
 * CSS transform from `drawn` to the live view (undefined when they agree) — so while the view
 * moves, the compositor moves the finished canvases and nothing is drawn. Once the view has been
 * still for SETTLE_FRAMES (useSettledView), the full-detail drawing for it is made off screen —
 * its shapes by the raster workers (rasterPool.ts) or, where they cannot run, in main-thread
 * slices (staticDrawing.ts); at the zoom of the drawing on show, or of the one shown before it at
 * another zoom, that drawing moved by whole pixels plus the workers' drawing of what the move
 * exposed (shiftOf) — and shown, with `motion` cleared, in one commit, as soon as it is finished
 * if the view is still there by then (showDrawing.ts; otherwise it is dropped). New content (a
 * new case, a layer toggle) is drawn at once, on the main thread, instead.
 *
 * Measured with `npm run bench -- viewer` (displayed frames from a DevTools trace, software
 * raster): the former strategy, re-blitting a cached bitmap of the shapes and redrawing the image
 * every frame, showed 19–36 frames a second; see bench/README.md for the figures of this one.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type Konva from 'konva';
import type { PaneProps } from './Pane';
import type { ViewTransform } from './transform';
import { drawingAbandoned, drawingFinished, drawingStarted, SLICE_MS, StaticDrawing, type Drawing } from './staticDrawing';
import { motionEpoch, motionTransform, same, SETTLE_FRAMES, useSettledView } from './useSettledView';
import { showDrawing } from './showDrawing';
import { balancedCuts, centreRows, exposedRects, packScene, type DeviceRect } from './packedScene';
import { planLabels } from './draw';
import type { SceneItem } from './scene';
import { PARTS, rasterPool, rasterPoolReady, type RasterPool, type RasterView } from './rasterPool';
import { idleSteps } from './idle';

/**
 * What a pane draws (its props of the same names); `stats` receives what the shown drawing holds.
 * `prepare`: the pane's own share of a drawing for view `t` on a w×h device-pixel canvas, done on
 * the main thread while the raster workers draw the shapes (the image, preparedImage.ts); a stable
 * function.
 */
export type FullDetailInput = Pick<PaneProps, 'scene' | 'transform' | 'width' | 'height' | 'layers' | 'overlay' | 'colors' | 'stats' | 'updateTransform'> & {
  prepare?: (t: ViewTransform, pixelRatio: number, w: number, h: number) => void;
};

const nativeCtx = (c: Konva.Context) => (c as unknown as { _context: CanvasRenderingContext2D })._context;

// Panes and contents are numbered for the raster workers, which keep each pane's shapes.
let panes = 0;
let contents = 0;

/** A drawing kept that a view at its zoom may reuse: of this content, and without labels (a label may cross the seam). */
const reusable = (cur: Drawing | null | undefined, content: unknown): cur is Drawing => !!cur && cur.content === content && cur.labels === 0;

/**
 * When a drawing kept (the one on show, or the one before it at another zoom: StaticDrawing
 * `previous`) can be reused for view `t`: reusable, same zoom, offset by whole device pixels
 * (settleAt makes it so), no labels at `t` either (they are drawn over the whole view, which the
 * kept part would lack), and some of it still in view. Then the new drawing is that one moved by
 * (dx, dy), and the workers draw only `rects`, what the move exposed. The first of `kept` that
 * can be reused.
 */
function shiftOf(kept: readonly (Drawing | null)[], t: ViewTransform, content: unknown, view: RasterView, labelsAtT: () => boolean): { from: Drawing; dx: number; dy: number; rects: DeviceRect[] } | null {
  for (const cur of kept) {
    if (!reusable(cur, content) || cur.t.scale !== t.scale || labelsAtT()) continue;
    const fx = (t.x - cur.t.x) * view.pixelRatio;
    const fy = (t.y - cur.t.y) * view.pixelRatio;
    const dx = Math.round(fx);
    const dy = Math.round(fy);
    if (Math.abs(fx - dx) > 1e-6 || Math.abs(fy - dy) > 1e-6 || cur.canvas.width !== view.w || cur.canvas.height !== view.h) continue;
    const rects = exposedRects(view.w, view.h, dx, dy);
    if (rects) return { from: cur, dx, dy, rects };
  }
  return null;
}

/** The drawings a view may reuse (shiftOf), the one on show first. */
const keptDrawings = (d: StaticDrawing | null): (Drawing | null)[] => [d?.shown ?? null, d?.previous ?? null];

export function useFullDetail({ scene, transform, width, height, layers, overlay, colors, stats, updateTransform, prepare }: FullDetailInput) {
  // A new identity whenever what is drawn (not where) changes. Not the image: the image layer
  // draws it (Pane.tsx), and an image decoded after its case's shapes were first drawn — as the
  // app's always is — must not draw them all again at once on the main thread, nor pack and send
  // them to the raster workers and warm those up a second time.
  const content = useMemo(() => ({ scene, width, height, layers, overlay, colors }), [scene, width, height, layers, overlay, colors]);
  const staticLayer = useRef<Konva.Layer>(null);
  const drawing = useRef<StaticDrawing | null>(null);
  // The view a drawing for `t` covers: the pane in CSS pixels, the static layer's canvas in device pixels.
  const viewAt = useCallback(
    (t: ViewTransform): RasterView => {
      const layerCanvas = staticLayer.current?.getCanvas();
      const pr = layerCanvas?.getPixelRatio() ?? window.devicePixelRatio ?? 1;
      return { transform: t, width, height, pixelRatio: pr, w: layerCanvas?._canvas.width ?? Math.floor(width * pr), h: layerCanvas?._canvas.height ?? Math.floor(height * pr) };
    },
    [width, height],
  );
  // A view that comes to rest at the zoom of the drawing on show — or of the one before it, kept
  // — is moved to the nearest whole device pixel of its offset from it (half a pixel at most):
  // that drawing, moved, is then most of the new one, and the raster workers draw only what the
  // pan exposed (see shiftOf).
  const settleAt = useCallback(
    (t: ViewTransform): ViewTransform => {
      const cur = keptDrawings(drawing.current).find((c) => reusable(c, content) && Math.abs(t.scale - c.t.scale) <= 1e-9 * c.t.scale);
      if (!cur || !rasterPool()) return t;
      // The pixels of the canvas shiftOf moves (its pixel ratio), not those of the screen.
      const pr = viewAt(t).pixelRatio;
      const at = { scale: cur.t.scale, x: cur.t.x + Math.round((t.x - cur.t.x) * pr) / pr, y: cur.t.y + Math.round((t.y - cur.t.y) * pr) / pr };
      if (!same(at, t)) updateTransform(() => at);
      return at;
    },
    [content, updateTransform, viewAt],
  );
  // The view the drawing should reach: `transform` once it has stood still (useSettledView).
  const target = useSettledView(transform, content, settleAt);
  const [shown, setShown] = useState<Drawing | null>(null);
  const [paneKey] = useState(() => ++panes);
  const contentNo = useMemo(() => (void content, ++contents), [content]);
  // The workers get the shapes once per content: soon after it is first drawn (at once, here),
  // or at the latest with the first view change.
  const sendContent = useCallback(
    (pool: RasterPool) => {
      if (!pool.hasContent(paneKey, contentNo)) pool.setContent(paneKey, contentNo, packScene(scene.items, layers, overlay, colors));
    },
    [paneKey, contentNo, scene, layers, overlay, colors],
  );
  // The live view, for the warm-up drawing and for a drawing on hold (below), which restarts
  // only while the view is at its target.
  const live = useRef(transform);
  useLayoutEffect(() => {
    live.current = transform;
  });

  useEffect(() => {
    let alive = true;
    // Once the workers can draw: the shapes, and a warm-up drawing thrown away (RasterPool.warm).
    void rasterPoolReady().then((pool) => {
      if (!alive || !pool) return;
      sendContent(pool);
      pool.warm(paneKey, contentNo, viewAt(live.current));
    });
    return () => {
      alive = false;
    };
  }, [sendContent, paneKey, contentNo, viewAt]);
  useEffect(() => () => rasterPool()?.drop(paneKey), [paneKey]);
  // The view the canvases show: that of the last finished drawing (the target until the first).
  const drawn = shown && shown.content === content ? shown.t : target;
  // While moving, the compositor scales the canvases without filtering (image-rendering:
  // pixelated): bilinear filtering of two pane-sized canvases is most of a software frame.
  const motion = motionTransform(drawn, transform);

  // A full-detail drawing for the target view: at once for new content (a new case or layer
  // toggle must not show the old drawing), in slices for a new view (see staticDrawing.ts).
  useLayoutEffect(() => {
    const d = (drawing.current ??= new StaticDrawing());
    const cur = d.shown;
    if (cur && cur.content === content && cur.t === target) return;
    const view = viewAt(target);
    const opts = { transform: target, width, height, pixelRatio: view.pixelRatio, layers, overlay, colors };
    // The labels at the target, planned once: for shiftOf (only when a shift is possible) and the drawing.
    let labels: SceneItem[] | undefined;
    const shift = shiftOf(keptDrawings(d), target, content, view, () => (labels ??= planLabels(scene.items, opts)).length > 0);
    const begin = () => d.start(scene.items, opts, view.w, view.h, content, labels);
    const finish = (r: Drawing) => {
      for (const k of Object.keys(stats)) delete stats[k];
      Object.assign(stats, r.stats);
      d.accept(r);
      setShown(r);
      // The next drawing's canvas gets its pixel buffer while the page is idle, not in the frame
      // that starts that drawing (StaticDrawing.prepareSpare).
      idleSteps(() => d.prepareSpare(view.w, view.h));
    };
    if (!cur || cur.content !== content) {
      begin();
      const r = d.step(Infinity);
      if (r) finish(r);
      return;
    }
    drawingStarted(d);
    // Slices run back to back as tasks (a MessageChannel), so the browser can hand over input
    // and draw a frame between any two of them, and the drawing takes the idle main thread.
    // Moving again puts it on hold (its slices would only slow the motion's frames) and starts
    // it over once the view has been still for SETTLE_FRAMES; a view that really moved
    // replaces this effect (and the drawing) before that.
    // With the raster workers (rasterPool.ts), the shapes and their labels are drawn there
    // instead, and a result that arrives after the view moved again is dropped; the main thread
    // only composites the parts. (It drew the labels in slices after that until 2026-12-03: at
    // the bench's zoomed-in views slices of 9–12 ms, most of it measuring new label texts, ran
    // in the frames right after a wheel notch. With the workers drawing them, real X input, 8
    // interleaved runs of each ending: redraw median 66.5 ms against 70 at a new zoom, 67
    // against 86.5 panned.)
    let alive = true;
    let since = motionEpoch();
    let hold = 0;
    let frame = 0;
    // A worker drawing is under way (the slices wait for it).
    let waiting = false;
    const ch = new MessageChannel();
    const moved = () => {
      if (motionEpoch() === since) return false;
      since = motionEpoch();
      hold = SETTLE_FRAMES;
      return true;
    };
    const waitStill = () => {
      frame = 0;
      if (!alive) return;
      moved();
      if (--hold > 0) frame = requestAnimationFrame(waitStill);
      else ch.port2.postMessage(0);
    };
    // Sends the request before the main thread's own share (begin: the plan for the stats and
    // labels, the canvas), so the workers start a few ms sooner.
    const askWorkers = (): boolean => {
      const pool = rasterPool();
      if (!pool) return false;
      sendContent(pool);
      waiting = true;
      const at = motionEpoch();
      // Trace marks (DevTools, the viewer bench): a request to the workers, and its fate.
      console.timeStamp('benchlens:raster-request');
      // A drawing the motion has made useless stops at once (the pool hears of every input): the
      // parts in hand within a chunk (raster.worker.ts), and no further part is handed out.
      const wanted = () => alive && motionEpoch() === at;
      // Bands of about equal numbers of shapes, so both workers finish at about the same time.
      const cuts = shift ? undefined : balancedCuts(centreRows(scene.items, { transform: target, width, height, layers, pixelRatio: view.pixelRatio }), view.h, PARTS);
      // Both workers at once. (A drawing used to start on one worker and take the second only
      // after one more frame without motion, so that a one-frame pause mid-gesture would not
      // take both cores; since input stops the parts in progress within a chunk, that cost the
      // redraw a frame of one core for nothing — interleaved viewer bench, new zoom, with the
      // warm-up: redraw 114–152 ms, median 132, over 10 runs with it, 101–136, median 122, over
      // 6 without; frames over 33 ms 5.9 and 5.0 a run.)
      // Nor do they leave the frames around the next wheel notch to the page any more. From the
      // second to the fifth session of 2026-12-04, a drawing asked within 100 ms of a notch
      // skipped the first 6 ms after each vsync within ±12 ms of when the next notch was due:
      // with notches as jumps, the frame showing that notch was most of the dropped frames, and
      // the waits cut them (x11, 54 runs: 25 against 41) for 13 ms of the redraw at a new zoom
      // (median 85 against 72). Since notches glide on the compositor (glide.ts), a notch's frame
      // waiting for a core no longer shows as a gap, and the waits bought nothing: x11, 2 sets of
      // 3 invocations × 3 runs of each ending, interleaved, 36 runs each, 18 frames over 33 ms
      // (11 dropped) without them against 21 (10) with; redraw at a new zoom median 82 and 84 ms
      // (71–108) against 99 and 103 (82–121).
      const asked = shift ? pool.drawRects(paneKey, contentNo, view, shift.rects, wanted) : pool.draw(paneKey, contentNo, { ...view, cuts }, wanted);
      // The pane's share while they draw, in a task of its own: input that came meanwhile has
      // then made the drawing unwanted, and nothing is drawn for it.
      if (prepare)
        setTimeout(() => {
          if (wanted()) prepare(target, view.pixelRatio, view.w, view.h);
        }, 0);
      void asked.then((r) => {
        waiting = false;
        if ('stale' in r && alive) console.timeStamp('benchlens:raster-dropped');
        if ('bitmaps' in r) {
          // Shown only for a view still at rest since the request; otherwise dropped, and
          // the drawing starts over once the view is still again.
          if (alive && d.pending && motionEpoch() === at) {
            if (shift) d.compositeShifted(shift.from, shift.dx, shift.dy, r.bitmaps, shift.rects, r.via);
            else d.composite(r.bitmaps, cuts, r.via);
          } else {
            console.timeStamp('benchlens:raster-dropped');
            for (const b of r.bitmaps) b.close();
          }
        }
        // A failed worker drawing leaves the shapes to the slices.
        if (alive) ch.port2.postMessage(0);
      });
      return true;
    };
    ch.port1.onmessage = () => {
      if (!alive || waiting) return;
      if (moved()) {
        d.cancel();
        frame = requestAnimationFrame(waitStill);
        return;
      }
      if (!d.pending) {
        // The view moved on: it gets a new target once still, which replaces this effect. Until
        // then nothing is drawn for this (old) target — a worker drawing of it would delay the
        // new one — unless the view comes back to it.
        if (!same(live.current, target)) {
          hold = 1;
          frame = requestAnimationFrame(waitStill);
          return;
        }
        const asked = askWorkers();
        begin();
        if (asked) return;
      }
      const r = d.step(SLICE_MS);
      if (!r) {
        ch.port2.postMessage(0);
        return;
      }
      // Shown at once if the view is still where it was drawn for (showDrawing.ts); otherwise
      // dropped, and drawn again once the view is still.
      const at = since;
      drawingFinished(d, () =>
        showDrawing({
          wanted: () => alive && motionEpoch() === at,
          show: () => finish(r),
          dropped: () => {
            if (!alive) return;
            console.timeStamp('benchlens:raster-dropped');
            frame = requestAnimationFrame(waitStill);
          },
          stage: () => staticLayer.current?.getStage() ?? null,
        }),
      );
    };
    const asked = askWorkers();
    begin();
    if (!asked) ch.port2.postMessage(0);
    return () => {
      alive = false;
      // Its worker drawing, if any, is no longer wanted: stopped now, not when the pool next looks.
      rasterPool()?.dropUnwanted();
      cancelAnimationFrame(frame);
      ch.port1.close();
      d.cancel();
      drawingAbandoned(d);
    };
  }, [target, content, scene, width, height, layers, overlay, colors, stats, paneKey, contentNo, sendContent, viewAt, prepare]);

  // Konva calls this when the static layer's props change, i.e. when `shown` does: a copy.
  const drawStatic = useCallback(
    (c: Konva.Context) => {
      if (!shown || shown.content !== content) return;
      const ctx = nativeCtx(c);
      ctx.save();
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.drawImage(shown.canvas, 0, 0);
      ctx.restore();
      // For tests: who drew the shapes on show (Drawing['by']: 'at once', 'slices', 'workers' or 'shifted'), how many labels it holds, and how many drawings this layer has shown.
      ctx.canvas.dataset.drawnBy = shown.by;
      ctx.canvas.dataset.labels = String(shown.labels);
      // …and how the workers' parts came (raster.worker.ts partBitmap: 'snapshot', 'transfer').
      ctx.canvas.dataset.partsVia = shown.via ?? '';
      ctx.canvas.dataset.shows = String(Number(ctx.canvas.dataset.shows ?? 0) + 1);
      // Read by the viewer bench from a DevTools trace: the full-detail drawing goes on screen.
      console.timeStamp('benchlens:full-draw');
    },
    [shown, content],
  );
  return { drawn, motion, drawStatic, staticLayer };
}
