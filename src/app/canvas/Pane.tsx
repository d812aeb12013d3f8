/**
 * One canvas pane: three Konva layers (image; every static shape in ONE custom Shape; the
 * hovered / selected highlight), none of them listening — pointer input is handled on the
 * container and hit-tested with hitTest.ts once per animation frame — and none displayed: they
 * are put together into the one canvas the pane shows (useScreenCanvas).
 *
 * While the view only moves (pan, zoom), nothing is drawn: the last drawing is moved by the
 * compositor and drawn again at full detail once the motion pauses (useFullDetail); the
 * compositor also animates a wheel notch's zoom (useGlide). The image layer draws a pre-scaled
 * copy when zoomed out (a mip level), or copies the image drawn for its view while the raster
 * workers drew the shapes (preparedImage.ts).
 */
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type Konva from 'konva';
import { Layer, Shape, Stage } from 'react-konva';
import { drawHighlight, type LayerToggles } from './draw';
import type { SpatialIndex } from './hitTest';
import type { Scene, SceneItem } from './scene';
import { isVisible } from './draw';
import { panBy, toImage, type ViewTransform } from './transform';
import { useWheelZoom } from './useWheelZoom';
import { useFullDetail } from './useFullDetail';
import { useGlide } from './useGlide';
import { mipLevelsOf, releaseMipLevels } from './decode';
import { makeMipLevels, mipFor, type MipLevel } from './mipLevels';
import { drawImageAt, imageSize, PreparedImage, type ImageSource } from './preparedImage';
import { idleSteps } from './idle';

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
  /** Whether a wheel notch's zoom glides (useGlide.ts); off while an editor laid over the pane follows the view. Default on. */
  glide?: boolean;
}

/**
 * Pre-scaled copies of the image (1/2, 1/4, …; mipLevels.ts) so a zoomed-out view never resamples
 * 12 MP per frame: those the worker made for it (decode.ts), or else made here — for an image
 * decoded without the worker, or made by other code.
 */
function useMipLevels(image: CanvasImageSource | null): MipLevel[] {
  const [levels, setLevels] = useState<{ source: CanvasImageSource | null; list: MipLevel[] }>({ source: null, list: [] });
  useEffect(() => {
    if (!image || !(image instanceof ImageBitmap)) return;
    let alive = true;
    // The copies made here, closed when the image changes (the worker's go with their image).
    let made: MipLevel[] = [];
    // Asked of the worker while this pane shows the image (released below, which cancels it
    // when no other pane does).
    const asked = mipLevelsOf(image);
    (async () => {
      const given = await asked;
      // The image changed meanwhile: its copies are nobody's concern here.
      if (!alive) return;
      if (!given) made = await makeMipLevels(image, () => alive);
      if (alive) setLevels({ source: image, list: given ?? made });
    })();
    return () => {
      alive = false;
      if (asked) releaseMipLevels(image);
      for (const l of made) l.image.close();
    };
  }, [image]);
  return levels.source === image ? levels.list : [];
}

/** What the image layer draws at zoom `scale`: the copy that suits it (mipFor), over the whole image's size. */
const imageSourceAt = (image: CanvasImageSource, mips: readonly MipLevel[], scale: number): ImageSource => ({ image: mipFor(mips, scale)?.image ?? image, ...imageSize(image) });

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

  const mips = useMipLevels(p.image);
  // The image drawn ahead for the view the raster workers are drawing (preparedImage.ts), from
  // the latest image and copies: a stable callback, so a new copy does not restart a drawing.
  const [prepared] = useState(() => new PreparedImage());
  const imageNow = useRef({ image: p.image, mips });
  useEffect(() => {
    imageNow.current = { image: p.image, mips };
  });
  // Only a pre-scaled copy is drawn ahead: the image itself (zoomed in past 1/2) is left to the
  // layer, as before — in a trace of the viewer bench, drawing the 12-MP image ahead once took a
  // 33-ms task (17 ms CPU) in a pause of the gesture, for a drawing the next input dropped.
  const prepareImage = useCallback((t: ViewTransform, pixelRatio: number, w: number, h: number) => {
    const { image, mips: m } = imageNow.current;
    const src = image && imageSourceAt(image, m, t.scale);
    if (src && src.image !== image) prepared.prepare(src, t, pixelRatio, w, h);
  }, [prepared]);

  // `drawn`: the view the canvases were drawn at; `motion`: the CSS transform that shows them
  // at the live view until the full-detail drawing for it is ready (useFullDetail.ts).
  const { drawn, motion, drawStatic, staticLayer } = useFullDetail({ scene, transform, width, height, layers, overlay, colors, stats, updateTransform, prepare: prepareImage });

  const imageSrc = useMemo(() => (p.image ? imageSourceAt(p.image, mips, drawn.scale) : null), [p.image, mips, drawn.scale]);
  const drawImageLayer = useCallback(
    (c: Konva.Context, shape: Konva.Shape) => {
      if (!imageSrc) return;
      const ctx = nativeCtx(c);
      const ahead = prepared.put(ctx, imageSrc.image, drawn);
      if (!ahead) drawImageAt(ctx, imageSrc, drawn, ratioOf(shape));
      // For tests: the width of the bitmap drawn (the image, or a copy), and whether it was drawn ahead.
      ctx.canvas.dataset.imageWidth = String(imageSize(imageSrc.image).width);
      ctx.canvas.dataset.imageAhead = String(ahead);
    },
    [imageSrc, drawn, prepared],
  );
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
  // The canvases for the image drawn ahead get their pixel buffers while the page is idle, not in a drawing.
  useEffect(() => {
    return idleSteps(() => {
      const c = stage.current?.getLayers()[0]?.getCanvas()._canvas;
      return !!c && prepared.reserve(c.width, c.height);
    });
  }, [width, height, prepared]);

  const screen = useScreenCanvas(stage, motion !== undefined, drawn);
  const mover = useRef<HTMLDivElement>(null);
  useGlide(mover, drawn, transform, p.glide ?? true);

  // The Konva stage as one element made again only when what it draws changes: a pan or zoom
  // step re-renders the pane for its CSS transform alone, and an unchanged element is skipped
  // by React, so react-konva does not reconcile the stage's layers at every step.
  const hasHighlight = highlight.length > 0;
  const stageTree = useMemo(
    () => (
      <div style={{ display: 'none' }}>
        <Stage width={width} height={height} ref={stageRef} listening={false}>
          <Layer listening={false} x={drawn.x} y={drawn.y} scaleX={drawn.scale} scaleY={drawn.scale}>
            <Shape sceneFunc={drawImageLayer} listening={false} perfectDrawEnabled={false} />
          </Layer>
          <Layer ref={staticLayer} listening={false} x={drawn.x} y={drawn.y} scaleX={drawn.scale} scaleY={drawn.scale}>
            <Shape sceneFunc={drawStatic} listening={false} perfectDrawEnabled={false} />
          </Layer>
          {/* Hidden when empty: a transparent full-pane layer would still be copied to the screen. */}
          <Layer listening={false} visible={hasHighlight} x={drawn.x} y={drawn.y} scaleX={drawn.scale} scaleY={drawn.scale}>
            <Shape sceneFunc={drawHl} listening={false} perfectDrawEnabled={false} />
          </Layer>
        </Stage>
      </div>
    ),
    [width, height, stageRef, drawn, drawImageLayer, staticLayer, drawStatic, hasHighlight, drawHl],
  );

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
      {/* The layers are drawn into the stage but shown through one canvas (useScreenCanvas); while
          the view moves, the compositor shows it moved (see useSettledView). */}
      {/* pointer-events none: the pane's own handlers do all input; Konva's stage would otherwise
          measure its position (a forced layout) on every wheel and pointer event. */}
      <div ref={mover} data-testid={`viewer-stage-${pane}`} style={{ position: 'absolute', left: 0, top: 0, transformOrigin: '0 0', transform: motion, imageRendering: motion ? 'pixelated' : undefined, willChange: 'transform', pointerEvents: 'none' }}>
      {stageTree}
      <canvas ref={screen} data-testid={`viewer-screen-${pane}`} aria-hidden="true" style={{ display: 'block', width, height }} />
      </div>
    </div>
  );
});

/**
 * What the pane shows: one canvas, the visible Konva layers put together. The layers are drawn
 * as before but never displayed; whenever one of them has drawn (or been shown or hidden), they
 * are copied into this canvas, in order, within the same frame (a microtask after Konva's
 * drawing). While the view moves the compositor moves this canvas by CSS, and only a new drawing
 * is copied in: a hover mid-gesture redraws the highlight layer, and copying for it would cost a
 * frame of the motion; the canvas is brought up to date when the motion ends.
 *
 * Why one canvas: Chromium gives a displayed canvas its compositor buffers, and a canvas that
 * becomes displayed again (display: none during the motion, as the stage's three were) must get
 * new ones. Measured (`npm run bench -- viewer`, software compositing, 8 runs each way, traced):
 * showing the stage again after a motion made the commit of the frame with the full-detail
 * drawing take 7.8–15.4 ms (three new buffers); with one canvas that stays displayed, 2.0–4.5 ms,
 * and from the workers' last part to the screen took 19–42 ms (median 29) instead of 26–47 ms
 * (median 38; 8 runs each, interleaved).
 * The first frame of a motion no longer switches canvases either (the switch cost it a new
 * buffer for the copy that moved: its main-thread task went from 14.8 to 9.1 ms, traced), and at
 * rest the compositor draws one canvas, not three.
 */
function useScreenCanvas(stage: React.RefObject<Konva.Stage | null>, moving: boolean, drawn: ViewTransform) {
  const canvas = useRef<HTMLCanvasElement>(null);
  // The motion state and view as of the last commit, for the copy made after Konva draws.
  const live = useRef({ moving, drawn });
  // The view of the drawing the canvas holds, and whether a copy was skipped during a motion.
  const holds = useRef<ViewTransform | null>(null);
  const stale = useRef(false);
  const copy = useCallback(() => {
    const c = canvas.current;
    const layers = stage.current?.getLayers() ?? [];
    const first = layers[0]?.getCanvas()._canvas;
    const ctx = c?.getContext('2d');
    if (!c || !first || !ctx) return;
    const now = live.current;
    if (now.moving && holds.current === now.drawn) {
      stale.current = true;
      c.dataset.current = 'false';
      return;
    }
    if (c.width !== first.width || c.height !== first.height) {
      c.width = first.width;
      c.height = first.height;
    } else ctx.clearRect(0, 0, c.width, c.height);
    for (const l of layers) if (l.isVisible()) ctx.drawImage(l.getCanvas()._canvas, 0, 0);
    holds.current = now.drawn;
    stale.current = false;
    // For tests: how many copies were made, and whether the canvas holds what the layers do.
    c.dataset.copies = String(Number(c.dataset.copies ?? 0) + 1);
    c.dataset.current = 'true';
  }, [stage]);
  useLayoutEffect(() => {
    live.current = { moving, drawn };
    if (!moving && stale.current) copy();
  }, [moving, drawn, copy]);
  useEffect(() => {
    const layers = stage.current?.getLayers() ?? [];
    // Every layer Konva draws in one frame (one batch, or drawNow) leads to one copy.
    let queued = false;
    const due = () => {
      if (queued) return;
      queued = true;
      queueMicrotask(() => {
        queued = false;
        copy();
      });
    };
    for (const l of layers) {
      l.on('draw.screen', due);
      // A layer hidden draws nothing, so it is dropped from the screen here. One shown is drawn
      // by Konva first (a draw follows): copied at its visibleChange, it would show what it held
      // when last hidden (the previous highlight) for a frame.
      l.on('visibleChange.screen', () => {
        if (!l.isVisible()) due();
      });
    }
    due();
    return () => {
      for (const l of layers) l.off('.screen');
    };
  }, [stage, copy]);
  return canvas;
}
