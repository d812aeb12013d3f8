/**
 * Draws a whole scene from one sceneFunc: shapes are grouped by style, so 5,000 polygons cost a
 * few dozen canvas state changes and 5,000 small paths rather than 5,000 Konva nodes. Called from
 * the single sceneFunc of the static layer (and, for a few shapes, of the highlight layer).
 */
import type { SceneItem } from './scene';
import { selectedOf } from './scene';
import { overlayStyle, styleFor, type StateStyle } from './style';
import type { ViewTransform } from './transform';
import { displayText, FONT_STACK, hasGlyph } from './glyphs';
import { traceRing } from './outline';
import type { Rect } from './geometry';
import { LABEL_H, LABEL_PX, labelRank, placeLabels, screenBox, type LabelInput, type PlacedLabel } from './labels';

export interface LayerToggles {
  gt: boolean;
  pred: boolean;
  dontcare: boolean;
  labels: boolean;
}

export const ALL_LAYERS: LayerToggles = { gt: true, pred: true, dontcare: true, labels: true };

export function isVisible(it: SceneItem, layers: LayerToggles): boolean {
  if (it.state === 'dontcare') return layers.dontcare;
  return it.side === 'gt' ? layers.gt : layers.pred;
}

export interface DrawOptions {
  transform: ViewTransform;
  /** Viewport size in CSS pixels (for culling and labels). */
  width: number;
  height: number;
  pixelRatio: number;
  layers: LayerToggles;
  overlay: boolean;
  /** Filled in with what was drawn, by "side:state" (test hooks and the status line). */
  stats?: Record<string, number>;
  /** Overlay colour of each view (model), by view index; default: MODEL_COLORS in view order. */
  colors?: readonly string[];
}

export function itemStyle(it: SceneItem, overlay: boolean, colors?: readonly string[]): StateStyle {
  const sel = selectedOf(it.inst);
  return overlay ? overlayStyle(it.side, it.state, it.view, it.role, sel, colors) : styleFor(it.side, it.state, it.role, sel);
}

/** A 2D context on a page canvas or, in the raster workers (raster.worker.ts), an OffscreenCanvas. */
export type Ctx2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

export const styleKey = (s: StateStyle) => `${s.stroke}|${s.fill}|${s.dash.join(',')}|${s.width}|${s.alpha}|${s.hatch}`;

let hatchPattern: CanvasPattern | null = null;
function hatch(ctx: Ctx2D): CanvasPattern | null {
  if (hatchPattern) return hatchPattern;
  // A worker has no document: its tile is an OffscreenCanvas (the same 8×8 pixels).
  const c = typeof document !== 'undefined' ? document.createElement('canvas') : new OffscreenCanvas(8, 8);
  c.width = c.height = 8;
  const g = c.getContext('2d') as Ctx2D | null;
  if (!g) return null;
  g.strokeStyle = 'rgba(127,127,127,0.75)';
  g.lineWidth = 1.5;
  g.beginPath();
  g.moveTo(-2, 10);
  g.lineTo(10, -2);
  g.moveTo(-2, 2);
  g.lineTo(2, -2);
  g.moveTo(6, 10);
  g.lineTo(10, 6);
  g.stroke();
  hatchPattern = ctx.createPattern(c, 'repeat');
  return hatchPattern;
}

function tracePath(ctx: Ctx2D, pts: ArrayLike<number>): void {
  ctx.moveTo(pts[0], pts[1]);
  for (let i = 2; i < pts.length; i += 2) ctx.lineTo(pts[i], pts[i + 1]);
  ctx.closePath();
}

/** Visible image rectangle, with a margin so strokes at the edge are not cut. */
export function viewRect(o: Pick<DrawOptions, 'transform' | 'width' | 'height'>) {
  const { scale, x, y } = o.transform;
  const m = 4 / scale;
  return { x0: -x / scale - m, y0: -y / scale - m, x1: (o.width - x) / scale + m, y1: (o.height - y) / scale + m };
}

/** What drawPlanned needs of a shape: its outline (a SceneItem, or a packed copy in a worker). */
export interface PlannedShape {
  points: ArrayLike<number>;
}

/** What one full drawing of the shapes does, in order: style groups, hatched and filled first. */
export interface ShapePlan {
  groups: { style: StateStyle; items: readonly PlannedShape[] }[];
  /** Shapes in all groups. */
  count: number;
}

interface ItemStyles {
  overlay: boolean;
  colors?: readonly string[];
  styles: StateStyle[];
  keys: string[];
  /** "side:state" of each item, for the stats. */
  stats: string[];
}
const styleCache = new WeakMap<readonly SceneItem[], ItemStyles>();

/**
 * Each item's style, its key and "side:state", made once per item list and style settings:
 * planShapes runs for every redraw, and making them anew took 15–20 ms for 5,000 items.
 */
export function itemStyles(items: readonly SceneItem[], overlay: boolean, colors?: readonly string[]): ItemStyles {
  let c = styleCache.get(items);
  if (!c || c.overlay !== overlay || c.colors !== colors) {
    const styles = items.map((it) => itemStyle(it, overlay, colors));
    c = { overlay, colors, styles, keys: styles.map(styleKey), stats: items.map((it) => `${it.side}:${it.state}`) };
    styleCache.set(items, c);
  }
  return c;
}

/** Which shapes are visible in the view, grouped by style; counts them into `o.stats`. */
export function planShapes(items: readonly SceneItem[], o: DrawOptions): ShapePlan {
  const v = viewRect(o);
  const groups = new Map<string, { style: StateStyle; items: SceneItem[] }>();
  const st = itemStyles(items, o.overlay, o.colors);
  let count = 0;
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    if (!isVisible(it, o.layers)) continue;
    const b = it.bounds;
    if (b.x1 < v.x0 || b.x0 > v.x1 || b.y1 < v.y0 || b.y0 > v.y1) continue;
    const k = st.keys[i];
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { style: st.styles[i], items: [] }));
    g.items.push(it);
    count++;
    if (o.stats) {
      const sk = st.stats[i];
      o.stats[sk] = (o.stats[sk] ?? 0) + 1;
    }
  }
  // Hatched and filled groups first, so outlines are never covered by a neighbour's fill.
  return { groups: [...groups.values()].sort((a, b) => Number(b.style.hatch) - Number(a.style.hatch)), count };
}

/**
 * Draws shapes `from`..`to` (positions in the plan's order) in image coordinates; `ctx` already
 * carries the view transform. Line widths and dashes are divided by the zoom so they stay the
 * same on screen. Drawing a plan in several calls gives the same pixels as in one.
 */
export function drawPlanned(ctx: Ctx2D, plan: ShapePlan, scale: number, from = 0, to = plan.count): void {
  const inv = 1 / scale;
  let start = 0;
  for (const { style, items: list } of plan.groups) {
    const end = start + list.length;
    if (end <= from || start >= to) {
      start = end;
      continue;
    }
    ctx.globalAlpha = style.alpha;
    let fill: string | CanvasPattern | null = style.fill || null;
    if (style.hatch) {
      const p = hatch(ctx);
      // Keep the hatch spacing constant on screen whatever the zoom.
      p?.setTransform(new DOMMatrix([inv, 0, 0, inv, 0, 0]));
      fill = p;
    }
    // Solid outlines are filled bands (outline.ts traceRing): Skia strokes a path by building its
    // outline first, which made strokes most of a redraw's raster time. Dashed ones are stroked.
    const ring = style.dash.length === 0;
    const hw = (style.width * inv) / 2;
    if (!ring) {
      ctx.strokeStyle = style.stroke;
      ctx.lineWidth = style.width * inv;
      ctx.setLineDash(style.dash.map((d) => d * inv));
      ctx.lineJoin = 'miter';
    }
    // One fill style for the whole group, unless a filled shape's ring needs the other one.
    const swap = ring && fill !== null;
    if (ring || fill) ctx.fillStyle = ring ? style.stroke : (fill as string | CanvasPattern);
    // State is set once per style group, but each shape is its own path: measured in software
    // Chromium, one path holding 5,000 polygons rasterises 3–5× slower than 5,000 small paths
    // (its antialiasing mask spans the whole path's bounds). Each shape's fill comes right before
    // its outline, so a drawing made in several calls (slices, bands) equals the one-go drawing.
    for (let i = Math.max(from, start) - start, n = Math.min(to, end) - start; i < n; i++) {
      const pts = list[i].points;
      if (fill || !ring) {
        ctx.beginPath();
        tracePath(ctx, pts);
      }
      if (fill) {
        if (swap) ctx.fillStyle = fill;
        ctx.fill('evenodd');
      }
      if (ring) {
        if (swap) ctx.fillStyle = style.stroke;
        ctx.beginPath();
        traceRing(ctx, pts, hw);
        ctx.fill('nonzero');
      } else ctx.stroke();
    }
    start = end;
  }
  ctx.globalAlpha = 1;
  ctx.setLineDash([]);
}

/** More labels than this in view are not drawn (too many to read). */
export const MAX_LABELS = 1500;
const labelCache = new Map<string, { text: string; width: number }>();

/** Whether a shape counts as labelled (planLabels): it has a label or a reason, drawn or not. */
export const isLabelled = (it: SceneItem): boolean => !!(it.label || it.inst.reason);

/** The text a shape's label shows ('' when nothing is drawn for it). */
export function labelText(it: SceneItem): string {
  let t = it.label;
  if ((it.state === 'ignored' || it.state === 'below_threshold' || it.state === 'unk') && it.inst.reason) {
    const r = it.inst.reason.length > 48 ? `${it.inst.reason.slice(0, 47)}…` : it.inst.reason;
    t = t ? `${t} — ${r}` : r;
  }
  return t;
}

/** Whether the label of a shape with bounds `b` can reach the viewport (planLabels' culling). */
export function labelInView(b: Rect, o: Pick<DrawOptions, 'transform' | 'width' | 'height'>): boolean {
  const { scale, x, y } = o.transform;
  const sx0 = b.x0 * scale + x;
  const sy0 = b.y0 * scale + y;
  const sx1 = b.x1 * scale + x;
  const sy1 = b.y1 * scale + y;
  return !(sx1 < 0 || sy1 < -LABEL_H - 2 || sx0 > o.width || sy0 > o.height + LABEL_H + 2);
}

/** What placeLabels needs of a shape's label at view `t`. */
export function labelInput(it: SceneItem, t: ViewTransform): LabelInput {
  return { box: screenBox(it.bounds, t), gt: it.side === 'gt', raw: labelText(it), rank: labelRank(it.state) };
}

/**
 * Labels in screen pixels (constant size), placed so that no two overlap (labels.ts: GT labels
 * above a shape, prediction labels below it when there is room, else elsewhere or shortened).
 * Skipped when too many would be on screen to read anyway.
 *
 * planLabels lists the shapes whose labels are drawn, in order (none when over MAX_LABELS);
 * drawLabelRange draws them. The raster workers do the same from a packed scene
 * (packedScene.ts planPackedLabels, raster.worker.ts).
 */
export function planLabels(items: readonly SceneItem[], o: DrawOptions): SceneItem[] {
  if (!o.layers.labels) return [];
  const todo: SceneItem[] = [];
  for (const it of items) {
    if (!isVisible(it, o.layers) || !isLabelled(it)) continue;
    if (!labelInView(it.bounds, o)) continue;
    todo.push(it);
    if (todo.length > MAX_LABELS) return [];
  }
  return todo;
}

/** Sets up `ctx` for drawLabel: labels are drawn in CSS pixels of the viewport, moved by (-ox, -oy) device pixels. */
export function beginLabels(ctx: Ctx2D, pixelRatio: number, ox = 0, oy = 0): void {
  ctx.setTransform(pixelRatio, 0, 0, pixelRatio, -ox, -oy);
  ctx.font = `${LABEL_PX}px ${FONT_STACK}`;
  ctx.textBaseline = 'top';
}

/** The label text as drawn (missing glyphs as code points) and its width in CSS pixels; `ctx` as beginLabels left it. */
export function measureLabel(ctx: Ctx2D, raw: string): { text: string; width: number } {
  let cached = labelCache.get(raw);
  if (!cached) {
    const text = displayText(raw, hasGlyph);
    cached = { text, width: ctx.measureText(text).width };
    if (labelCache.size > 20000) labelCache.clear();
    labelCache.set(raw, cached);
  }
  return cached;
}

/** Draws one placed label (placeLabels) in style `style`; `ctx` as beginLabels left it. */
export function drawLabel(ctx: Ctx2D, p: PlacedLabel, style: StateStyle): void {
  ctx.globalAlpha = Math.max(0.7, style.alpha);
  ctx.fillStyle = 'rgba(0,0,0,0.65)';
  ctx.fillRect(p.lx, p.ly, p.width + 6, p.h);
  ctx.fillStyle = style.stroke;
  ctx.fillText(p.text, p.lx + 3, p.ly + 2);
}

/** The placements of a planLabels list at a view, made once per list and view (all of a drawing's slices use them). */
const placements = new WeakMap<readonly SceneItem[], { t: ViewTransform; placed: (PlacedLabel | null)[] }>();

/** Where each label of `todo` goes at `o.transform` (placeLabels); `ctx` as beginLabels left it, for measuring. */
export function placedLabels(ctx: Ctx2D, todo: readonly SceneItem[], t: ViewTransform): (PlacedLabel | null)[] {
  const got = placements.get(todo);
  if (got && got.t.scale === t.scale && got.t.x === t.x && got.t.y === t.y) return got.placed;
  const placed = placeLabels(todo.map((it) => labelInput(it, t)), (raw) => measureLabel(ctx, raw));
  placements.set(todo, { t, placed });
  return placed;
}

/** Draws labels `from`..`to` of a planLabels list (in several calls: the same pixels as in one). */
export function drawLabelRange(ctx: CanvasRenderingContext2D, todo: readonly SceneItem[], o: DrawOptions, from = 0, to = todo.length): void {
  if (from >= to) return;
  ctx.save();
  beginLabels(ctx, o.pixelRatio);
  const placed = placedLabels(ctx, todo, o.transform);
  for (let i = from; i < Math.min(to, todo.length); i++) {
    const p = placed[i];
    if (p) drawLabel(ctx, p, itemStyle(todo[i], o.overlay, o.colors));
  }
  ctx.restore();
}

/** The hovered / selected shapes, drawn thick over a dark halo on the highlight layer. */
export function drawHighlight(ctx: CanvasRenderingContext2D, items: readonly SceneItem[], o: DrawOptions): void {
  const inv = 1 / o.transform.scale;
  for (const it of items) {
    const style = itemStyle(it, o.overlay, o.colors);
    ctx.beginPath();
    tracePath(ctx, it.points);
    ctx.setLineDash([]);
    ctx.lineJoin = 'round';
    ctx.strokeStyle = 'rgba(0,0,0,0.8)';
    ctx.lineWidth = (style.width + 5) * inv;
    ctx.stroke();
    ctx.strokeStyle = style.stroke;
    ctx.lineWidth = (style.width + 1.5) * inv;
    ctx.setLineDash(style.dash.map((d) => d * inv));
    ctx.stroke();
  }
  ctx.setLineDash([]);
}
