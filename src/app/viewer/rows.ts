/** The rows of the instance panel: every GT instance and prediction of a pane, shapeless ones too. */
import type { Instance } from '../../core/model';
import { instanceKey, type PaneView, type Side } from '../canvas/scene';

/** The view name of a case's GT when no model is loaded (the app's GT-only workspace): it has no predictions section. */
export const GT_ONLY_VIEW = 'ground truth';

export interface PanelRow {
  key: string;
  view: number;
  model: string;
  side: Side;
  inst: Instance;
  hasShape: boolean;
}

export interface PanelSection {
  title: string;
  rows: PanelRow[];
}

/**
 * GT once (from the first view of the pane, as the canvas draws it), then each model's predictions.
 * `gtStatesOf` names the model the GT states belong to in the heading (side by side, where the
 * other model's GT states differ and are only on its own pane).
 */
export function panelSections(pane: readonly PaneView[], gtStatesOf?: string): PanelSection[] {
  const out: PanelSection[] = [];
  const row = (v: PaneView, side: Side, inst: Instance): PanelRow => ({
    key: instanceKey(v.index, side, inst.id),
    view: v.index,
    model: v.model,
    side,
    inst,
    hasShape: inst.shape !== undefined,
  });
  const first = pane[0];
  if (!first) return out;
  out.push({ title: `Ground truth (${first.record.gt.length})${gtStatesOf ? ` — states vs ${gtStatesOf}` : ''}`, rows: first.record.gt.map((g) => row(first, 'gt', g)) });
  for (const v of pane) if (v.model !== GT_ONLY_VIEW) out.push({ title: `Predictions — ${v.model} (${v.record.pred.length})`, rows: v.record.pred.map((p) => row(v, 'pred', p)) });
  return out;
}

export const ROW_HEIGHT = 54;
export const HEADER_HEIGHT = 28;

export interface FlatEntry {
  key: string;
  top: number;
  height: number;
  title?: string;
  row?: PanelRow;
}

/** Sections as one list of positioned entries (headers and rows) for the windowed panel. */
export function flattenSections(sections: readonly PanelSection[]): { entries: FlatEntry[]; total: number } {
  const entries: FlatEntry[] = [];
  let top = 0;
  sections.forEach((s, i) => {
    entries.push({ key: `h${i}`, top, height: HEADER_HEIGHT, title: s.title });
    top += HEADER_HEIGHT;
    for (const row of s.rows) {
      entries.push({ key: row.key, top, height: ROW_HEIGHT, row });
      top += ROW_HEIGHT;
    }
  });
  return { entries, total: top };
}

/** The [from, to) slice of entries overlapping the scrolled viewport, plus `overscan` either side. */
export function visibleRange(entries: readonly FlatEntry[], scrollTop: number, height: number, overscan = 0): [number, number] {
  // Binary search for the first entry ending below scrollTop.
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid].top + entries[mid].height <= scrollTop) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  while (end < entries.length && entries[end].top < scrollTop + height) end++;
  return [Math.max(0, lo - overscan), Math.min(entries.length, end + overscan)];
}
