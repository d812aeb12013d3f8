/**
 * One canvas pane: three Konva layers (image; every static shape in ONE custom Shape; the
 * hovered / selected highlight), none of them listening — pointer input is handled on the
 * container and hit-tested with hitTest.ts once per animation frame.
 *
 * While the view only moves (pan, zoom), nothing is drawn: the last drawing is moved by the
 * compositor (useSettledView) and drawn again at full detail once the motion pauses. The image
 * layer draws a pre-scaled copy when zoomed out (a mip level).
 */
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type Konva from 'konva';
import { Image as KImage, Layer, Shape, Stage } from 'react-konva';
import { drawHighlight, type LayerToggles } from './draw';
import { drawingAbandoned, drawingFinished, drawingStarted, SLICE_MS, StaticDrawing, type Drawing } from './staticDrawing';
import type { SpatialIndex } from './hitTest';
import type { Scene, SceneItem } from './scene';
import { isVisible } from './draw';
import { panBy, toImage, type ViewTransform } from './transform';
import { useWheelZoom } from './useWheelZoom';
import { motionEpoch, motionTransform, SETTLE_FRAMES, useSettledView } from './useSettledView';

export type TransformUpdate = (fn: (t: ViewTransform) => ViewTransform) => void;

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
  const { pane, scene, index, transform, width, height, layers, overlay, stats, updateTransform, onHover, onPick, registerStage } = p;
  const box = useRef<HTMLDivElement>(null);
  // Latest values for the native listeners and the per-frame hit test.
  const live = useRef({ transform, layers, index });
  useEffect(() => {
    live.current = { transform, layers, index };
  });

  // A new identity whenever what is drawn (not where) changes.
  const content = useMemo(() => ({ scene, width, height, layers, overlay, image: p.image }), [scene, width, height, layers, overlay, p.image]);
  // The view the drawing should reach: `transform` once it has stood still (useSettledView).
  const target = useSettledView(transform, content);
  const staticLayer = useRef<Konva.Layer>(null);
  const drawing = useRef<StaticDrawing | null>(null);
  const [shown, setShown] = useState<Drawing | null>(null);
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
    const layerCanvas = staticLayer.current?.getCanvas();
    const pr = layerCanvas?.getPixelRatio() ?? window.devicePixelRatio ?? 1;
    const w = layerCanvas?._canvas.width ?? Math.floor(width * pr);
    const h = layerCanvas?._canvas.height ?? Math.floor(height * pr);
    const begin = () => d.start(scene.items, { transform: target, width, height, pixelRatio: pr, layers, overlay }, w, h, content);
    begin();
    const finish = (r: Drawing) => {
      for (const k of Object.keys(stats)) delete stats[k];
      Object.assign(stats, r.stats);
      d.accept(r);
      setShown(r);
    };
    if (!cur || cur.content !== content) {
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
    let alive = true;
    let since = motionEpoch();
    let hold = 0;
    let frame = 0;
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
    ch.port1.onmessage = () => {
      if (!alive) return;
      if (moved()) {
        d.cancel();
        frame = requestAnimationFrame(waitStill);
        return;
      }
      if (!d.pending) begin();
      const r = d.step(SLICE_MS);
      if (r) drawingFinished(d, () => finish(r));
      else ch.port2.postMessage(0);
    };
    ch.port2.postMessage(0);
    return () => {
      alive = false;
      cancelAnimationFrame(frame);
      ch.port1.close();
      d.cancel();
      drawingAbandoned(d);
    };
  }, [target, content, scene, width, height, layers, overlay, stats]);

  // Konva calls this when the static layer's props change, i.e. when `shown` does: a copy.
  const drawStatic = useCallback(
    (c: Konva.Context) => {
      if (!shown || shown.content !== content) return;
      const ctx = nativeCtx(c);
      ctx.save();
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.drawImage(shown.canvas, 0, 0);
      ctx.restore();
      // Read by the viewer bench from a DevTools trace: the full-detail drawing goes on screen.
      console.timeStamp('benchlens:full-draw');
    },
    [shown, content],
  );
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
      drawHighlight(nativeCtx(c), highlight, { transform: drawn, width, height, pixelRatio: ratioOf(shape), layers, overlay });
    },
    [highlight, drawn, width, height, layers, overlay],
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

  const stageRef = useCallback((s: Konva.Stage | null) => registerStage(pane, s), [pane, registerStage]);

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
    </div>
  );
});
