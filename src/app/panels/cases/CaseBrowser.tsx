/**
 * The case browser: filter sidebar, toolbar, and a virtualised list or thumbnail grid over a
 * CaseTable of any size.
 *
 * Props (all optional inside the app, where everything comes from the app store):
 *   table      the scored cases as columns (null before scoring); default: the store's caseTable
 *   loadImage  reads an image of the opened folder by its `imageFiles` path, null when absent;
 *              default: the scoring worker's getImageBytes. Keep it stable (useCallback): a new
 *              function starts a fresh thumbnail cache.
 *   onSelect   called with a case id when the user opens it (click, or Enter on the selection);
 *              the selection itself is always in the store (selectedCaseId)
 *   store      any zustand store whose state includes CasesSlice; default: the app store
 *              (useBench). The harness passes a standalone one.
 *   syncHash   bind filters / models / selection to location.hash (default false: the app's
 *              startup binds the app store once; a page with its own store, like the harness, sets it)
 *
 * Keyboard, with the list focused: j / ↓ next case, k / ↑ previous (in the grid ↑ / ↓ move a row,
 * ← / → one tile), Home / End, Enter opens the selected case.
 */
import { useCallback, useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import { createStore, useStore, type StoreApi } from 'zustand';
import type { CaseTable } from '../../../core/caseTable';
import { createCasesSlice, type CasesSlice } from '../../store/casesSlice';
import { ThumbnailLoader } from '../../thumbnails/thumbnailLoader';
import { decodeInWorker } from '../../thumbnails/workerDecoder';
import { bindCasesHash } from '../../urlState';
import { useBench } from '../../store';
import { scoringClient } from '../../../worker/client';
import { CaseRow, CaseTile } from './CaseRow';
import { formatCount, varyingFacets } from './format';
import { shownModelsOf } from '../../store/casesSlice';
import { useElementSize } from '../../canvas/useElementSize';
import { FacetSidebar } from './FacetSidebar';
import { SuspectLine, useSuspectKey } from './SuspectQueue';
import { compareDirectionOf, hasFilters, reviewStatusColumn, rowOfCase, type SortKey } from './query';
import { useReviews } from '../../qa/useReviews';
import { reviewKey, type ReviewMap } from '../../qa/reviewFilters';
import { VirtualList } from './VirtualList';
import './cases.css';

export interface CaseBrowserProps {
  table?: CaseTable | null;
  loadImage?: (path: string) => Promise<Blob | null>;
  onSelect?: (caseId: string) => void;
  store?: StoreApi<CasesSlice>;
  syncHash?: boolean;
}

const ROW_HEIGHT = 56;
/** Mount stages of a new table after the toolbar: the sidebar, then the rows. */
const STAGES = 2;
const TILE_WIDTH = 176;
const TILE_HEIGHT = 168;
const THUMB_WIDTH = 160;

/** A store holding only the case list's state, for pages without the app (the harness). */
export function createStandaloneCasesStore(): StoreApi<CasesSlice> {
  return createStore<CasesSlice>()(createCasesSlice);
}

/** Reads an image through the scoring worker, which has the opened folder. */
async function loadImageFromWorker(path: string): Promise<Blob | null> {
  try {
    return new Blob([(await scoringClient().getImageBytes(path)) as Uint8Array<ArrayBuffer>]);
  } catch {
    return null; // not in the folder: the tile says "missing" with the path
  }
}

const SORTS: { key: SortKey; label: string }[] = [
  { key: 'table', label: 'Table order' },
  { key: 'id', label: 'Case id' },
  { key: 'score', label: 'Score of A' },
  { key: 'disagreement', label: 'Disagreement (all models)' },
  { key: 'misses', label: 'Misses of A' },
  { key: 'fp', label: 'False positives of A' },
];

export function CaseBrowser({ table: givenTable, loadImage = loadImageFromWorker, onSelect, store = useBench, syncHash = false }: CaseBrowserProps) {
  const current = useStore(store, (s) => s.caseTable);
  const result = useStore(store, (s) => s.caseResult);
  const table = givenTable === undefined ? current : givenTable;
  // The open dataset's live reviews (app store only: reviews belong to a dataset): they filter
  // and count the list (ReviewStatusFeed) and mark each reviewed row (model A's review).
  const inApp = store === (useBench as unknown);
  const fingerprint = useBench((s) => s.dataset?.info.fingerprint);
  const { reviews } = useReviews(inApp ? fingerprint : null);
  useSuspectKey(inApp);

  useEffect(() => {
    if (givenTable !== undefined && store.getState().caseTable !== givenTable) store.getState().setCaseTable(givenTable);
  }, [store, givenTable]);

  useEffect(() => (syncHash ? bindCasesHash(store) : undefined), [store, syncHash]);

  const loader = useMemo(() => new ThumbnailLoader({ loadImage, decode: decodeInWorker, createUrl: (b) => URL.createObjectURL(b), revokeUrl: (u) => URL.revokeObjectURL(u) }, { width: THUMB_WIDTH }), [loadImage]);
  useEffect(() => () => loader.dispose(), [loader]);

  // A new table mounts in stages, a task apart: the toolbar (with the case count), then the filter
  // sidebar, then the rows. Mounting all of it at once (plus the style and layout that follow) was
  // one long task right after a big score, when the worker's garbage collection competes for the
  // same cores (issue 6). Placeholders keep the layout in place meanwhile.
  const [stage, setStage] = useState<{ table: CaseTable | null; shown: number }>({ table: null, shown: 0 });
  // A narrow list folds the filters behind a button (they open over the rows); a wide one shows them beside.
  const [size, sizeRef] = useElementSize<HTMLDivElement>();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const shown = stage.table === table ? stage.shown : 0;
  useEffect(() => {
    if (!table || shown >= STAGES) return;
    const t = setTimeout(() => setStage({ table, shown: shown + 1 }), 0);
    return () => clearTimeout(t);
  }, [table, shown]);

  if (!table || current !== table || !result) {
    return (
      <div className="cb-root cb-empty" data-testid="case-browser" ref={sizeRef}>
        {table ? 'Filtering cases…' : 'No cases yet.'}
      </div>
    );
  }
  const narrow = size.width > 0 && size.width < INLINE_FILTERS_MIN;
  return (
    <div className={`cb-root${narrow ? ' cb-narrow' : ''}`} data-testid="case-browser" ref={sizeRef}>
      {inApp && <ReviewStatusFeed store={store} table={table} reviews={reviews} />}
      {!narrow && (shown >= 1 ? <FacetSidebar store={store} table={table} /> : <aside className="cb-sidebar" aria-busy="true" />)}
      <div className="cb-main">
        <Toolbar store={store} table={table} filters={narrow ? { open: filtersOpen, toggle: () => setFiltersOpen((v) => !v) } : null} />
        {inApp && <SuspectLine />}
        {narrow && filtersOpen && shown >= 1 && (
          <div className="cb-filters-drop">
            <FacetSidebar store={store} table={table} />
          </div>
        )}
        {shown >= 2 ? <CaseView store={store} table={table} rows={result.rows} loader={loader} onSelect={onSelect} reviews={reviews} /> : <div className="cb-viewport" aria-busy="true" />}
      </div>
    </div>
  );
}

/**
 * Keeps the store's review-status column (model A) in step with the live reviews of the open
 * dataset, so the list filters and counts by status. App store only: reviews belong to a dataset.
 */
function ReviewStatusFeed({ store, table, reviews }: { store: StoreApi<CasesSlice>; table: CaseTable; reviews: ReviewMap }) {
  const modelA = useStore(store, (s) => s.caseQuery.models.a);
  useEffect(() => {
    store.getState().setCaseReviewStatus(reviews.size === 0 ? null : reviewStatusColumn(table, modelA, reviews));
  }, [store, table, modelA, reviews]);
  return null;
}

/** Below this width (px) the filter sidebar folds behind the toolbar's "Filters" button. */
export const INLINE_FILTERS_MIN = 560;

function Toolbar({ store, table, filters }: { store: StoreApi<CasesSlice>; table: CaseTable; filters: { open: boolean; toggle(): void } | null }) {
  const query = useStore(store, (s) => s.caseQuery);
  const shown = useStore(store, (s) => s.caseResult?.rows.length ?? 0);
  const view = useStore(store, (s) => s.caseView);
  const { setSearch, setSort, setModels, compareModels, clearCaseFilters, setCaseView } = store.getState();
  const { a, b } = query.models;
  const compared = compareDirectionOf(query.filter);
  return (
    <div className="cb-toolbar">
      {filters && (
        <button type="button" aria-expanded={filters.open} data-testid="toggle-filters" onClick={filters.toggle} className={hasFilters(query) ? 'cb-filtering' : undefined}>
          Filters{hasFilters(query) ? ' •' : ''} {filters.open ? '◂' : '▸'}
        </button>
      )}
      <input
        type="search"
        className="cb-search"
        placeholder="Search case id, task, facets, GT and predicted text"
        aria-label="Search cases"
        value={query.search}
        onChange={(e) => setSearch(e.target.value)}
      />
      {/* The compared pair exists only once models are loaded (a GT-only list has none). */}
      {table.models.length > 0 && (
        <>
          <label>
            A{' '}
            <select aria-label="Model A" value={a ?? ''} onChange={(e) => setModels(e.target.value || null, b === e.target.value ? a : b)}>
              {table.models.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </label>
          <label>
            B{' '}
            <select aria-label="Model B" value={b ?? ''} onChange={(e) => setModels(a, e.target.value || null)}>
              <option value="">none</option>
              {table.models
                .filter((m) => m !== a)
                .map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
            </select>
          </label>
        </>
      )}
      {a && b && (
        // Toggles: pressed while the list is that comparison; pressed again, it is cleared.
        <span className="cb-views" role="group" aria-label="Compare A and B">
          <button type="button" data-testid="compare-a-passes-b-fails" aria-pressed={compared === 'a-passes-b-fails'} onClick={() => compareModels('a-passes-b-fails')} title={`only cases ${a} passes and ${b} fails (click again to clear)`} aria-label="A passes, B fails">
            A✓ B✗
          </button>
          <button type="button" data-testid="compare-b-passes-a-fails" aria-pressed={compared === 'b-passes-a-fails'} onClick={() => compareModels('b-passes-a-fails')} title={`only cases ${b} passes and ${a} fails (click again to clear)`} aria-label="B passes, A fails">
            B✓ A✗
          </button>
        </span>
      )}
      <label>
        <select aria-label="Sort cases" value={query.sort.key} onChange={(e) => setSort(e.target.value as SortKey)}>
          {SORTS.filter((s) => (s.key !== 'disagreement' || table.models.length > 1) && (s.key === 'table' || s.key === 'id' || a)).map((s) => (
            <option key={s.key} value={s.key}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        aria-label={query.sort.dir === 'asc' ? 'Ascending (click for descending)' : 'Descending (click for ascending)'}
        onClick={() => setSort({ key: query.sort.key, dir: query.sort.dir === 'asc' ? 'desc' : 'asc' })}
      >
        {query.sort.dir === 'asc' ? '↑' : '↓'}
      </button>
      <span className="cb-views" role="group" aria-label="View">
        <button type="button" aria-pressed={view === 'list'} onClick={() => setCaseView('list')}>
          List
        </button>
        <button type="button" aria-pressed={view === 'grid'} onClick={() => setCaseView('grid')}>
          Grid
        </button>
      </span>
      <span className="cb-total" data-testid="case-count" data-shown={shown} data-total={table.caseIds.length}>
        {formatCount(shown)} of {formatCount(table.caseIds.length)} cases
      </span>
      {hasFilters(query) && (
        <button type="button" className="cb-link" onClick={clearCaseFilters}>
          Clear filters
        </button>
      )}
    </div>
  );
}

function CaseView({ store, table, rows, loader, onSelect, reviews }: { store: StoreApi<CasesSlice>; table: CaseTable; rows: Uint32Array; loader: ThumbnailLoader; onSelect?: (caseId: string) => void; reviews: ReviewMap }) {
  const selectedId = useStore(store, (s) => s.selectedCaseId);
  const view = useStore(store, (s) => s.caseView);
  const { a, b } = useStore(store, (s) => s.caseQuery.models);
  const shownSetting = useStore(store, (s) => s.shownModels);
  const [width, setWidth] = useState(800);
  const columns = view === 'grid' ? Math.max(1, Math.floor(width / TILE_WIDTH)) : 1;

  // One badge column per shown model, in table order (each in its colour); A and B are labelled.
  const models = useMemo(() => shownModelsOf(table, shownSetting), [table, shownSetting]);
  const pair = useMemo(() => ({ a, b }), [a, b]);
  const chipFacets = useMemo(() => varyingFacets(table), [table]);
  // The row's review mark is model A's (the one the list's status filter reads).
  const reviewA = a ?? models[0] ?? null;
  // The name gets about 60 % of the first line (12 px monospace ≈ 7.2 px a character; shortened in
  // the middle), the chips the rest — room for two or three whole ones.
  const nameChars = Math.max(12, Math.floor((width * 0.6 - 20) / 7.2));

  const selectedRow = selectedId === null ? -1 : rowOfCase(table, selectedId);
  const position = useMemo(() => (selectedRow < 0 ? -1 : rows.indexOf(selectedRow)), [rows, selectedRow]);

  const open = useCallback(
    (row: number) => {
      const id = table.caseIds[row];
      store.getState().selectCase(id);
      onSelect?.(id);
    },
    [store, table, onSelect],
  );

  const move = (delta: number) => {
    if (rows.length === 0) return;
    const next = position < 0 ? (delta > 0 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, position + delta));
    store.getState().selectCase(table.caseIds[rows[next]]);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const grid = view === 'grid';
    const steps: Record<string, number> = {
      j: 1,
      k: -1,
      ArrowDown: grid ? columns : 1,
      ArrowUp: grid ? -columns : -1,
      ...(grid ? { ArrowRight: 1, ArrowLeft: -1 } : {}),
      Home: -rows.length,
      End: rows.length,
    };
    if (e.key in steps) {
      e.preventDefault();
      move(steps[e.key]);
    } else if (e.key === 'Enter' && selectedId !== null) {
      e.preventDefault();
      onSelect?.(selectedId);
    }
  };

  if (rows.length === 0) {
    return (
      <div className="cb-viewport cb-none" data-testid="case-list">
        No case matches these filters.
      </div>
    );
  }
  if (view === 'grid') {
    return (
      <VirtualList
        count={Math.ceil(rows.length / columns)}
        rowHeight={TILE_HEIGHT}
        overscan={2}
        resetKey={rows}
        ensureVisible={position < 0 ? null : Math.floor(position / columns)}
        onKeyDown={onKeyDown}
        onWidth={setWidth}
        label="Cases"
        testId="case-list"
        renderRow={(r) => (
          <div className="cb-tiles">
            {Array.from(rows.subarray(r * columns, Math.min(rows.length, (r + 1) * columns)), (row) => (
              <CaseTile key={row} table={table} row={row} models={models} pair={pair} selected={row === selectedRow} onClick={open} loader={loader} />
            ))}
          </div>
        )}
      />
    );
  }
  return (
    <VirtualList
      count={rows.length}
      rowHeight={ROW_HEIGHT}
      rowKey={(i) => rows[i]}
      resetKey={rows}
      ensureVisible={position < 0 ? null : position}
      onKeyDown={onKeyDown}
      onWidth={setWidth}
      label="Cases"
      testId="case-list"
      renderRow={(i) => (
        <CaseRow
          table={table}
          row={rows[i]}
          models={models}
          pair={pair}
          nameChars={nameChars}
          chipFacets={chipFacets}
          width={width}
          review={reviewA ? reviews.get(reviewKey(reviewA, table.caseIds[rows[i]])) : undefined}
          selected={rows[i] === selectedRow}
          onClick={open}
        />
      )}
    />
  );
}

