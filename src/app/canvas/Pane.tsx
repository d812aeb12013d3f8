/**
 * One canvas pane: three Konva layers (image; every static shape in ONE custom Shape; the
 * hovered / selected highlight), none of them listening — pointer input is handled on the
 * container and hit-tested with hitTest.ts once per animation frame.
 *
 * While the view only moves (pan, zoom), nothing is drawn: the last drawing is moved by the
 * compositor and drawn again at full detail once the motion pauses (useFullDetail). The image
 * layer draws a pre-scaled copy when zoomed out (a mip level).
 */
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type Konva from 'konva';
import { Image as KImage, Layer, Shape, Stage } from 'react-konva';
import { drawHighlight, type LayerToggles } from './draw';
import type { SpatialIndex } from './hitTest';
import type { Scene, SceneItem } from './scene';
import { isVisible } from './draw';
import { panBy, toImage, type ViewTransform } from './transform';
import { useWheelZoom } from './useWheelZoom';
import { useFullDetail } from './useFullDetail';
import { rasteriseNow } from './staticDrawing';

/** Applies a view change; `deferred`: tell the view's readers at the next animation frame. */
export type TransformUpdate = (fn: (t: ViewTransform) => ViewTransform, deferred?: boolean) => void;

export interface PaneProps {
  pane: number;
  scene: Scene;
  index: SpatialIndex<SceneItem>;
  image: CanvasImageSource | null;
  transform: ViewTransform;
  width: number;
  height: number;
  layers: LayerToggles;
  overlay: boolean;
  /** Overlay colour per view (model). */
  colors?: readonly string[];
  highlight: readonly SceneItem[];
  /** Receives what the last frame drew, by "side:state". */
  stats: Record<string, number>;
  updateTransform: TransformUpdate;
  onHover(pane: number, key: number, sx: number, sy: number): void;
  onPick(pane: number, key: number): void;
  registerStage(pane: number, stage: Konva.Stage | null): void;
}

/** Pre-scaled copies of the image (1/2, 1/4, …) so a zoomed-out view never resamples 12 MP per frame. */
function useMipLevels(image: CanvasImageSource | null): { image: CanvasImageSource; factor: number }[] {
  const [levels, setLevels] = useState<{ source: CanvasImageSource | null; list: { image: CanvasImageSource; factor: number }[] }>({ source: null, list: [] });
  useEffect(() => {
    if (!image || !(image instanceof ImageBitmap)) return;
    let alive = true;
    const made: ImageBitmap[] = [];
    (async () => {
      const list: { image: CanvasImageSource; factor: number }[] = [];
      for (let f = 2; image.width / f >= 256 && image.height / f >= 256 && f <= 16; f *= 2) {
        try {
          const bmp = await createImageBitmap(image, { resizeWidth: Math.round(image.width / f), resizeHeight: Math.round(image.height / f), resizeQuality: 'medium' });
          if (!alive) {
            // The image changed meanwhile: this copy is nobody's.
            bmp.close();
            return;
          }
          made.push(bmp);
          list.push({ image: bmp, factor: f });
        } catch {
          break;
        }
      }
      if (alive) setLevels({ source: image, list });
    })();
    return () => {
      alive = false;
      for (const b of made) b.close();
    };
  }, [image]);
  return levels.source === image ? levels.list : [];
}

const nativeCtx = (c: Konva.Context) => (c as unknown as { _context: CanvasRenderingContext2D })._context;
const ratioOf = (shape: Konva.Shape) => shape.getLayer()?.getCanvas().getPixelRatio() ?? 1;

/** Pixels of pointer movement below which a press counts as a click, not a drag. */
const CLICK_SLOP = 4;

export const Pane = memo(function Pane(p: PaneProps) {
  const { pane, scene, index, transform, width, height, layers, overlay, colors, stats, updateTransform, onHover, onPick, registerStage } = p;
  const box = useRef<HTMLDivElement>(null);
  // Latest values for the native listeners and the per-frame hit test.
  const live = useRef({ transform, layers, index });
  useEffect(() => {
    live.current = { transform, layers, index };
  });

  // `drawn`: the view the canvases were drawn at; `motion`: the CSS transform that shows them
  // at the live view until the full-detail drawing for it is ready (useFullDetail.ts).
  const { drawn, motion, drawStatic, staticLayer } = useFullDetail({ scene, image: p.image, transform, width, height, layers, overlay, colors, stats, updateTransform });

  const mips = useMipLevels(p.image);
  // The smallest copy that still has at least one source pixel per screen pixel.
  const img = (() => {
    let best: { image: CanvasImageSource; factor: number } | null = null;
    for (const m of mips) if (drawn.scale * m.factor <= 1) best = m;
    return best;
  })();
  const highlight = p.highlight;
  const drawHl = useCallback(
    (c: Konva.Context, shape: Konva.Shape) => {
      drawHighlight(nativeCtx(c), highlight, { transform: drawn, width, height, pixelRatio: ratioOf(shape), layers, overlay, colors });
    },
    [highlight, drawn, width, height, layers, overlay, colors],
  );

  useWheelZoom(box, updateTransform);

  const drag = useRef<{ x: number; y: number; moved: number; id: number } | null>(null);
  const pending = useRef<{ dx: number; dy: number; hover: [number, number] | null }>({ dx: 0, dy: 0, hover: null });
  const frame = useRef(0);

  const hitAt = useCallback((sx: number, sy: number) => {
    const { transform: t, layers: l, index: idx } = live.current;
    const [ix, iy] = toImage(t, sx, sy);
    return idx.hit(ix, iy, 4 / t.scale, (s) => isVisible(s, l));
  }, []);

  // Pan deltas and hover tests are applied once per animation frame, however many pointer
  // events arrive in between.
  const flush = useCallback(() => {
    frame.current = 0;
    const q = pending.current;
    if (q.dx || q.dy) {
      const { dx, dy } = q;
      updateTransform((t) => panBy(t, dx, dy));
    }
    if (q.hover) {
      const [sx, sy] = q.hover;
      onHover(pane, hitAt(sx, sy), sx, sy);
    }
    pending.current = { dx: 0, dy: 0, hover: null };
  }, [hitAt, onHover, pane, updateTransform]);
  const schedule = useCallback(() => {
    if (!frame.current) frame.current = requestAnimationFrame(flush);
  }, [flush]);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  const local = (e: React.PointerEvent): [number, number] => {
    const r = box.current!.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  };

  const stage = useRef<Konva.Stage | null>(null);
  const stageRef = useCallback(
    (s: Konva.Stage | null) => {
      stage.current = s;
      registerStage(pane, s);
    },
    [pane, registerStage],
  );
  // What the stage's layers hold besides the view `drawn` (the shapes, the highlight, the image).
  const shows = useMemo(() => ({ drawStatic, drawHl, img }), [drawStatic, drawHl, img]);
  const snapshot = useMotionSnapshot(stage, motion !== undefined, drawn, shows);

  return (
    <div
      ref={box}
      data-testid={`viewer-pane-${pane}`}
      style={{ position: 'relative', width, height, overflow: 'hidden', touchAction: 'none', background: '#202020' }}
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        drag.current = { x: e.clientX, y: e.clientY, moved: 0, id: e.pointerId };
        (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
      }}
      onPointerMove={(e) => {
        const d = drag.current;
        if (d) {
          const dx = e.clientX - d.x;
          const dy = e.clientY - d.y;
          d.x = e.clientX;
          d.y = e.clientY;
          d.moved += Math.abs(dx) + Math.abs(dy);
          pending.current.dx += dx;
          pending.current.dy += dy;
        } else pending.current.hover = local(e);
        schedule();
      }}
      onPointerUp={(e) => {
        const d = drag.current;
        drag.current = null;
        if (d && d.moved < CLICK_SLOP) {
          const [sx, sy] = local(e);
          onPick(pane, hitAt(sx, sy));
        }
      }}
      onPointerLeave={() => {
        if (!drag.current) onHover(pane, -1, 0, 0);
      }}
    >
      {/* While the view moves, the compositor shows the last drawing moved (see useSettledView). */}
      {/* pointer-events none: the pane's own handlers do all input; Konva's stage would otherwise
          measure its position (a forced layout) on every wheel and pointer event. */}
      <div data-testid={`viewer-stage-${pane}`} style={{ position: 'absolute', left: 0, top: 0, transformOrigin: '0 0', transform: motion, imageRendering: motion ? 'pixelated' : undefined, willChange: 'transform', pointerEvents: 'none' }}>
      <div style={{ display: snapshot.shown ? 'none' : undefined }}>
      <Stage width={width} height={height} ref={stageRef} listening={false}>
        <Layer listening={false} x={drawn.x} y={drawn.y} scaleX={drawn.scale} scaleY={drawn.scale} imageSmoothingEnabled={drawn.scale < 2}>
          {p.image && (img ? <KImage image={img.image} x={0} y={0} width={(p.image as ImageBitmap).width} height={(p.image as ImageBitmap).height} listening={false} perfectDrawEnabled={false} /> : <KImage image={p.image} x={0} y={0} listening={false} perfectDrawEnabled={false} />)}
        </Layer>
        <Layer ref={staticLayer} listening={false} x={drawn.x} y={drawn.y} scaleX={drawn.scale} scaleY={drawn.scale}>
          <Shape sceneFunc={drawStatic} listening={false} perfectDrawEnabled={false} />
        </Layer>
        {/* Hidden when empty: a transparent full-pane canvas still costs the compositor a quad per frame. */}
        <Layer listening={false} visible={highlight.length > 0} x={drawn.x} y={drawn.y} scaleX={drawn.scale} scaleY={drawn.scale}>
          <Shape sceneFunc={drawHl} listening={false} perfectDrawEnabled={false} />
        </Layer>
      </Stage>
      </div>
      <canvas ref={snapshot.canvas} aria-hidden="true" style={{ display: snapshot.shown ? 'block' : 'none', width, height }} />
      </div>
    </div>
  );
});

/**
 * While the view moves, the compositor moves one canvas instead of the stage's two or three:
 * a copy of the visible layers, shown in their place until the motion ends. Measured (`npm run
 * bench -- viewer`, software compositing): each extra moving canvas costs the page's main thread
 * a resource update and the compositor a scaled quad on every frame.
 *
 * The copy is made ahead, at rest: once the layers hold something new (`drawn`, `shows`), in an
 * idle moment after the frame that showed it, and rasterised there, so the first frames of a
 * motion only switch it on. Made when the motion started instead (the earlier strategy), it took
 * a drag's second frame 18–27 ms of main-thread work (the copy, then its raster in the commit):
 * that frame came 27–34 ms after the first, and 12–20 ms now in 5 of 6 runs (traced, `npm run
 * bench -- viewer`). A drawing shown during a motion is copied in its next frame, as before.
 */
function useMotionSnapshot(stage: React.RefObject<Konva.Stage | null>, moving: boolean, drawn: ViewTransform, shows: object) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [copied, setCopied] = useState<{ drawn: ViewTransform; shows: object } | null>(null);
  // While moving, only a new drawing makes the copy out of date, not a new highlight: a hover
  // during a wheel zoom changes it, and copying again for that took the frame 30 ms (traced);
  // the highlight is brought up to date when the motion ends. So a motion wants the copy of
  // what the layers held when it started.
  const atStart = useRef<object | null>(null);
  if (!moving) atStart.current = null;
  else atStart.current ??= shows;
  const wanted = atStart.current ?? shows;
  const current = copied?.drawn === drawn && copied.shows === wanted;
  useLayoutEffect(() => {
    // For tests: whether the copy on hand is the one the layers' content wants.
    if (canvas.current) canvas.current.dataset.current = String(current);
    if (current) return;
    const copy = () => {
      const c = canvas.current;
      const layers = stage.current?.getLayers() ?? [];
      const first = layers[0]?.getCanvas()._canvas;
      const ctx = c?.getContext('2d');
      if (!c || !first || !ctx) return;
      if (c.width !== first.width || c.height !== first.height) {
        c.width = first.width;
        c.height = first.height;
      } else ctx.clearRect(0, 0, c.width, c.height);
      for (const l of layers) if (l.isVisible()) ctx.drawImage(l.getCanvas()._canvas, 0, 0);
      // For tests: whether the copy on hand was made at rest (ahead) or during a motion.
      c.dataset.copied = moving ? 'moving' : 'at rest';
      // At rest: rasterised now, not in the first frame it is shown in.
      if (!moving) rasteriseNow(c);
      setCopied({ drawn, shows: wanted });
    };
    // In the next animation frame at the earliest: Konva draws changed layers in one
    // (batchDraw), requested during this commit, so by then they hold what `shows` says. At
    // rest, once that has stood still for SETTLE_MS and the page is idle: hovering changes
    // the highlight layer many times a second, and a copy takes a few ms.
    let idle = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      if (moving) copy();
      else timer = setTimeout(() => (idle = whenIdle(copy)), SETTLE_MS);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      cancelIdle(idle);
    };
  }, [moving, drawn, wanted, current, stage]);
  return { canvas, shown: moving && current };
}

const SETTLE_MS = 80;
// requestIdleCallback where there is one (not in Safari); a timer otherwise. The timeout: an
// idle moment does not come while the page is busy, and the copy must not wait for ever.
const whenIdle = (f: () => void): number => (typeof requestIdleCallback === 'function' ? requestIdleCallback(f, { timeout: 250 }) : (setTimeout(f, 50) as unknown as number));
const cancelIdle = (id: number) => (typeof cancelIdleCallback === 'function' ? cancelIdleCallback(id) : clearTimeout(id));
