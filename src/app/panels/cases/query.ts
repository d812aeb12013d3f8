/**
 * The case list's filter / sort / count engine: pure functions over the CaseTable columns, so
 * 25,000 cases × several models are filtered without ever building one object per case.
 *
 * Filters combine as in faceted search: values of one dimension are OR-ed (task = parsing or
 * spotting), dimensions are AND-ed. The count shown beside a value is the number of cases that
 * would match if that value were the dimension's only selection, i.e. the count under every
 * *other* active filter — so ticking a second value never makes the first one's count collapse.
 */
import { OUTCOME_CODES, type CaseTable, type ModelColumns } from '../../../core/caseTable';
import { REVIEW_STATUSES, type ReviewStatus } from '../../../core/qa';

export type OutcomeName = (typeof OUTCOME_CODES)[number];
export type ModelSlot = 'a' | 'b';
/** What a model filter is set on: a slot of the compared pair, or any loaded model by name. */
export type FilterTarget = ModelSlot | { model: string };

/** Filters on one model of the compared pair. */
export interface ModelFilter {
  /** Empty = any outcome. */
  outcomes: OutcomeName[];
  /** Empty = any; else the case must carry at least one of these error kinds for the model. */
  errorKinds: string[];
  /** Inclusive score range; null = any. A case without a score never falls inside a range. */
  score: [number, number] | null;
}

/** `disagreement`: the spread of scores over ALL loaded models (scoreSpread), not only A and B. */
export type SortKey = 'table' | 'id' | 'score' | 'disagreement' | 'misses' | 'fp';

export interface SortSpec {
  key: SortKey;
  dir: 'asc' | 'desc';
}

export interface CaseQuery {
  /** Facet key → selected values; an absent key or an empty list means "any". */
  facets: Record<string, string[]>;
  /** The compared pair; filters and sort keys of a slot whose model is null (or unknown) do nothing. */
  models: Record<ModelSlot, string | null>;
  filter: Record<ModelSlot, ModelFilter>;
  /**
   * Filters on any loaded model by name (issue 13), AND-ed with each other and with the pair's;
   * a model the table does not have filters nothing. Absent = none.
   */
  byModel?: Record<string, ModelFilter>;
  /** Space-separated terms; every term must occur in the case id, a facet value (task, script …) or the search text. */
  search: string;
  sort: SortSpec;
  /** Review statuses of model A's result to keep (OR-ed); absent or empty = any. */
  review?: ReviewStatus[];
}

export interface QueryResult {
  /** Matching row indices, in display order. */
  rows: Uint32Array;
  /** Facet key → count per value code (same order as FacetColumn.values). */
  facetCounts: Record<string, Uint32Array>;
  /** Per slot: count per OutcomeCode (index into OUTCOME_CODES); all zero when the slot is empty. */
  outcomeCounts: Record<ModelSlot, Uint32Array>;
  /** Per slot: count per error kind of that model (same order as ModelColumns.errorKinds). */
  errorCounts: Record<ModelSlot, Uint32Array>;
  /**
   * Per model of the table (filtered or not, so the sidebar can show counts for every shown model):
   * its outcome and error counts under the other filters, as for a slot.
   */
  byModel: Record<string, { outcomeCounts: Uint32Array; errorCounts: Uint32Array }>;
  /** Count per review status of model A (index into REVIEW_STATUSES); all zero without model A. */
  reviewCounts: Uint32Array;
}

/**
 * Model A's review status per row as an index into REVIEW_STATUSES (0 = unreviewed), built from
 * the live review map (src/app/qa/useReviews.ts, keys `${model}\0${case_id}`). Cost: one pass
 * over the reviews, not over the cases.
 */
export function reviewStatusColumn(table: CaseTable, model: string | null, reviews: ReadonlyMap<string, { model: string; case_id: string; status: ReviewStatus }>): Uint8Array {
  const codes = new Uint8Array(table.caseIds.length);
  if (!model) return codes;
  for (const r of reviews.values()) {
    if (r.model !== model) continue;
    const row = rowOfCase(table, r.case_id);
    const code = REVIEW_STATUSES.indexOf(r.status);
    if (row >= 0 && code > 0) codes[row] = code;
  }
  return codes;
}

export const EMPTY_MODEL_FILTER: ModelFilter = Object.freeze({ outcomes: [], errorKinds: [], score: null }) as ModelFilter;

export function emptyQuery(): CaseQuery {
  return {
    facets: {},
    models: { a: null, b: null },
    filter: { a: { outcomes: [], errorKinds: [], score: null }, b: { outcomes: [], errorKinds: [], score: null } },
    byModel: {},
    search: '',
    sort: { key: 'table', dir: 'asc' },
    review: [],
  };
}

/** The filter a target has in a query (the empty filter when none is set). */
export function filterOf(q: Pick<CaseQuery, 'filter' | 'byModel'>, target: FilterTarget): ModelFilter {
  return typeof target === 'string' ? q.filter[target] : (q.byModel?.[target.model] ?? EMPTY_MODEL_FILTER);
}

/** A target's outcome and error counts in a result; undefined when it filters nothing (no such model). */
export function countsOf(r: QueryResult, target: FilterTarget): { outcomeCounts: Uint32Array; errorCounts: Uint32Array } | undefined {
  return typeof target === 'string' ? { outcomeCounts: r.outcomeCounts[target], errorCounts: r.errorCounts[target] } : r.byModel[target.model];
}

export function outcomeCode(name: OutcomeName): number {
  return OUTCOME_CODES.indexOf(name);
}

/**
 * What search matches besides a case's texts, lower-cased, built once per table: the case id and
 * the row's facet values — its task, script, category, split … (issue #42: "T2R" found 0 of the
 * 32 T2R cases, as the task is a facet, not part of the id).
 */
const searchKeys = new WeakMap<CaseTable, string[]>();
export function rowSearchKeys(table: CaseTable): string[] {
  let keys = searchKeys.get(table);
  if (!keys) {
    keys = table.caseIds.map((id, row) => {
      let k = id;
      for (const col of table.facets) for (let j = col.offsets[row]; j < col.offsets[row + 1]; j++) k += `\u0000${col.values[col.codes[j]]}`;
      return k.toLowerCase();
    });
    searchKeys.set(table, keys);
  }
  return keys;
}

/** id → row index, built once per table. */
const rowIndexes = new WeakMap<CaseTable, Map<string, number>>();
export function rowOfCase(table: CaseTable, caseId: string): number {
  let index = rowIndexes.get(table);
  if (!index) {
    index = new Map(table.caseIds.map((id, i) => [id, i]));
    rowIndexes.set(table, index);
  }
  return index.get(caseId) ?? -1;
}

/** One filter dimension compiled to typed lookups; `counted` dimensions get value counts. */
interface FacetDim {
  kind: 'facet';
  key: string;
  offsets: Uint32Array;
  codes: Uint32Array;
  selected: Uint8Array | null; // per value code; null = no filter on this facet
  counts: Uint32Array;
}

interface ModelDims {
  cols: ModelColumns;
  /** Dimension ids of this model's outcome and error filters (see DIM_* below). */
  outcomeDim: number;
  errorDim: number;
  outcomeSelected: Uint8Array | null; // per OutcomeCode
  errorSelected: number; // bitmask over cols.errorKinds; 0 = no filter (or no known kind selected)
  errorFilterActive: boolean;
  score: [number, number] | null;
  outcomeCounts: Uint32Array;
  errorCounts: Uint32Array;
}

function modelDims(table: CaseTable, model: string | null, f: ModelFilter, index: number): ModelDims | null {
  const cols = model ? table.perModel[model] : undefined;
  if (!cols) return null;
  let outcomeSelected: Uint8Array | null = null;
  if (f.outcomes.length > 0) {
    outcomeSelected = new Uint8Array(OUTCOME_CODES.length);
    for (const o of f.outcomes) {
      const c = outcomeCode(o);
      if (c >= 0) outcomeSelected[c] = 1;
    }
  }
  let errorSelected = 0;
  for (const k of f.errorKinds) {
    const bit = cols.errorKinds.indexOf(k);
    if (bit >= 0 && bit < 32) errorSelected |= 1 << bit;
  }
  return {
    cols,
    outcomeDim: DIM_MODEL_BASE - 2 * index,
    errorDim: DIM_MODEL_BASE - 2 * index - 1,
    outcomeSelected,
    errorSelected: errorSelected >>> 0,
    errorFilterActive: f.errorKinds.length > 0,
    score: f.score,
    outcomeCounts: new Uint32Array(OUTCOME_CODES.length),
    errorCounts: new Uint32Array(cols.errorKinds.length),
  };
}

// Dimension ids, used to remember which single dimension a row fails: facets are 0..F-1.
// Model k of the filtered models (A, B, then byModel) has outcome DIM_MODEL_BASE − 2k, errors one less.
const DIM_REVIEW = -5;
const DIM_UNCOUNTED = -1; // score range and text search: filters with no value counts
const DIM_MODEL_BASE = -10;

/**
 * Filters, counts and sorts in one pass over the rows. Cost: O(rows × (facet values + models))
 * plus one sort of the matching rows. `reviewStatus` is model A's status per row
 * (reviewStatusColumn); without it (or for another table's length) every case is unreviewed.
 */
export function runQuery(table: CaseTable, q: CaseQuery, reviewStatus: Uint8Array | null = null): QueryResult {
  const n = table.caseIds.length;
  const facets: FacetDim[] = table.facets.map((col) => {
    const wanted = q.facets[col.key];
    let selected: Uint8Array | null = null;
    if (wanted && wanted.length > 0) {
      selected = new Uint8Array(col.values.length);
      for (const v of wanted) {
        const c = col.values.indexOf(v);
        if (c >= 0) selected[c] = 1;
      }
    }
    return { kind: 'facet', key: col.key, offsets: col.offsets, codes: col.codes, selected, counts: new Uint32Array(col.values.length) };
  });
  const a = modelDims(table, q.models.a, q.filter.a, 0);
  const b = modelDims(table, q.models.b, q.filter.b, 1);
  // A and B first, then every model of the table by name (its filter, or none, counted either way).
  const named: [string, ModelDims][] = [];
  for (const model of table.models) {
    const d = modelDims(table, model, q.byModel?.[model] ?? EMPTY_MODEL_FILTER, 2 + named.length);
    if (d) named.push([model, d]);
  }
  const dims: ModelDims[] = [...(a ? [a] : []), ...(b ? [b] : []), ...named.map(([, d]) => d)];
  // Only dimensions that filter are checked per row; every one of them counts.
  const filtering = dims.filter((d) => d.outcomeSelected || d.errorFilterActive || d.score);
  const terms = q.search.toLowerCase().split(/\s+/).filter(Boolean);
  const ids = terms.length > 0 ? rowSearchKeys(table) : null;
  // Review status is a dimension of model A's result; without model A it neither filters nor counts.
  const status = reviewStatus && reviewStatus.length === n ? reviewStatus : new Uint8Array(n);
  const reviewCounts = new Uint32Array(REVIEW_STATUSES.length);
  let reviewSelected: Uint8Array | null = null;
  if (a && q.review && q.review.length > 0) {
    reviewSelected = new Uint8Array(REVIEW_STATUSES.length);
    for (const st of q.review) {
      const c = REVIEW_STATUSES.indexOf(st);
      if (c >= 0) reviewSelected[c] = 1;
    }
  }

  const out = new Uint32Array(n);
  let matched = 0;
  for (let i = 0; i < n; i++) {
    // Count failing dimensions; stop caring once two fail (such a row counts nowhere).
    let fails = 0;
    let failDim = 0;
    for (let d = 0; d < facets.length && fails < 2; d++) {
      const f = facets[d];
      if (!f.selected) continue;
      let hit = false;
      for (let j = f.offsets[i], end = f.offsets[i + 1]; j < end; j++) {
        if (f.selected[f.codes[j]]) {
          hit = true;
          break;
        }
      }
      if (!hit) {
        fails++;
        failDim = d;
      }
    }
    for (let k = 0; k < filtering.length && fails < 2; k++) {
      const m = filtering[k];
      if (m.outcomeSelected && !m.outcomeSelected[m.cols.outcome[i]]) {
        fails++;
        failDim = m.outcomeDim;
      }
      if (m.errorFilterActive && (m.cols.errorMask[i] & m.errorSelected) === 0) {
        fails++;
        failDim = m.errorDim;
      }
      if (m.score && !inRange(m.cols.score[i], m.score)) {
        fails++;
        failDim = DIM_UNCOUNTED;
      }
    }
    if (fails < 2 && reviewSelected && !reviewSelected[status[i]]) {
      fails++;
      failDim = DIM_REVIEW;
    }
    if (fails < 2 && ids) {
      const text = table.searchText[i] ?? '';
      const id = ids[i];
      for (const t of terms) {
        if (!text.includes(t) && !id.includes(t)) {
          fails++;
          failDim = DIM_UNCOUNTED;
          break;
        }
      }
    }
    if (fails >= 2 || (fails === 1 && failDim === DIM_UNCOUNTED)) continue;
    if (fails === 0) out[matched++] = i;
    // A row that passes everything counts in every dimension; one that fails exactly one
    // dimension counts only there (it would match if that dimension's selection changed).
    for (let d = 0; d < facets.length; d++) {
      if (fails === 1 && failDim !== d) continue;
      const f = facets[d];
      for (let j = f.offsets[i], end = f.offsets[i + 1]; j < end; j++) f.counts[f.codes[j]]++;
    }
    if (a && (fails === 0 || failDim === DIM_REVIEW)) reviewCounts[status[i]]++;
    for (let k = 0; k < dims.length; k++) {
      const m = dims[k];
      if (fails === 0 || failDim === m.outcomeDim) m.outcomeCounts[m.cols.outcome[i]]++;
      if (fails === 0 || failDim === m.errorDim) countBits(m.cols.errorMask[i], m.errorCounts);
    }
  }
  const rows = sortRows(table, out.slice(0, matched), q);
  const facetCounts: Record<string, Uint32Array> = {};
  for (const f of facets) facetCounts[f.key] = f.counts;
  return {
    rows,
    facetCounts,
    outcomeCounts: { a: a?.outcomeCounts ?? new Uint32Array(OUTCOME_CODES.length), b: b?.outcomeCounts ?? new Uint32Array(OUTCOME_CODES.length) },
    errorCounts: { a: a?.errorCounts ?? new Uint32Array(0), b: b?.errorCounts ?? new Uint32Array(0) },
    byModel: Object.fromEntries(named.map(([model, d]) => [model, { outcomeCounts: d.outcomeCounts, errorCounts: d.errorCounts }])),
    reviewCounts,
  };
}

function inRange(score: number, [lo, hi]: [number, number]): boolean {
  return score >= lo && score <= hi; // NaN (no score) is never in range
}

function countBits(mask: number, counts: Uint32Array): void {
  for (let m = mask >>> 0, bit = 0; m !== 0 && bit < counts.length; m >>>= 1, bit++) if (m & 1) counts[bit]++;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Compares strings with digit runs taken as numbers (img_2 < img_10), otherwise by UTF-16 code
 * unit. Several times faster than Intl.Collator, which matters at 25,000 ids.
 */
export function naturalCompare(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    if (isDigit(ca) && isDigit(cb)) {
      // Skip leading zeros, then the longer run is the larger number; equal lengths compare digit-wise.
      let si = i;
      let sj = j;
      while (si < a.length && a.charCodeAt(si) === 48) si++;
      while (sj < b.length && b.charCodeAt(sj) === 48) sj++;
      let ei = si;
      let ej = sj;
      while (ei < a.length && isDigit(a.charCodeAt(ei))) ei++;
      while (ej < b.length && isDigit(b.charCodeAt(ej))) ej++;
      if (ei - si !== ej - sj) return ei - si - (ej - sj);
      for (let k = 0; k < ei - si; k++) {
        const d = a.charCodeAt(si + k) - b.charCodeAt(sj + k);
        if (d !== 0) return d;
      }
      i = ei;
      j = ej;
      continue;
    }
    if (ca !== cb) return ca - cb;
    i++;
    j++;
  }
  return a.length - i - (b.length - j);
}

/** Each row's rank in numeric-aware case id order (img_2 before img_10), computed once per table. */
const idRankCache = new WeakMap<CaseTable, Uint32Array>();
function idRanks(table: CaseTable): Uint32Array {
  let ranks = idRankCache.get(table);
  if (!ranks) {
    const ids = table.caseIds;
    const order = ids.map((_, i) => i).sort((x, y) => naturalCompare(ids[x], ids[y]) || x - y);
    ranks = new Uint32Array(ids.length);
    order.forEach((row, rank) => (ranks![row] = rank));
    idRankCache.set(table, ranks);
  }
  return ranks;
}

/**
 * Orders matching rows. Numeric keys are read into one Float64Array first so the comparator only
 * touches typed arrays; rows without a value (no score, model missing) always go last; ties keep
 * table order so the list never reshuffles between identical queries.
 */
export function sortRows(table: CaseTable, rows: Uint32Array, q: Pick<CaseQuery, 'models' | 'sort'>): Uint32Array {
  const { key, dir } = q.sort;
  if (key === 'table') return dir === 'asc' ? rows : rows.slice().reverse();
  const sign = dir === 'asc' ? 1 : -1;
  const keys = new Float64Array(rows.length);
  const a = q.models.a ? table.perModel[q.models.a] : undefined;
  const ranks = key === 'id' ? idRanks(table) : null;
  const all = key === 'disagreement' ? table.models.map((m) => table.perModel[m]).filter((c): c is ModelColumns => !!c) : [];
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k];
    let v = NaN;
    if (ranks) v = ranks[i];
    else if (key === 'score') v = a ? a.score[i] : NaN;
    else if (key === 'disagreement') v = scoreSpread(all, i);
    else if (key === 'misses') v = a && a.outcome[i] < 3 ? a.misses[i] : NaN;
    else if (key === 'fp') v = a && a.outcome[i] < 3 ? a.falsePositives[i] : NaN;
    // Fold the direction into the key so the comparator is a plain ascending compare.
    keys[k] = Number.isNaN(v) ? Infinity : sign * v;
  }
  const order = new Uint32Array(rows.length);
  for (let k = 0; k < order.length; k++) order[k] = k;
  order.sort((x, y) => keys[x] - keys[y] || x - y);
  const sorted = new Uint32Array(rows.length);
  for (let k = 0; k < order.length; k++) sorted[k] = rows[order[k]];
  return sorted;
}

/**
 * How much the loaded models disagree on a row: the highest score minus the lowest, over every
 * model that has a score there (with two models, |A − B|). NaN when fewer than two have one.
 */
export function scoreSpread(models: readonly ModelColumns[], row: number): number {
  let lo = Infinity;
  let hi = -Infinity;
  let n = 0;
  for (const m of models) {
    const v = m.score[row];
    if (Number.isNaN(v)) continue;
    n++;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return n < 2 ? NaN : hi - lo;
}

/** The filters of "A passes, B fails" (or the reverse) for the current pair, keeping facets and search. */
export function compareFilters(direction: 'a-passes-b-fails' | 'b-passes-a-fails'): Record<ModelSlot, ModelFilter> {
  const pass: ModelFilter = { outcomes: ['pass'], errorKinds: [], score: null };
  const fail: ModelFilter = { outcomes: ['fail'], errorKinds: [], score: null };
  return direction === 'a-passes-b-fails' ? { a: pass, b: fail } : { a: fail, b: pass };
}

/** The pair comparison the filter is exactly (A✓ B✗ or B✓ A✗), null when it is anything else: the toolbar's toggles show it pressed. */
export function compareDirectionOf(filter: Record<ModelSlot, ModelFilter>): 'a-passes-b-fails' | 'b-passes-a-fails' | null {
  const only = (f: ModelFilter, o: OutcomeName) => f.outcomes.length === 1 && f.outcomes[0] === o && f.errorKinds.length === 0 && f.score === null;
  if (only(filter.a, 'pass') && only(filter.b, 'fail')) return 'a-passes-b-fails';
  if (only(filter.a, 'fail') && only(filter.b, 'pass')) return 'b-passes-a-fails';
  return null;
}

/** True when a model filter restricts anything. */
export function isActiveFilter(f: ModelFilter): boolean {
  return f.outcomes.length > 0 || f.errorKinds.length > 0 || f.score !== null;
}

/** True when the query filters anything (the "clear filters" button shows then). */
export function hasFilters(q: CaseQuery): boolean {
  const modelActive = isActiveFilter;
  return (
    Object.values(q.facets).some((v) => v.length > 0) ||
    modelActive(q.filter.a) ||
    modelActive(q.filter.b) ||
    Object.values(q.byModel ?? {}).some(modelActive) ||
    q.search.trim() !== '' ||
    (q.review?.length ?? 0) > 0
  );
}
