/**
 * The case list's view state as a zustand slice: filters, sort, the compared model pair (A/B),
 * the selected case and list/grid mode. The CaseTable itself is held by reference (its columns
 * are typed arrays, never copied into per-case objects); the filtered rows and the facet counts
 * are derived here, synchronously, on every change (a few ms at 25,000 cases).
 *
 * Compose it into the app store like any slice: `create<AppState>()((...a) => ({ ...createCasesSlice(...a), ... }))`.
 * The same slice alone makes a store (`createStore(createCasesSlice)`) for tests and the harness.
 */
import type { StateCreator } from 'zustand';
import type { ReviewStatus } from '../../core/qa';
import type { CaseTable } from '../../core/caseTable';
import {
  compareDirectionOf,
  compareFilters,
  EMPTY_MODEL_FILTER,
  emptyQuery,
  filterOf,
  isActiveFilter,
  rowOfCase,
  runQuery,
  type CaseQuery,
  type FilterTarget,
  type ModelFilter,
  type ModelSlot,
  type OutcomeName,
  type QueryResult,
  type SortKey,
  type SortSpec,
} from '../panels/cases/query';
import type { CasesUrlState } from '../urlState';

export type CaseViewMode = 'list' | 'grid';
/** How the canvas shows the shown models: the first alone, one pane each, or all in one pane. */
export type CompareMode = 'single' | 'side-by-side' | 'overlay';
/** The page's two views once something is scored: the inspection workspace or the report. */
export type WorkspaceTab = 'workspace' | 'report';

export interface CasesState {
  caseTable: CaseTable | null;
  caseQuery: CaseQuery;
  /** Rows matching caseQuery in display order, with facet / outcome / error counts; null without a table. */
  caseResult: QueryResult | null;
  selectedCaseId: string | null;
  caseView: CaseViewMode;
  /** Model A's review status per row (query.ts reviewStatusColumn); null = nothing reviewed. */
  caseReviewStatus: Uint8Array | null;
  /** Models drawn (overlay / side by side) and given a column in the list; null = every loaded model. */
  shownModels: string[] | null;
  compareMode: CompareMode;
  /** The view the user picked; null = automatic (the report until there are cases, then the workspace). */
  workspaceTab: WorkspaceTab | null;
  /**
   * A view read from a link whose models (or case) are not all loaded yet: re-applied each time a
   * table arrives, so adding the five prediction files one by one still ends on the linked view.
   */
  linkWanted: CasesUrlState | null;
}

export interface CasesActions {
  /** Installs a new table (after scoring); keeps filters that still make sense for it. */
  setCaseTable: (table: CaseTable | null) => void;
  /** Replaces one facet's selection; null (or []) clears it. */
  setFacetFilter: (key: string, value: string | string[] | null) => void;
  toggleFacetValue: (key: string, value: string) => void;
  /** Model filters take a slot of the pair ('a', 'b') or any model by name ({ model }). */
  setOutcomeFilter: (slot: FilterTarget, outcomes: OutcomeName[]) => void;
  toggleOutcome: (slot: FilterTarget, outcome: OutcomeName) => void;
  setErrorFilter: (slot: FilterTarget, kinds: string[]) => void;
  toggleErrorKind: (slot: FilterTarget, kind: string) => void;
  setScoreRange: (slot: FilterTarget, range: [number, number] | null) => void;
  setSearch: (text: string) => void;
  /** A key alone keeps the current direction unless the key changes (then its natural one). */
  setSort: (sort: SortSpec | SortKey) => void;
  setModels: (a: string | null, b: string | null) => void;
  /** "A passes, B fails" (or the reverse) in one click; facets and search stay. */
  compareModels: (direction: 'a-passes-b-fails' | 'b-passes-a-fails') => void;
  clearCaseFilters: () => void;
  selectCase: (caseId: string | null) => void;
  /** Moves the selection within the filtered list; returns the new selection. */
  nextCase: () => string | null;
  previousCase: () => string | null;
  setCaseView: (mode: CaseViewMode) => void;
  /** Installs model A's review statuses (recomputed by the case browser as reviews change). */
  setCaseReviewStatus: (status: Uint8Array | null) => void;
  toggleReviewStatus: (status: ReviewStatus) => void;
  /** Applies state read from the URL hash (see urlState.ts). */
  restoreCasesUrl: (state: CasesUrlState) => void;
  /** Shows or hides one model (at least one stays shown). */
  toggleShownModel: (model: string) => void;
  setShownModels: (models: string[] | null) => void;
  setCompareMode: (mode: CompareMode) => void;
  setWorkspaceTab: (tab: WorkspaceTab | null) => void;
}

export type CasesSlice = CasesState & CasesActions;

/** The natural direction of each sort: worst first for scores, largest first for counts. */
export const DEFAULT_SORT_DIR: Record<SortKey, 'asc' | 'desc'> = {
  table: 'asc',
  id: 'asc',
  score: 'asc',
  disagreement: 'desc',
  misses: 'desc',
  fp: 'desc',
};

/** Pair defaults for a table: keep known names, else the first model and the first other one. */
export function resolveModels(table: CaseTable, wanted: Record<ModelSlot, string | null>): Record<ModelSlot, string | null> {
  const known = (m: string | null) => m !== null && table.models.includes(m);
  const a = known(wanted.a) ? wanted.a : (table.models[0] ?? null);
  const b = known(wanted.b) && wanted.b !== a ? wanted.b : (table.models.find((m) => m !== a) ?? null);
  return { a, b };
}

/**
 * The models on screen, in table order: the chosen ones that the table has, or every model when
 * none is chosen (or none of the chosen is loaded).
 */
export function shownModelsOf(table: Pick<CaseTable, 'models'> | null, shown: readonly string[] | null): string[] {
  if (!table) return [];
  const kept = shown ? table.models.filter((m) => shown.includes(m)) : [];
  return kept.length > 0 ? kept : [...table.models];
}

/** True when a linked view needs nothing more than this table has (its models, its case). */
export function linkSatisfied(table: CaseTable, want: CasesUrlState): boolean {
  const names = [want.models.a, want.models.b, ...(want.shown ?? []), ...(want.needModels ?? []), ...Object.keys(want.byModel ?? {})].filter((m): m is string => !!m);
  if (!names.every((m) => table.models.includes(m))) return false;
  return want.selectedCaseId === null || rowOfCase(table, want.selectedCaseId) >= 0;
}

/** Drops facet keys and values the table does not have, so no invisible filter empties the list. */
export function pruneFacets(table: CaseTable, facets: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const col of table.facets) {
    const kept = (facets[col.key] ?? []).filter((v) => col.values.includes(v));
    if (kept.length > 0) out[col.key] = kept;
  }
  return out;
}

/** Moves `delta` rows from `current` in `rows`; outside the list it starts at the first (or last) row. */
export function stepInRows(table: CaseTable, rows: Uint32Array, current: string | null, delta: number): string | null {
  if (rows.length === 0) return current;
  const row = current === null ? -1 : rowOfCase(table, current);
  const pos = row < 0 ? -1 : rows.indexOf(row);
  const next = pos < 0 ? (delta > 0 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, pos + delta));
  return table.caseIds[rows[next]];
}

export const createCasesSlice: StateCreator<CasesSlice, [], [], CasesSlice> = (set, get) => {
  /** Every query change goes through here so the derived rows never go stale. */
  const update = (patch: (q: CaseQuery) => CaseQuery) => {
    const { caseTable, caseQuery, caseReviewStatus } = get();
    const next = patch(caseQuery);
    // A choice made on a loaded table replaces whatever a link still wanted.
    set({ caseQuery: next, caseResult: caseTable ? runQuery(caseTable, next, caseReviewStatus) : null, ...(caseTable ? { linkWanted: null } : {}) });
  };
  const patchFilter = (slot: FilterTarget, change: Partial<ModelFilter>) =>
    update((q) => {
      if (typeof slot === 'string') return { ...q, filter: { ...q.filter, [slot]: { ...q.filter[slot], ...change } } };
      const byModel = { ...q.byModel, [slot.model]: { ...filterOf(q, slot), ...change } };
      // A model whose filter is back to empty leaves the query (and the URL).
      if (!isActiveFilter(byModel[slot.model])) delete byModel[slot.model];
      return { ...q, byModel };
    });
  const step = (delta: number) => {
    const { caseTable, caseResult, selectedCaseId } = get();
    if (!caseTable || !caseResult) return selectedCaseId;
    const id = stepInRows(caseTable, caseResult.rows, selectedCaseId, delta);
    if (id !== selectedCaseId) set({ selectedCaseId: id });
    return id;
  };

  return {
    caseTable: null,
    caseQuery: emptyQuery(),
    caseResult: null,
    selectedCaseId: null,
    caseView: 'list',
    caseReviewStatus: null,
    shownModels: null,
    compareMode: 'single',
    workspaceTab: null,
    linkWanted: null,

    setCaseTable: (table) => {
      if (!table) {
        set({ caseTable: null, caseResult: null });
        return;
      }
      const { caseQuery, linkWanted: want } = get();
      // A linked view still waiting for its models is applied again, from the link, each time.
      const base = want ? queryOf(want) : caseQuery;
      const selectedCaseId = want ? want.selectedCaseId : get().selectedCaseId;
      const q = { ...base, facets: pruneFacets(table, base.facets), models: resolveModels(table, base.models) };
      // The statuses belonged to the old table's rows; the case browser sends the new ones.
      set({
        caseTable: table,
        caseQuery: q,
        caseReviewStatus: null,
        caseResult: runQuery(table, q),
        selectedCaseId: selectedCaseId !== null && rowOfCase(table, selectedCaseId) >= 0 ? selectedCaseId : null,
        ...(want ? { shownModels: want.shown && want.shown.length > 0 ? [...want.shown] : null, compareMode: want.compare ?? get().compareMode, caseView: want.viewMode } : {}),
        linkWanted: want && !linkSatisfied(table, want) ? want : null,
      });
    },
    setFacetFilter: (key, value) =>
      update((q) => {
        const facets = { ...q.facets };
        const values = value === null ? [] : Array.isArray(value) ? value : [value];
        if (values.length > 0) facets[key] = [...values];
        else delete facets[key];
        return { ...q, facets };
      }),
    toggleFacetValue: (key, value) => {
      const cur = get().caseQuery.facets[key] ?? [];
      get().setFacetFilter(key, cur.includes(value) ? cur.filter((v) => v !== value) : [...cur, value]);
    },
    setOutcomeFilter: (slot, outcomes) => patchFilter(slot, { outcomes: [...outcomes] }),
    toggleOutcome: (slot, outcome) => {
      const cur = filterOf(get().caseQuery, slot).outcomes;
      patchFilter(slot, { outcomes: cur.includes(outcome) ? cur.filter((o) => o !== outcome) : [...cur, outcome] });
    },
    setErrorFilter: (slot, kinds) => patchFilter(slot, { errorKinds: [...kinds] }),
    toggleErrorKind: (slot, kind) => {
      const cur = filterOf(get().caseQuery, slot).errorKinds;
      patchFilter(slot, { errorKinds: cur.includes(kind) ? cur.filter((k) => k !== kind) : [...cur, kind] });
    },
    setScoreRange: (slot, range) => patchFilter(slot, { score: range && range[0] <= range[1] ? [range[0], range[1]] : null }),
    setSearch: (text) => update((q) => ({ ...q, search: text })),
    setSort: (sort) =>
      update((q) => {
        if (typeof sort !== 'string') return { ...q, sort: { ...sort } };
        return { ...q, sort: { key: sort, dir: sort === q.sort.key ? q.sort.dir : DEFAULT_SORT_DIR[sort] } };
      }),
    setModels: (a, b) =>
      update((q) => {
        const table = get().caseTable;
        return { ...q, models: table ? resolveModelsStrict(table, a, b) : { a, b } };
      }),
    // A toggle: pressed again, the comparison is cleared (both slots' filters emptied).
    compareModels: (direction) =>
      update((q) => ({ ...q, filter: compareDirectionOf(q.filter) === direction ? { a: EMPTY_MODEL_FILTER, b: EMPTY_MODEL_FILTER } : compareFilters(direction) })),
    clearCaseFilters: () => update((q) => ({ ...emptyQuery(), models: q.models, sort: q.sort })),
    selectCase: (caseId) => set({ selectedCaseId: caseId }),
    nextCase: () => step(1),
    previousCase: () => step(-1),
    setCaseView: (mode) => set({ caseView: mode }),
    setCaseReviewStatus: (status) => {
      const { caseTable, caseQuery, caseReviewStatus } = get();
      if (status === caseReviewStatus) return; // e.g. still nothing reviewed: no second query
      if (status && caseReviewStatus && status.length === caseReviewStatus.length && status.every((v, i) => v === caseReviewStatus[i])) return;
      set({ caseReviewStatus: status, caseResult: caseTable ? runQuery(caseTable, caseQuery, status) : null });
    },
    toggleReviewStatus: (status) =>
      update((q) => {
        const cur = q.review ?? [];
        return { ...q, review: cur.includes(status) ? cur.filter((s) => s !== status) : [...cur, status] };
      }),
    restoreCasesUrl: (s) => {
      const table = get().caseTable;
      const base = queryOf(s);
      const q: CaseQuery = { ...base, facets: table ? pruneFacets(table, s.facets) : s.facets, models: table ? resolveModels(table, s.models) : s.models };
      set({
        caseQuery: q,
        caseResult: table ? runQuery(table, q, get().caseReviewStatus) : null,
        selectedCaseId: table && s.selectedCaseId !== null && rowOfCase(table, s.selectedCaseId) < 0 ? null : s.selectedCaseId,
        caseView: s.viewMode,
        shownModels: s.shown && s.shown.length > 0 ? [...s.shown] : null,
        compareMode: s.compare ?? 'single',
        workspaceTab: s.tab ?? null,
        linkWanted: table && linkSatisfied(table, s) ? null : s,
      });
    },
    toggleShownModel: (model) => {
      const { caseTable, shownModels } = get();
      const cur = shownModelsOf(caseTable, shownModels);
      const next = cur.includes(model) ? cur.filter((m) => m !== model) : [...cur, model];
      if (next.length === 0) return; // one model always stays on screen
      set({ shownModels: caseTable && next.length === caseTable.models.length ? null : caseTable ? caseTable.models.filter((m) => next.includes(m)) : next, linkWanted: null });
    },
    setShownModels: (models) => set({ shownModels: models && models.length > 0 ? [...models] : null, linkWanted: null }),
    setCompareMode: (mode) => set({ compareMode: mode }),
    setWorkspaceTab: (tab) => set({ workspaceTab: tab }),
  };
};

/** The query part of a URL state. */
function queryOf(s: CasesUrlState): CaseQuery {
  return { facets: s.facets, models: s.models, filter: s.filter, byModel: s.byModel ?? {}, search: s.search, sort: s.sort, review: s.review ?? [] };
}

/** An explicit choice by the user: unknown names become null, and B may be "none". */
function resolveModelsStrict(table: CaseTable, a: string | null, b: string | null): Record<ModelSlot, string | null> {
  const known = (m: string | null) => (m !== null && table.models.includes(m) ? m : null);
  return { a: known(a) ?? table.models[0] ?? null, b: known(b) };
}
