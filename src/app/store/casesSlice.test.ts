import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import { createStore, type StateCreator } from 'zustand/vanilla';
import { createCasesSlice, shownModelsOf, stepInRows, type CasesSlice } from './casesSlice';
import { casesUrlStateOf, parseCasesHash } from '../urlState';
import { syntheticCaseTable } from '../panels/cases/syntheticTable';
import { compareDirectionOf, runQuery } from '../panels/cases/query';

const table = syntheticCaseTable({ cases: 300, models: ['m1', 'm2', 'm3'], seed: 11 });

function store() {
  const s = createStore<CasesSlice>()(createCasesSlice);
  s.getState().setCaseTable(table);
  return s;
}

describe('the cases slice', () => {
  it('picks a model pair for a new table and derives the rows', () => {
    const s = store();
    expect(s.getState().caseQuery.models).toEqual({ a: 'm1', b: 'm2' });
    expect(s.getState().caseResult!.rows.length).toBe(300);
  });

  it('keeps derived rows in step with every filter action', () => {
    const s = store();
    const st = () => s.getState();
    st().toggleFacetValue('task', 'parsing');
    st().toggleFacetValue('task', 'spotting');
    st().toggleFacetValue('task', 'parsing');
    expect(st().caseQuery.facets).toEqual({ task: ['spotting'] });
    st().setOutcomeFilter('a', ['fail']);
    st().setScoreRange('b', [0.5, 1]);
    st().setSearch('exit');
    expect(st().caseResult!.rows).toEqual(runQuery(table, st().caseQuery).rows);
    st().setFacetFilter('task', null);
    expect(st().caseQuery.facets).toEqual({});
    st().setScoreRange('b', [1, 0]);
    expect(st().caseQuery.filter.b.score).toBeNull();
    st().clearCaseFilters();
    expect(st().caseResult!.rows.length).toBe(300);
    expect(st().caseQuery.models).toEqual({ a: 'm1', b: 'm2' });
  });

  it('compares models in one click, keeping facets', () => {
    const table = syntheticCaseTable({ cases: 3000, models: ['m1', 'm2'], seed: 5 });
    const s = createStore<CasesSlice>()(createCasesSlice);
    s.getState().setCaseTable(table);
    s.getState().setFacetFilter('script', 'seal');
    s.getState().compareModels('a-passes-b-fails');
    const { rows } = s.getState().caseResult!;
    const [a, b] = [table.perModel.m1.outcome, table.perModel.m2.outcome];
    expect(rows.length).toBeGreaterThan(0);
    for (const i of rows) expect([a[i], b[i]]).toEqual([0, 2]);
    expect(s.getState().caseQuery.facets).toEqual({ script: ['seal'] });
  });

  it('treats A✓ B✗ / B✓ A✗ as toggles: pressed again clears the comparison, the other direction replaces it', () => {
    const table = syntheticCaseTable({ cases: 3000, models: ['m1', 'm2'], seed: 5 });
    const s = createStore<CasesSlice>()(createCasesSlice);
    s.getState().setCaseTable(table);
    s.getState().setFacetFilter('script', 'seal');
    const facetOnly = s.getState().caseResult!.rows.length;
    s.getState().compareModels('a-passes-b-fails');
    expect(compareDirectionOf(s.getState().caseQuery.filter)).toBe('a-passes-b-fails');
    expect(s.getState().caseResult!.rows.length).toBeLessThan(facetOnly);
    s.getState().compareModels('b-passes-a-fails');
    expect(compareDirectionOf(s.getState().caseQuery.filter)).toBe('b-passes-a-fails');
    s.getState().compareModels('b-passes-a-fails');
    expect(compareDirectionOf(s.getState().caseQuery.filter)).toBeNull();
    expect(s.getState().caseResult!.rows.length).toBe(facetOnly);
    expect(s.getState().caseQuery.facets).toEqual({ script: ['seal'] });
    // A filter that only resembles a comparison (an error kind too) is not shown pressed.
    s.getState().compareModels('a-passes-b-fails');
    s.getState().setOutcomeFilter('a', ['pass', 'fail']);
    expect(compareDirectionOf(s.getState().caseQuery.filter)).toBeNull();
  });

  it('toggles sort direction only when the key stays, using each key’s natural direction', () => {
    const s = store();
    s.getState().setSort('disagreement');
    expect(s.getState().caseQuery.sort).toEqual({ key: 'disagreement', dir: 'desc' });
    s.getState().setSort({ key: 'score', dir: 'desc' });
    s.getState().setSort('score');
    expect(s.getState().caseQuery.sort).toEqual({ key: 'score', dir: 'desc' });
  });

  it('steps through the filtered list with next / previous, stopping at the ends', () => {
    const s = store();
    s.getState().setFacetFilter('script', 'bronze');
    const rows = s.getState().caseResult!.rows;
    expect(s.getState().nextCase()).toBe(table.caseIds[rows[0]]);
    expect(s.getState().nextCase()).toBe(table.caseIds[rows[1]]);
    expect(s.getState().previousCase()).toBe(table.caseIds[rows[0]]);
    expect(s.getState().previousCase()).toBe(table.caseIds[rows[0]]);
    s.getState().selectCase(table.caseIds[rows[rows.length - 1]]);
    expect(s.getState().nextCase()).toBe(table.caseIds[rows[rows.length - 1]]);
    // A selection outside the filtered list starts from the top.
    expect(stepInRows(table, rows, 'img_1.jpg', 1)).toBe(table.caseIds[rows[0]]);
    expect(stepInRows(table, new Uint32Array(0), 'x', 1)).toBe('x');
  });

  it('drops filters, models and a selection the new table does not have', () => {
    const s = createStore<CasesSlice>()(createCasesSlice);
    s.getState().restoreCasesUrl({
      facets: { task: ['parsing', 'nope'], ghost: ['x'] },
      models: { a: 'm3', b: 'gone' },
      filter: { a: { outcomes: ['fail'], errorKinds: [], score: null }, b: { outcomes: [], errorKinds: [], score: null } },
      search: '',
      sort: { key: 'score', dir: 'asc' },
      selectedCaseId: 'img_999999.jpg',
      viewMode: 'grid',
    });
    expect(s.getState().caseResult).toBeNull();
    s.getState().setCaseTable(table);
    expect(s.getState().caseQuery.facets).toEqual({ task: ['parsing'] });
    expect(s.getState().caseQuery.models).toEqual({ a: 'm3', b: 'm1' });
    expect(s.getState().selectedCaseId).toBeNull();
    expect(s.getState().caseView).toBe('grid');
  });

  it('keeps a linked view while its models arrive one file at a time, then shows it', () => {
    const s = createStore<CasesSlice>()(createCasesSlice);
    const link = parseCasesHash('#a=m3&b=m2&m=m2&m=m3&cmp=overlay&case=img_7.jpg&pf=m1&pf=m2&pf=m3');
    s.getState().restoreCasesUrl(link);
    s.getState().setCaseTable(syntheticCaseTable({ cases: 300, models: ['m1'], seed: 11 }));
    // Only m1 is loaded: the pair falls back to it, but the link is still wanted (and still in the URL).
    expect(s.getState().caseQuery.models.a).toBe('m1');
    expect(s.getState().linkWanted).not.toBeNull();
    expect(casesUrlStateOf(s.getState()).models).toEqual({ a: 'm3', b: 'm2' });
    s.getState().setCaseTable(syntheticCaseTable({ cases: 300, models: ['m1', 'm2'], seed: 11 }));
    expect(s.getState().linkWanted).not.toBeNull();
    s.getState().setCaseTable(table); // m1, m2, m3
    expect(s.getState().caseQuery.models).toEqual({ a: 'm3', b: 'm2' });
    expect(s.getState().shownModels).toEqual(['m2', 'm3']);
    expect(s.getState().compareMode).toBe('overlay');
    expect(s.getState().selectedCaseId).toBe('img_7.jpg');
    expect(s.getState().linkWanted).toBeNull();
    expect(shownModelsOf(table, s.getState().shownModels)).toEqual(['m2', 'm3']);
  });

  it('shows every model until some are hidden, and never hides the last one', () => {
    const s = store();
    expect(shownModelsOf(table, s.getState().shownModels)).toEqual(['m1', 'm2', 'm3']);
    s.getState().toggleShownModel('m2');
    expect(shownModelsOf(table, s.getState().shownModels)).toEqual(['m1', 'm3']);
    s.getState().toggleShownModel('m1');
    s.getState().toggleShownModel('m3');
    expect(shownModelsOf(table, s.getState().shownModels)).toEqual(['m3']);
    s.getState().toggleShownModel('m2');
    s.getState().toggleShownModel('m1');
    expect(s.getState().shownModels).toBeNull(); // all shown again = the default
  });

  it('lets the user choose no model B', () => {
    const s = store();
    s.getState().setModels('m2', null);
    expect(s.getState().caseQuery.models).toEqual({ a: 'm2', b: null });
  });

  it('composes with other slices into one bound store', () => {
    interface Other {
      count: number;
      inc: () => void;
    }
    type App = CasesSlice & Other;
    const createOther: StateCreator<App, [], [], Other> = (set) => ({ count: 0, inc: () => set((s) => ({ count: s.count + 1 })) });
    const useApp = create<App>()((...a) => ({ ...createCasesSlice(...a), ...createOther(...a) }));
    useApp.getState().setCaseTable(table);
    useApp.getState().inc();
    expect(useApp.getState().count).toBe(1);
    expect(useApp.getState().caseResult!.rows.length).toBe(300);
  });
});

describe('review status in the cases slice', () => {
  it('toggles statuses into the query and re-derives rows when statuses arrive or the table changes', () => {
    const s = store();
    const codes = new Uint8Array(300);
    codes[3] = 3; // gt_wrong
    codes[9] = 3;
    codes[10] = 1; // ok
    s.getState().toggleReviewStatus('gt_wrong');
    expect(s.getState().caseQuery.review).toEqual(['gt_wrong']);
    expect(s.getState().caseResult!.rows.length).toBe(0); // nothing reviewed yet
    s.getState().setCaseReviewStatus(codes);
    expect([...s.getState().caseResult!.rows]).toEqual([3, 9]);
    expect(s.getState().caseResult!.reviewCounts[1]).toBe(1);
    s.getState().toggleReviewStatus('ok');
    expect([...s.getState().caseResult!.rows]).toEqual([3, 9, 10]);
    s.getState().toggleReviewStatus('gt_wrong');
    expect(s.getState().caseQuery.review).toEqual(['ok']);
    // A new table drops the old rows' statuses until the browser sends new ones.
    s.getState().setCaseTable(syntheticCaseTable({ cases: 300, models: ['m1', 'm2', 'm3'], seed: 12 }));
    expect(s.getState().caseReviewStatus).toBeNull();
    expect(s.getState().caseResult!.rows.length).toBe(0);
    s.getState().clearCaseFilters();
    expect(s.getState().caseQuery.review).toEqual([]);
  });
});
