/**
 * The case list's state in the URL hash, so a view can be bookmarked, shared and survives a
 * reload: `#demo=ltb&a=model-a&b=model-b&f.challenge=occluded&outcome=fail&case=img_1.jpg`.
 *
 * Keys this module owns (everything else — `demo`, `bench`, … — belongs to the shell and is kept
 * as it is, in its place):
 *   a, b                 the compared models
 *   f.<facet>            a facet value; repeated for several (`f.task=parsing&f.task=spotting`)
 *   outcome, outcome.b   comma-separated outcomes of model A / model B
 *   err, err.b           an error kind of model A / B; repeated for several
 *   score, score.b       an inclusive score range `lo..hi` of model A / B
 *   outcome@<model>,     the same three filters on any loaded model by name (`outcome@model-c=fail`),
 *   err@<model>,         AND-ed with the pair's; `a`/`b` keys above stay as they were, so old
 *   score@<model>        links open unchanged
 *   q                    the text search
 *   sort                 the sort key, `-` in front for descending (`-disagreement`)
 *   case                 the selected case id
 *   view                 `grid` (the list is the default)
 *   rv                   a review status of model A's result; repeated for several (`rv=gt_wrong`)
 *   m                    a model shown on the canvas and in the list; repeated (absent = every model)
 *   cmp                  the compare mode: `overlay` or `side` (absent = single)
 *   tab                  `report` or `workspace` (absent = automatic)
 *
 * Read here but written by viewUrl.ts (it knows the dataset and the loaded models): `pf`, a
 * model the view needs loaded, repeated.
 *
 * parseCasesHash / serialiseCasesHash are pure; bindCasesHash connects them to a store and a window.
 */
import type { StoreApi } from 'zustand';
import { OUTCOME_CODES } from '../core/caseTable';
import { isReviewStatus, type ReviewStatus } from '../core/qa';
import { emptyQuery, type CaseQuery, type ModelFilter, type ModelSlot, type OutcomeName, type SortKey, type SortSpec } from './panels/cases/query';
import type { CasesSlice, CaseViewMode, CompareMode, WorkspaceTab } from './store/casesSlice';

export interface CasesUrlState {
  facets: Record<string, string[]>;
  models: Record<ModelSlot, string | null>;
  filter: Record<ModelSlot, ModelFilter>;
  /** Filters on models by name (`outcome@m`, `err@m`, `score@m`); absent = none. */
  byModel?: Record<string, ModelFilter>;
  search: string;
  sort: SortSpec;
  selectedCaseId: string | null;
  viewMode: CaseViewMode;
  /** Review statuses of model A to keep (`rv`); absent = any. */
  review?: ReviewStatus[];
  /** Models shown (`m`); absent or empty = every model. */
  shown?: string[];
  compare?: CompareMode;
  tab?: WorkspaceTab | null;
  /** Every model the linked view had loaded (`pf`, read only). */
  needModels?: string[];
}

const SORT_KEYS: readonly SortKey[] = ['table', 'id', 'score', 'disagreement', 'misses', 'fp'];
const OUTCOMES = OUTCOME_CODES.filter((o) => o !== 'none') as OutcomeName[];
const SLOT_SUFFIX: Record<ModelSlot, string> = { a: '', b: '.b' };

const NAMED_PREFIXES = ['outcome@', 'err@', 'score@'] as const;

function isOwnedKey(key: string): boolean {
  return (
    key.startsWith('f.') ||
    NAMED_PREFIXES.some((p) => key.startsWith(p)) ||
    ['a', 'b', 'q', 'sort', 'case', 'view', 'rv', 'outcome', 'outcome.b', 'err', 'err.b', 'score', 'score.b', 'm', 'cmp', 'tab'].includes(key)
  );
}

function params(hash: string): URLSearchParams {
  return new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
}

function parseRange(text: string | null): [number, number] | null {
  if (!text) return null;
  const m = /^(-?[\d.]+(?:e-?\d+)?)\.\.(-?[\d.]+(?:e-?\d+)?)$/i.exec(text.trim());
  if (!m) return null;
  const lo = Number(m[1]);
  const hi = Number(m[2]);
  return Number.isFinite(lo) && Number.isFinite(hi) && lo <= hi ? [lo, hi] : null;
}

/** Reads the cases state from a hash; anything malformed is left at its default, never thrown. */
export function parseCasesHash(hash: string): CasesUrlState {
  const p = params(hash);
  const facets: Record<string, string[]> = {};
  for (const [key, value] of p) {
    if (!key.startsWith('f.') || key.length <= 2 || value === '') continue;
    const k = key.slice(2);
    if (!(facets[k] ??= []).includes(value)) facets[k].push(value);
  }
  const filter = emptyQuery().filter;
  for (const slot of ['a', 'b'] as const) {
    const sfx = SLOT_SUFFIX[slot];
    const outcomes = (p.get(`outcome${sfx}`) ?? '').split(',').filter((o): o is OutcomeName => (OUTCOMES as string[]).includes(o));
    filter[slot] = {
      outcomes: [...new Set(outcomes)],
      errorKinds: [...new Set(p.getAll(`err${sfx}`).filter(Boolean))],
      score: parseRange(p.get(`score${sfx}`)),
    };
  }
  const byModel: Record<string, ModelFilter> = {};
  for (const [key, value] of p) {
    const at = key.indexOf('@');
    const prefix = key.slice(0, at + 1);
    const model = key.slice(at + 1);
    if (at < 0 || model === '' || !(NAMED_PREFIXES as readonly string[]).includes(prefix)) continue;
    const f = (byModel[model] ??= { outcomes: [], errorKinds: [], score: null });
    if (prefix === 'outcome@') {
      for (const o of value.split(',')) if ((OUTCOMES as string[]).includes(o) && !f.outcomes.includes(o as OutcomeName)) f.outcomes.push(o as OutcomeName);
    } else if (prefix === 'err@') {
      if (value !== '' && !f.errorKinds.includes(value)) f.errorKinds.push(value);
    } else f.score = parseRange(value);
  }
  for (const [model, f] of Object.entries(byModel)) if (f.outcomes.length === 0 && f.errorKinds.length === 0 && !f.score) delete byModel[model];
  const sortText = p.get('sort') ?? '';
  const desc = sortText.startsWith('-');
  const sortKey = (desc ? sortText.slice(1) : sortText) as SortKey;
  const sort: SortSpec = SORT_KEYS.includes(sortKey) ? { key: sortKey, dir: desc ? 'desc' : 'asc' } : { key: 'table', dir: 'asc' };
  return {
    facets,
    models: { a: p.get('a') || null, b: p.get('b') || null },
    filter,
    byModel,
    search: p.get('q') ?? '',
    sort,
    selectedCaseId: p.get('case') || null,
    viewMode: p.get('view') === 'grid' ? 'grid' : 'list',
    review: [...new Set(p.getAll('rv').filter(isReviewStatus))],
    shown: [...new Set(p.getAll('m').filter(Boolean))],
    compare: p.get('cmp') === 'overlay' ? 'overlay' : p.get('cmp') === 'side' ? 'side-by-side' : 'single',
    tab: p.get('tab') === 'report' ? 'report' : p.get('tab') === 'workspace' ? 'workspace' : null,
    needModels: [...new Set(p.getAll('pf').filter(Boolean))],
  };
}

/**
 * Writes the cases state into `previousHash`: keys owned by others stay first, in their order;
 * ours follow in a fixed order, defaults left out. Returns the hash without its '#'.
 */
export function serialiseCasesHash(state: CasesUrlState, previousHash = ''): string {
  const out = new URLSearchParams();
  for (const [k, v] of params(previousHash)) if (!isOwnedKey(k)) out.append(k, v);
  if (state.models.a) out.set('a', state.models.a);
  if (state.models.b) out.set('b', state.models.b);
  for (const key of Object.keys(state.facets).sort()) for (const v of state.facets[key]) out.append(`f.${key}`, v);
  for (const slot of ['a', 'b'] as const) {
    const f = state.filter[slot];
    const sfx = SLOT_SUFFIX[slot];
    if (f.outcomes.length > 0) out.set(`outcome${sfx}`, f.outcomes.join(','));
    for (const k of f.errorKinds) out.append(`err${sfx}`, k);
    if (f.score) out.set(`score${sfx}`, `${f.score[0]}..${f.score[1]}`);
  }
  for (const model of Object.keys(state.byModel ?? {}).sort()) {
    const f = state.byModel![model];
    if (f.outcomes.length > 0) out.set(`outcome@${model}`, f.outcomes.join(','));
    for (const k of f.errorKinds) out.append(`err@${model}`, k);
    if (f.score) out.set(`score@${model}`, `${f.score[0]}..${f.score[1]}`);
  }
  if (state.search) out.set('q', state.search);
  if (state.sort.key !== 'table' || state.sort.dir !== 'asc') out.set('sort', `${state.sort.dir === 'desc' ? '-' : ''}${state.sort.key}`);
  if (state.selectedCaseId) out.set('case', state.selectedCaseId);
  if (state.viewMode === 'grid') out.set('view', 'grid');
  for (const st of state.review ?? []) out.append('rv', st);
  for (const m of state.shown ?? []) out.append('m', m);
  if (state.compare === 'overlay') out.set('cmp', 'overlay');
  else if (state.compare === 'side-by-side') out.set('cmp', 'side');
  if (state.tab) out.set('tab', state.tab);
  return out.toString();
}

export function casesUrlStateOf(
  s: Pick<CasesSlice, 'caseQuery' | 'selectedCaseId' | 'caseView'> & Partial<Pick<CasesSlice, 'shownModels' | 'compareMode' | 'workspaceTab' | 'linkWanted'>>,
): CasesUrlState {
  // While a link still waits for its models, the URL keeps saying what the link said.
  if (s.linkWanted) return s.linkWanted;
  const q: CaseQuery = s.caseQuery;
  return {
    facets: q.facets,
    models: q.models,
    filter: q.filter,
    byModel: q.byModel ?? {},
    search: q.search,
    sort: q.sort,
    selectedCaseId: s.selectedCaseId,
    viewMode: s.caseView,
    review: q.review ?? [],
    shown: s.shownModels ?? [],
    compare: s.compareMode ?? 'single',
    tab: s.workspaceTab ?? null,
  };
}

/** The parts of `window` the binding uses, so tests can pass a fake. */
export interface HashHost {
  location: { hash: string };
  history: { replaceState(data: unknown, unused: string, url?: string | URL | null): void };
  addEventListener(type: 'hashchange' | 'popstate', listener: () => void): void;
  removeEventListener(type: 'hashchange' | 'popstate', listener: () => void): void;
  /**
   * Runs a hash write later. The page passes a zero-delay timer so the write (history.replaceState
   * costs tens of ms in Chromium) stays out of the task that renders a 20,000-case list; a host
   * without it writes at once (tests).
   */
  defer?(fn: () => void): void;
}

const windowHost = (): HashHost => ({
  location: window.location,
  history: window.history,
  addEventListener: (type, listener) => window.addEventListener(type, listener),
  removeEventListener: (type, listener) => window.removeEventListener(type, listener),
  defer: (fn) => void setTimeout(fn, 0),
});

/**
 * Keeps the store and location.hash in step: the hash is read once now and on every
 * hashchange / popstate (back, forward, a pasted link); store changes are written with
 * replaceState, so filtering does not flood the history. Returns the unbinding function.
 */
export function bindCasesHash(store: Pick<StoreApi<CasesSlice>, 'getState' | 'subscribe'>, host: HashHost = windowHost()): () => void {
  const restore = () => store.getState().restoreCasesUrl(parseCasesHash(host.location.hash));
  restore();
  const writeNow = () => {
    const next = serialiseCasesHash(casesUrlStateOf(store.getState()), host.location.hash);
    if (next === host.location.hash.replace(/^#/, '')) return;
    host.history.replaceState(null, '', `#${next}`);
  };
  let pending = false;
  // Several store changes in one task (a new table, its pair, its filters) become one write.
  const write = (_s: CasesSlice) => {
    if (!host.defer) return writeNow();
    if (pending) return;
    pending = true;
    host.defer(() => {
      pending = false;
      writeNow();
    });
  };
  // Write right away too: the table may have corrected the pair or dropped unknown filters.
  write(store.getState());
  const unsubscribe = store.subscribe((s, prev) => {
    if (
      s.caseQuery !== prev.caseQuery ||
      s.selectedCaseId !== prev.selectedCaseId ||
      s.caseView !== prev.caseView ||
      s.shownModels !== prev.shownModels ||
      s.compareMode !== prev.compareMode ||
      s.workspaceTab !== prev.workspaceTab ||
      s.linkWanted !== prev.linkWanted
    )
      write(s);
  });
  host.addEventListener('hashchange', restore);
  host.addEventListener('popstate', restore);
  return () => {
    unsubscribe();
    host.removeEventListener('hashchange', restore);
    host.removeEventListener('popstate', restore);
  };
}
