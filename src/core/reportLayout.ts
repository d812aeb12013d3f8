/**
 * How a benchmark's report is laid out on the page, as plain data (structured-cloneable, so the
 * worker sends it with the opened dataset and the page bundle never imports an adapter). One
 * report view renders any layout; a new benchmark describes its tables, unit selector and plots
 * here and needs no page code.
 *
 * Metric keys are written as patterns: `{row}`, `{col}`, `{unit}`, `{group}`, `{x}` are replaced
 * by the row / column / unit / bar group key / x value; `{prefix}` by a section's prefix.
 */
import type { Report } from './report';

/** One row (or bar group, or unit) of a layout: the key it fills into patterns and its label. */
export interface LayoutItem {
  key: string;
  label: string;
  /** Tooltip (e.g. the split's file name). */
  title?: string;
  /** Drawn as a summary row (bold, rule above). */
  summary?: boolean;
  /** Other facet values the case list may use for this item (Chronicles: 甲骨文 for oracle_bone). */
  facetValues?: string[];
}

/** Rows given in the layout, or every middle segment of `<prefix>/<value>/…` keys in the report. */
export type LayoutRows = LayoutItem[] | { fromPrefix: string };

export interface LayoutColumn {
  /** Filled into the cell's key pattern as `{col}`. */
  key: string;
  label: string;
  title?: string;
  /** Facet values a cell click may filter on instead of the key (TABench: R2T for r2t/accuracy). */
  facetValues?: string[];
}

export type ReportSection =
  /** One row per metric key, one column per model (most official sheets). */
  | { kind: 'keys'; caption: string; rows: LayoutItem[]; decimals?: number }
  /**
   * Rows × columns of one model, the cell key `pattern` (default `{row}/{col}`); with `perModel`
   * 'colgroup' every model gets a group of columns in one table, with 'table' a table of its own
   * (caption `{model}` replaced). `hideEmptyRows`: rows no model reports are left out.
   */
  | {
      kind: 'grid';
      caption: string;
      /** Caption when the protocol has this option set (`{value}` replaced by it). */
      captionWhenOption?: { option: string; caption: string };
      corner: string;
      rows: LayoutRows;
      columns: LayoutColumn[];
      pattern?: string;
      perModel: 'colgroup' | 'table';
      hideEmptyRows?: boolean;
      decimals?: number;
      /**
       * A row whose `counts` keys (patterns with `{row}`) are all 0 for a model measures nothing
       * (LTB: a split with gt 0 and pred 0, where MMOCR reports 100): its `columns` show "—" with
       * the counts on the page; report.json keeps the official numbers.
       */
      emptyRow?: { counts: string[]; columns: string[] };
      /**
       * Case-table facets a row may list the cases of (its key, or one of its facetValues, a value
       * of one): the row's name becomes a link, and a click on a cell lists that model's cases.
       */
      rowFacets?: string[];
      /** Case-table facets a column key may be a value of (Chronicles: the task): a cell click filters on it too. */
      columnFacets?: string[];
    }
  /** A table the dataset itself ships (PulseBench's results/ leaderboard), beside the models. */
  | { kind: 'leaderboard'; caption: string; columns: { col: string; key: string }[] };

/**
 * The unit the diagnostics, the score distribution and the threshold curve are shown for: LTB's
 * split, gansulishuzhi's IoU threshold, Chronicles' script. `key` is the unit's report key (the
 * key of `diagnostics.errors`); `caseUnit` the unit the per-case fields (`error`, score) belong to.
 */
export interface UnitSelector {
  label: string;
  units: LayoutItem[];
  default: string;
  /** The protocol option that chooses the cases' unit (LTB case_split), if any. */
  caseOption?: string;
  /**
   * The protocol option that pins the cases' score threshold (LTB case_threshold); unset, the
   * cases are at the unit's best threshold, where `diagnostics.errors` is.
   */
  caseThresholdOption?: string;
  /** The unit the cases show when that option is unset: the first of these the report has. */
  caseUnits: string[];
  /**
   * Facets of the case table that pick a unit's cases out of the case unit's (Chronicles: the
   * script of `oracle_bone/spotting` within `all/spotting`); tried with the unit's key, its first
   * segment, then its facetValues.
   */
  unitFacets?: string[];
}

export type PlotSpec =
  /**
   * Grouped bars: one group per item, one bar per model, value `metric` with `{group}` filled.
   * `facetKeys`: the case-table facets a bar click may filter on (the group key, or one of its
   * facetValues, must be a value of it).
   */
  | {
      kind: 'bars';
      title: string;
      metric: string;
      groups: LayoutRows;
      facetKeys?: string[];
      format?: string;
      /**
       * Count keys (patterns with `{group}`) that, all 0 for a model, mean its group measures
       * nothing (LTB: a split with gt 0 and pred 0, where MMOCR reports hmean 100): the bar is
       * drawn as "no data", as the grid's `emptyRow` shows "—", never as the official 100.
       */
      emptyGroup?: string[];
    }
  /**
   * A metric against a swept threshold, per model, for the selected unit: value `metric` with
   * `{unit}` and `{x}` (x as `x.toFixed(1)`), the best x marked from `best`. A click on a point
   * sets the protocol option `pointOption` to `{unit}` and `pointXOption` to x (the cases of
   * that unit at that threshold) when given.
   */
  | { kind: 'curve'; title: string; metric: string; xs: number[]; best?: string; xLabel: string; pointOption?: string; pointXOption?: string }
  /** The distribution of per-case scores (`case.score`), per model, with clickable bins. */
  | { kind: 'score-histogram'; title: string; scoreLabel: string; bins: number };

export interface ReportLayout {
  /** Metrics always shown in the "score with my GT corrections" comparison. */
  headlines: string[];
  sections: ReportSection[];
  units?: UnitSelector;
  plots: PlotSpec[];
}

/** `pattern` with every `{name}` replaced from `vars` (unknown names are left as they are). */
export function fillKey(pattern: string, vars: Record<string, string>): string {
  return pattern.replace(/\{(\w+)\}/g, (m, name: string) => vars[name] ?? m);
}

/** The rows of a layout: the given ones, or the distinct middle segments of `<prefix>/<value>/…` keys. */
export function resolveRows(rows: LayoutRows, report: Report): LayoutItem[] {
  if (Array.isArray(rows)) return rows;
  const prefix = rows.fromPrefix + '/';
  const out = new Set<string>();
  for (const m of Object.values(report.models)) {
    for (const k of Object.keys(m.metrics)) {
      if (!k.startsWith(prefix)) continue;
      const rest = k.slice(prefix.length);
      const i = rest.indexOf('/');
      if (i > 0) out.add(rest.slice(0, i));
    }
  }
  return [...out].sort().map((v) => ({ key: v, label: v }));
}

/** The cell key of a grid section for one row and column. */
export function gridKey(section: Extract<ReportSection, { kind: 'grid' }>, row: string, col: string): string {
  const prefix = Array.isArray(section.rows) ? '' : section.rows.fromPrefix;
  return fillKey(section.pattern ?? (prefix ? '{prefix}/{row}/{col}' : '{row}/{col}'), { prefix, row, col });
}

/** The rows a grid shows: without `hideEmptyRows` all, else those with a value for some model and column. */
export function gridRows(section: Extract<ReportSection, { kind: 'grid' }>, report: Report): LayoutItem[] {
  const rows = resolveRows(section.rows, report);
  if (!section.hideEmptyRows) return rows;
  const models = Object.values(report.models);
  return rows.filter((r) => section.columns.some((c) => models.some((m) => gridKey(section, r.key, c.key) in m.metrics)));
}

/** The caption a grid shows under the report's protocol. */
export function gridCaption(section: Extract<ReportSection, { kind: 'grid' }>, report: Report): string {
  const w = section.captionWhenOption;
  const v = w ? report.protocol.options[w.option] : undefined;
  return w && v !== undefined && v !== '' ? fillKey(w.caption, { value: String(v) }) : section.caption;
}

/** The units a report has: those of the layout for which some model reports a metric or diagnostics. */
export function presentUnits(layout: ReportLayout, report: Report): LayoutItem[] {
  const sel = layout.units;
  if (!sel) return [];
  const models = Object.values(report.models);
  const hasDiagnostics = (m: Report['models'][string], key: string) => m.diagnostics?.errors !== undefined && key in m.diagnostics.errors;
  return sel.units.filter((u) => models.some((m) => Object.keys(m.metrics).some((k) => k === u.key || k.startsWith(u.key + '/')) || hasDiagnostics(m, u.key)));
}

/**
 * The unit the cases of `report` belong to: the protocol's case option when set, else the
 * layout's default case unit.
 */
export function caseUnitOf(layout: ReportLayout, report: Report): string | null {
  const sel = layout.units;
  if (!sel) return null;
  const v = sel.caseOption ? report.protocol.options[sel.caseOption] : undefined;
  if (typeof v === 'string' && v !== '') return v;
  const present = new Set(presentUnits(layout, report).map((u) => u.key));
  return sel.caseUnits.find((u) => present.has(u)) ?? sel.caseUnits[0] ?? null;
}

/**
 * The counts that make a grid row empty for one model ({ gt: 0, pred: 0 }), or null when it is
 * not: see `emptyRow`.
 */
export function emptyRowCounts(section: Extract<ReportSection, { kind: 'grid' }>, metrics: Readonly<Record<string, number>> | undefined, row: string): Record<string, number> | null {
  return section.emptyRow ? zeroCounts(section.emptyRow.counts, { row }, metrics) : null;
}

/** The same for a group of a bar plot (`emptyGroup`): { gt: 0, pred: 0 } when it has no data. */
export function emptyGroupCounts(plot: Extract<PlotSpec, { kind: 'bars' }>, metrics: Readonly<Record<string, number>> | undefined, group: string): Record<string, number> | null {
  return plot.emptyGroup ? zeroCounts(plot.emptyGroup, { group }, metrics) : null;
}

/** Every count key 0 → those counts by their last segment; any other value (or absent) → null. */
function zeroCounts(patterns: readonly string[], vars: Record<string, string>, metrics: Readonly<Record<string, number>> | undefined): Record<string, number> | null {
  if (!metrics || patterns.length === 0) return null;
  const out: Record<string, number> = {};
  for (const pattern of patterns) {
    const key = fillKey(pattern, vars);
    if (metrics[key] !== 0) return null;
    out[key.slice(key.lastIndexOf('/') + 1)] = 0;
  }
  return out;
}

/** "gt 0, pred 0": the counts that make a row or group empty, as the page says them. */
export function countsText(counts: Readonly<Record<string, number>>): string {
  return Object.entries(counts)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
}
