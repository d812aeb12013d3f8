/**
 * Where the canvas's labels go, so that no two overlap (issue #42 item 8: on real LTB images the
 * labels of neighbouring words, and the long "93.0 % of its area lies in don't-care GT 5 …"
 * reasons, were drawn one over the other; PulseBench option labels too, even zoomed in).
 *
 * Greedy placement in screen pixels: labels are taken in order of importance (errors first, then
 * matches, then the rest; scene order within a rank), each tried at a few anchors round its shape
 * — the usual one first (GT above, predictions below, so a GT word and the predicted one read side
 * by side) — then, when no anchor is free, shortened (to about its shape's width, then to a stub)
 * and tried again. A label with no free place is not drawn: the shape's tooltip and the details
 * panel always give the full text. Pure, and the same on the main thread and in the raster
 * workers (both call it with the same inputs and the same font's measures), so every band of a
 * drawing agrees on each label's place.
 */
import type { Rect } from './geometry';

export const LABEL_PX = 12;
/** A label's box height in CSS pixels: the text and 3 px of padding. */
export const LABEL_H = LABEL_PX + 3;
/** Horizontal padding of a label's box (3 px each side of the text). */
const PAD_W = 6;

/** One label to place: its shape's box in screen (CSS) pixels, its side, its text and its rank. */
export interface LabelInput {
  box: Rect;
  gt: boolean;
  raw: string;
  /** Lower ranks are placed first (labelRank). */
  rank: number;
}

/** A placed label: the text drawn (maybe shortened), its width (text only), its box's top left and height. */
export interface PlacedLabel {
  text: string;
  width: number;
  lx: number;
  ly: number;
  h: number;
  /** Whether the text was shortened to fit (the full text is in the tooltip). */
  short: boolean;
}

export type MeasureLabel = (raw: string) => { text: string; width: number };

/** Placement order: FN / FP first (what a reviewer looks for), then matches, then the rest. */
export function labelRank(state: string): number {
  return state === 'fn' || state === 'fp' ? 0 : state === 'tp' || state === 'info' ? 1 : 2;
}

/** The shapes's box in screen pixels at view `t` (scale, then offset, as Konva's layer transform). */
export function screenBox(b: Rect, t: { scale: number; x: number; y: number }): Rect {
  return { x0: b.x0 * t.scale + t.x, y0: b.y0 * t.scale + t.y, x1: b.x1 * t.scale + t.x, y1: b.y1 * t.scale + t.y };
}

/** `raw` cut to its first `n` characters (code points, so no surrogate half is drawn) and "…". */
export function shortened(raw: string, n: number): string {
  const chars = [...raw];
  return chars.length <= n ? raw : `${chars.slice(0, Math.max(1, n)).join('').trimEnd()}…`;
}

/** The texts tried for a label, longest first: whole, about its shape's width, then a stub. */
function variants(raw: string, fullWidth: number, boxWidth: number): string[] {
  const n = [...raw].length;
  const out = [raw];
  const lengths = [Math.floor((n * Math.max(boxWidth, 40)) / Math.max(fullWidth, 1)), 12, 6];
  for (const k of lengths) if (k >= 3 && k < n - 1 && !out.some((t) => [...t].length - 1 === k)) out.push(shortened(raw, k));
  return out;
}

/** The anchors tried for a label w wide, in order: the usual side, the other side, the right-aligned ones, inside. */
function anchors(b: Rect, gt: boolean, w: number): [number, number][] {
  const left = Math.round(b.x0);
  const right = Math.round(b.x1) - w;
  const above = Math.round(b.y0) - LABEL_H - 1;
  const below = Math.round(b.y1) + 2;
  const inside = gt ? Math.round(b.y0) + 1 : Math.round(b.y1) - LABEL_H - 1;
  const [first, second] = gt ? [above, below] : [below, above];
  const out: [number, number][] = [[left, first], [left, second]];
  if (right > left) out.push([right, first], [right, second]);
  if (b.y1 - b.y0 >= LABEL_H + 2) out.push([left, inside]);
  return out;
}

const CELL = 64;

/** The placed boxes, bucketed by 64-px cells so that a test looks only at its neighbours. */
class Occupied {
  private cells = new Map<number, Rect[]>();

  private static key(cx: number, cy: number): number {
    return (cx + 32768) * 65536 + (cy + 32768);
  }

  private span(r: Rect): [number, number, number, number] {
    return [Math.floor(r.x0 / CELL), Math.floor(r.y0 / CELL), Math.floor((r.x1 - 1) / CELL), Math.floor((r.y1 - 1) / CELL)];
  }

  free(r: Rect): boolean {
    const [a, b, c, d] = this.span(r);
    for (let cx = a; cx <= c; cx++)
      for (let cy = b; cy <= d; cy++) {
        const list = this.cells.get(Occupied.key(cx, cy));
        if (list) for (const o of list) if (boxesOverlap(o, r)) return false;
      }
    return true;
  }

  add(r: Rect): void {
    const [a, b, c, d] = this.span(r);
    for (let cx = a; cx <= c; cx++)
      for (let cy = b; cy <= d; cy++) {
        const k = Occupied.key(cx, cy);
        const list = this.cells.get(k);
        if (list) list.push(r);
        else this.cells.set(k, [r]);
      }
  }
}

/** Whether two half-open boxes share any pixel (touching edges do not). */
export function boxesOverlap(a: Rect, b: Rect): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/** The box a placed label covers, in screen pixels (what no other label may share). */
export function labelBox(p: PlacedLabel): Rect {
  return { x0: p.lx, y0: p.ly, x1: p.lx + p.width + PAD_W, y1: p.ly + p.h };
}

/**
 * Places `inputs`' labels without overlap: the result is parallel to `inputs`, null for a label
 * not drawn (empty, or no free place even shortened). `measure` gives the text as drawn and its
 * width in CSS pixels (draw.ts measureLabel, cached per text).
 */
export function placeLabels(inputs: readonly LabelInput[], measure: MeasureLabel): (PlacedLabel | null)[] {
  const out: (PlacedLabel | null)[] = inputs.map(() => null);
  const order = inputs.map((_, i) => i).filter((i) => inputs[i].raw !== '');
  order.sort((a, b) => inputs[a].rank - inputs[b].rank || a - b);
  const taken = new Occupied();
  for (const i of order) {
    const { box, gt, raw } = inputs[i];
    const full = measure(raw);
    let placed: PlacedLabel | null = null;
    for (const text of variants(raw, full.width, box.x1 - box.x0)) {
      const m = text === raw ? full : measure(text);
      const w = m.width + PAD_W;
      for (const [lx, ly] of anchors(box, gt, w)) {
        const r = { x0: lx, y0: ly, x1: lx + w, y1: ly + LABEL_H };
        if (!taken.free(r)) continue;
        taken.add(r);
        placed = { text: m.text, width: m.width, lx, ly, h: LABEL_H, short: text !== raw };
        break;
      }
      if (placed) break;
    }
    out[i] = placed;
  }
  return out;
}
