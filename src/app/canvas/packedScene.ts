/**
 * A pane's shapes as a few typed arrays, for the raster workers (raster.worker.ts): sent once
 * per content (transferred, not cloned as 5,000 JS arrays), then planned per view in the worker
 * exactly as planShapes plans the SceneItems on the main thread — same culling, same style
 * groups in the same order — so drawPlanned draws the same shapes in the same order there.
 * No DOM here: it runs in Node tests, the page and the workers.
 */
import { isLabelled, isVisible, itemStyles, labelInView, labelText, MAX_LABELS, viewRect, type DrawOptions, type LayerToggles, type PlannedShape, type ShapePlan } from './draw';
import type { SceneItem } from './scene';
import { labelRank, screenBox, type LabelInput } from './labels';
import type { ViewTransform } from './transform';
import type { StateStyle } from './style';

/** The drawable shapes of one content, in scene order (only those the layers show). */
export interface PackedScene {
  /** The distinct styles; `style[i]` indexes this list. */
  styles: StateStyle[];
  style: Uint16Array;
  /** Every outline's points, one after the other; shape i is coords[offsets[i] … offsets[i+1]). */
  coords: Float64Array;
  offsets: Uint32Array;
  /** x0, y0, x1, y1 per shape. */
  bounds: Float64Array;
  /**
   * The shapes' labels, when the labels layer is on (the workers draw them with the shapes, as
   * planLabels / drawLabelRange do): per shape its text (labelText, '' when none is drawn),
   * whether it counts as labelled (isLabelled: towards MAX_LABELS), and whether it is GT (its
   * label goes above it), and its placement rank (labels.ts labelRank). Texts are cloned once per
   * content, not per drawing.
   */
  labels?: { texts: string[]; labelled: Uint8Array; gt: Uint8Array; rank: Uint8Array };
}

/** Packs the shapes `items` shows with these layers and colours (what planShapes may draw). */
export function packScene(items: readonly SceneItem[], layers: LayerToggles, overlay: boolean, colors?: readonly string[]): PackedScene {
  const all = itemStyles(items, overlay, colors);
  const shown: number[] = [];
  items.forEach((it, i) => isVisible(it, layers) && shown.push(i));
  const styles: StateStyle[] = [];
  const byKey = new Map<string, number>();
  const style = new Uint16Array(shown.length);
  const offsets = new Uint32Array(shown.length + 1);
  const bounds = new Float64Array(shown.length * 4);
  let n = 0;
  for (const j of shown) n += items[j].points.length;
  const coords = new Float64Array(n);
  let at = 0;
  shown.forEach((j, i) => {
    const it = items[j];
    const s = all.styles[j];
    const k = all.keys[j];
    let si = byKey.get(k);
    if (si === undefined) {
      si = styles.length;
      byKey.set(k, si);
      styles.push(s);
    }
    style[i] = si;
    coords.set(it.points, at);
    at += it.points.length;
    offsets[i + 1] = at;
    const b = it.bounds;
    bounds.set([b.x0, b.y0, b.x1, b.y1], i * 4);
  });
  if (!layers.labels) return { styles, style, coords, offsets, bounds };
  const labels = {
    texts: shown.map((j) => labelText(items[j])),
    labelled: Uint8Array.from(shown, (j) => (isLabelled(items[j]) ? 1 : 0)),
    gt: Uint8Array.from(shown, (j) => (items[j].side === 'gt' ? 1 : 0)),
    rank: Uint8Array.from(shown, (j) => labelRank(items[j].state)),
  };
  return { styles, style, coords, offsets, bounds, labels };
}

/** The typed arrays of a PackedScene, for postMessage's transfer list. */
export const packedBuffers = (p: PackedScene): ArrayBuffer[] =>
  [p.style.buffer, p.coords.buffer, p.offsets.buffer, p.bounds.buffer, ...(p.labels ? [p.labels.labelled.buffer, p.labels.gt.buffer, p.labels.rank.buffer] : [])] as ArrayBuffer[];

/** A copy of `p` that shares nothing with it (for a second worker, when `p` itself is transferred). */
export const copyPacked = (p: PackedScene): PackedScene => ({
  ...p,
  style: p.style.slice(),
  coords: p.coords.slice(),
  offsets: p.offsets.slice(),
  bounds: p.bounds.slice(),
  labels: p.labels && { texts: p.labels.texts, labelled: p.labels.labelled.slice(), gt: p.labels.gt.slice(), rank: p.labels.rank.slice() },
});

/** A planned shape with its extent in image pixels (for bands and rectangles). */
export interface BandedShape extends PlannedShape {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A PackedScene with its outlines as views into `coords`, made once per content. */
export interface UnpackedScene extends PackedScene {
  shapes: BandedShape[];
}

export function unpackScene(p: PackedScene): UnpackedScene {
  const shapes: BandedShape[] = [];
  for (let i = 0; i + 1 < p.offsets.length; i++) shapes.push({ points: p.coords.subarray(p.offsets[i], p.offsets[i + 1]), x0: p.bounds[i * 4], y0: p.bounds[i * 4 + 1], x1: p.bounds[i * 4 + 2], y1: p.bounds[i * 4 + 3] });
  return { ...p, shapes };
}

/**
 * planShapes for packed shapes: the ones in view, grouped by style in the order of each
 * group's first shape in view, hatched groups first (a stable sort, as planShapes does).
 */
export function planPacked(s: UnpackedScene, o: Pick<DrawOptions, 'transform' | 'width' | 'height'>): ShapePlan {
  const v = viewRect(o);
  const groupOf = new Map<number, { style: StateStyle; items: PlannedShape[] }>();
  const order: { style: StateStyle; items: PlannedShape[] }[] = [];
  let count = 0;
  const b = s.bounds;
  for (let i = 0; i < s.shapes.length; i++) {
    const j = i * 4;
    if (b[j + 2] < v.x0 || b[j] > v.x1 || b[j + 3] < v.y0 || b[j + 1] > v.y1) continue;
    const si = s.style[i];
    let g = groupOf.get(si);
    if (!g) {
      groupOf.set(si, (g = { style: s.styles[si], items: [] }));
      order.push(g);
    }
    g.items.push(s.shapes[i]);
    count++;
  }
  return { groups: order.sort((a, c) => Number(c.style.hatch) - Number(a.style.hatch)), count };
}

/**
 * planLabels for packed shapes: the shapes (indices) whose labels are drawn at this view, in
 * scene order; none without labels or when more than MAX_LABELS would be in view.
 */
export function planPackedLabels(s: PackedScene, o: Pick<DrawOptions, 'transform' | 'width' | 'height'>): number[] {
  const l = s.labels;
  if (!l) return [];
  const out: number[] = [];
  const b = s.bounds;
  const box = { x0: 0, y0: 0, x1: 0, y1: 0 };
  for (let i = 0; i < l.labelled.length; i++) {
    if (!l.labelled[i]) continue;
    box.x0 = b[i * 4];
    box.y0 = b[i * 4 + 1];
    box.x1 = b[i * 4 + 2];
    box.y1 = b[i * 4 + 3];
    if (!labelInView(box, o)) continue;
    out.push(i);
    if (out.length > MAX_LABELS) return [];
  }
  return out;
}

/** labelInput for packed shapes: the inputs of placeLabels for the labels `todo` (planPackedLabels) at view `t`, as the page makes them. */
export function packedLabelInputs(s: PackedScene, todo: readonly number[], t: ViewTransform): LabelInput[] {
  const l = s.labels!;
  const b = s.bounds;
  return todo.map((i) => ({ box: screenBox({ x0: b[i * 4], y0: b[i * 4 + 1], x1: b[i * 4 + 2], y1: b[i * 4 + 3] }, t), gt: l.gt[i] === 1, raw: l.texts[i], rank: l.rank[i] }));
}

/**
 * The device-pixel rows [y0, y1) of band `part` of `parts` of a canvas `h` rows high: the
 * workers draw one band each, and the page puts each at its rows. Bands do not overlap, so the
 * result is the drawing of one canvas, pixel for pixel, whatever order they arrive in. `cuts`
 * (from balancedCuts) places the bands' edges; without it the bands are equally high.
 */
export function bandRows(h: number, part: number, parts: number, cuts?: readonly number[]): [number, number] {
  if (cuts && cuts.length === parts + 1) return [cuts[part], cuts[part + 1]];
  return [Math.floor((h * part) / parts), Math.floor((h * (part + 1)) / parts)];
}

/**
 * Band edges [0, …, h] that give each of `parts` bands about the same number of shapes, from
 * the device rows of the shapes' centres: a band's raster time goes with the shapes in it
 * (measured: 621 shapes 9 ms, 1,522 shapes 28 ms in equally high bands of one view), so equal
 * heights left one worker idle while the other finished. Bands stay at least 8 rows high.
 */
export function balancedCuts(centres: readonly number[], h: number, parts: number): number[] {
  const rows = new Uint32Array(h + 1);
  let total = 0;
  for (const c of centres) {
    if (!(c >= 0 && c < h)) continue;
    rows[Math.floor(c)]++;
    total++;
  }
  const cuts = [0];
  let seen = 0;
  let y = 0;
  for (let k = 1; k < parts; k++) {
    const want = (total * k) / parts;
    while (y < h && seen + rows[y] <= want) seen += rows[y++];
    const min = cuts[k - 1] + 8;
    const max = h - 8 * (parts - k);
    cuts.push(Math.max(min, Math.min(max, y)));
  }
  cuts.push(h);
  return cuts;
}

/** The device rows of the centres of the shapes `items` shows in view `o` (for balancedCuts). */
export function centreRows(items: readonly SceneItem[], o: Pick<DrawOptions, 'transform' | 'width' | 'height' | 'layers' | 'pixelRatio'>): number[] {
  const v = viewRect(o);
  const { scale, y } = o.transform;
  const out: number[] = [];
  for (const it of items) {
    const b = it.bounds;
    if (!isVisible(it, o.layers) || b.x1 < v.x0 || b.x0 > v.x1 || b.y1 < v.y0 || b.y0 > v.y1) continue;
    out.push((((b.y0 + b.y1) / 2) * scale + y) * o.pixelRatio);
  }
  return out;
}

/**
 * Rows drawn beyond a band on each side and not shown. Measured in Chromium (software raster,
 * 5,000 polygons): a band drawn on a canvas of exactly its rows differs from the one-canvas
 * drawing within ~7 rows of its edges (shapes cut by a canvas edge are rasterised, or culled,
 * differently near it; up to 255 per channel); with 4 rows of margin ~1,000 pixels still differ,
 * with 16 none. Zoomed far in, shapes much larger than the margin still differ a little near
 * band edges (measured 2026-12-03 at 1039×871, the dense case at k× its fit: 2× 0 pixels, 3× 10,
 * 4× 141, 5× ~590, 8× 2,337 of 904,969; at 5× by ≤ 13 of 255, premultiplied), labels or not.
 */
export const BAND_PAD = 24;

/** Band `part` of `parts` as a rectangle of device pixels: every column of its rows (bandRows). */
export function bandRect(w: number, h: number, part: number, parts: number, cuts?: readonly number[]): DeviceRect {
  const [y0, y1] = bandRows(h, part, parts, cuts);
  return [0, y0, w, y1];
}

/** A rectangle of device pixels: x0, y0, x1, y1 (x1, y1 excluded). */
export type DeviceRect = [number, number, number, number];

/**
 * The plan of the whole view restricted to the shapes that reach rectangle `r` of device pixels
 * (a band, bandRect, or a strip a pan exposed) — the same groups in the same order, so overlapping
 * shapes are drawn in the same order as on one canvas. `transform` and `pixelRatio` are the
 * view's; the margin is viewRect's (4 CSS px).
 */
export function rectPlan(plan: ShapePlan, transform: DrawOptions['transform'], pixelRatio: number, r: DeviceRect): ShapePlan {
  const { scale, x, y } = transform;
  const m = 4 / scale;
  const left = (r[0] / pixelRatio - x) / scale - m;
  const top = (r[1] / pixelRatio - y) / scale - m;
  const right = (r[2] / pixelRatio - x) / scale + m;
  const bottom = (r[3] / pixelRatio - y) / scale + m;
  let count = 0;
  const groups = plan.groups.map((g) => {
    const items = (g.items as readonly BandedShape[]).filter((it) => it.y1 >= top && it.y0 <= bottom && it.x1 >= left && it.x0 <= right);
    count += items.length;
    return { style: g.style, items };
  });
  return { groups: groups.filter((g) => g.items.length > 0), count };
}

/** The pixels a worker's canvas holds for rectangle `r` of a w×h canvas: `r` and BAND_PAD around it. */
export function paddedRect(r: DeviceRect, w: number, h: number): DeviceRect {
  return [Math.max(0, r[0] - BAND_PAD), Math.max(0, r[1] - BAND_PAD), Math.min(w, r[2] + BAND_PAD), Math.min(h, r[3] + BAND_PAD)];
}

/**
 * What a view shifted by (dx, dy) whole device pixels from a drawing of w×h shows that the
 * drawing does not: a band of |dy| rows at the top or bottom and a strip of |dx| columns at the
 * left or right of the rest. Empty when the view did not move; null when nothing is left to keep.
 */
export function exposedRects(w: number, h: number, dx: number, dy: number): DeviceRect[] | null {
  if (Math.abs(dx) >= w || Math.abs(dy) >= h) return null;
  const out: DeviceRect[] = [];
  let ky0 = 0;
  let ky1 = h;
  if (dy > 0) out.push([0, 0, w, (ky0 = dy)]);
  else if (dy < 0) out.push([0, (ky1 = h + dy), w, h]);
  if (dx > 0) out.push([0, ky0, dx, ky1]);
  else if (dx < 0) out.push([w + dx, ky0, w, ky1]);
  return out;
}
