/**
 * What the canvas draws, as plain data: one SceneItem per GT instance or prediction that has
 * geometry, in image pixels. Built once per case/compare mode, then drawn by one sceneFunc per
 * layer and hit-tested by hitTest.ts; nothing here touches the DOM.
 */
import type { BenchmarkId, CaseRecord, Instance, InstanceState } from '../../core/model';
import { boundsOf, polygonArea, shapePoints, type Rect } from './geometry';

export type Side = 'gt' | 'pred';

/** A view is one model's record of the case on screen. */
export interface CaseView {
  model: string;
  record: CaseRecord;
}

/** A view placed in a pane, with its index among all views (for model colours and names). */
export interface PaneView extends CaseView {
  index: number;
}

/**
 * The special roles an adapter may give an instance in `attrs.role`:
 * - 'target': the Chronicles Recognition red box (drawn red, never hatched);
 * - 'query': the TABench R2T query box;
 * - 'option': a PulseBench candidate option (drawn with its content and selected state).
 */
export type Role = 'target' | 'query' | 'option' | null;

export interface SceneItem {
  /** Index in Scene.items. */
  key: number;
  /** Which view (model) it comes from. */
  view: number;
  side: Side;
  id: number;
  state: InstanceState;
  role: Role;
  points: number[];
  bounds: Rect;
  area: number;
  /** The label drawn on the canvas (text, challenge tags, selected mark); '' when none. */
  label: string;
  inst: Instance;
}

export interface Scene {
  items: SceneItem[];
  /** Extent of the drawing: the image size when known, else the shapes' bounds. */
  width: number;
  height: number;
}

/**
 * The role of an instance: `attrs.role` when the adapter set one; else a GT `info` instance is
 * the Chronicles Recognition target (drawn red, as the model saw it) or the TABench R2T query box.
 */
export function roleOf(inst: Instance, benchmark?: BenchmarkId, task?: string): Role {
  const r = inst.attrs?.role;
  if (r === 'target' || r === 'query' || r === 'option') return r;
  if (inst.state !== 'info') return null;
  const t = (task ?? '').toLowerCase();
  if (benchmark === 'chronicles' && t === 'recognition') return 'target';
  if (benchmark === 'tabench' && t === 'r2t') return 'query';
  return null;
}

/** The selected flag of a PulseBench option (attrs.selected), null when the instance has none. */
export function selectedOf(inst: Instance): boolean | null {
  const s = inst.attrs?.selected;
  return typeof s === 'boolean' ? s : null;
}

/** The character or text an instance carries: `text`, else Chronicles' `attrs.char`. */
export function textOf(inst: Instance): string | undefined {
  if (typeof inst.text === 'string') return inst.text;
  const c = inst.attrs?.char ?? inst.attrs?.content;
  return typeof c === 'string' ? c : undefined;
}

export function labelOf(inst: Instance): string {
  const parts: string[] = [];
  const sel = selectedOf(inst);
  if (sel !== null) parts.push(sel ? '☑' : '☐');
  const t = textOf(inst);
  if (t) parts.push(t.length > 40 ? `${[...t].slice(0, 40).join('')}…` : t);
  if (inst.tags && inst.tags.length > 0) parts.push(`[${inst.tags.join(', ')}]`);
  return parts.join(' ');
}

function itemsOf(view: number, side: Side, rec: CaseRecord, benchmark: BenchmarkId | undefined, out: SceneItem[]): void {
  const list = side === 'gt' ? rec.gt : rec.pred;
  for (const inst of list) {
    const points = shapePoints(inst.shape);
    const bounds = boundsOf(points);
    if (!bounds) continue;
    out.push({
      key: out.length,
      view,
      side,
      id: inst.id,
      state: inst.state,
      role: side === 'gt' ? roleOf(inst, benchmark, rec.task) : roleOf(inst),
      points,
      bounds,
      area: polygonArea(points),
      label: labelOf(inst),
      inst,
    });
  }
}

/**
 * The scene of one pane. `views` are the models shown in that pane: one in single and
 * side-by-side mode; all of them in overlay mode, where the GT is drawn once (from the first).
 */
export function buildScene(views: readonly PaneView[], benchmark?: BenchmarkId): Scene {
  const items: SceneItem[] = [];
  views.forEach((v, i) => {
    if (i === 0) itemsOf(v.index, 'gt', v.record, benchmark, items);
    itemsOf(v.index, 'pred', v.record, benchmark, items);
  });
  const first = views[0]?.record;
  let width = first?.width ?? 0;
  let height = first?.height ?? 0;
  if (!(width > 0 && height > 0)) {
    for (const it of items) {
      width = Math.max(width, it.bounds.x1);
      height = Math.max(height, it.bounds.y1);
    }
  }
  return { items, width: Math.max(1, width), height: Math.max(1, height) };
}

/** The panes of a compare mode: one per model side by side, else one pane (all models overlaid, or the first). */
export function panesFor(views: readonly CaseView[], compare: 'single' | 'side-by-side' | 'overlay'): PaneView[][] {
  const placed = views.map((v, index) => ({ ...v, index }));
  if (placed.length === 0) return [];
  if (compare === 'side-by-side') return placed.map((v) => [v]);
  if (compare === 'overlay') return [placed];
  return [placed.slice(0, 1)];
}

export const instanceKey = (view: number, side: Side, id: number) => `${view}:${side}:${id}`;

export function countByState(items: readonly SceneItem[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const it of items) out[`${it.side}:${it.state}`] = (out[`${it.side}:${it.state}`] ?? 0) + 1;
  return out;
}

/**
 * The errors (FN and FP) of a case in reading order, top-to-bottom then left-to-right, so
 * "next error" walks the image the way a reviewer reads it; ties keep GT before predictions.
 */
export function errorOrder(items: readonly SceneItem[]): SceneItem[] {
  const errs = items.filter((it) => it.state === 'fn' || it.state === 'fp');
  return errs.sort((a, b) => a.bounds.y0 - b.bounds.y0 || a.bounds.x0 - b.bounds.x0 || (a.side === b.side ? a.id - b.id : a.side === 'gt' ? -1 : 1));
}
