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

/** A row of title, facts and reason, one line each. */
export const ROW_HEIGHT = 54;
export const HEADER_HEIGHT = 28;
/** One line of a row (12 px text). */
export const LINE_HEIGHT = 15;
/** A reason longer than this many characters gets a second line (about a 260 px panel's line). */
export const ONE_LINE_CHARS = 36;

/**
 * How tall a row is: an error class gets two lines of its own ("missed: no prediction within IoU
 * 0.5 …" was cut to "error: missed: no prediction wit…" on the facts line), and a long reason a
 * second line. Rows without either keep ROW_HEIGHT, so a 5,000-row list is as long as before.
 */
export function rowHeight(hasError: boolean, reason: string | null): number {
  return ROW_HEIGHT + (hasError ? 2 * LINE_HEIGHT : 0) + (reason && reason.length > ONE_LINE_CHARS ? LINE_HEIGHT : 0);
}

export interface FlatEntry {
  key: string;
  top: number;
  height: number;
  title?: string;
  row?: PanelRow;
}

/** Sections as one list of positioned entries (headers and rows) for the windowed panel. */
export function flattenSections(sections: readonly PanelSection[], heightOf: (row: PanelRow) => number = () => ROW_HEIGHT): { entries: FlatEntry[]; total: number } {
  const entries: FlatEntry[] = [];
  let top = 0;
  sections.forEach((s, i) => {
    entries.push({ key: `h${i}`, top, height: HEADER_HEIGHT, title: s.title });
    top += HEADER_HEIGHT;
    for (const row of s.rows) {
      const height = heightOf(row);
      entries.push({ key: row.key, top, height, row });
      top += height;
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
