import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { OUTCOME_CODES } from '../core/caseTable';
import { createCasesSlice, type CasesSlice } from './store/casesSlice';
import { syntheticCaseTable } from './panels/cases/syntheticTable';
import { bindCasesHash, parseCasesHash, serialiseCasesHash, type CasesUrlState, type HashHost } from './urlState';

const full: CasesUrlState = {
  facets: { challenge: ['occluded', 'blurred'], script: ['甲骨文'], 'source dataset': ['a&b=c'] },
  models: { a: 'model one', b: 'model-b' },
  filter: {
    a: { outcomes: ['fail', 'partial'], errorKinds: ['no_extract'], score: [0, 0.5] },
    b: { outcomes: ['pass'], errorKinds: [], score: null },
  },
  byModel: {
    'third model': { outcomes: ['fail'], errorKinds: ['no_extract', 'FN split'], score: [0.1, 0.9] },
    'a&b=c@d': { outcomes: ['pass', 'partial'], errorKinds: [], score: null },
  },
  search: 'exit #2',
  sort: { key: 'disagreement', dir: 'desc' },
  selectedCaseId: 'images/楷书/re_001.jpg#parsing',
  viewMode: 'grid',
  review: ['gt_wrong', 'ambiguous'],
  shown: ['model one', 'model-b', 'third model'],
  compare: 'side-by-side',
  tab: 'workspace',
  needModels: [],
};

describe('the cases URL hash', () => {
  it('round-trips every field, including non-ASCII and reserved characters', () => {
    const hash = serialiseCasesHash(full);
    expect(parseCasesHash(`#${hash}`)).toEqual(full);
    expect(hash).not.toContain('#');
  });

  it('carries the shown models, the compare mode and the tab, and reads the models a link needs (pf)', () => {
    const hash = serialiseCasesHash({ ...full, compare: 'overlay', tab: 'report' }, '#pf=m1&pf=m2');
    const p = new URLSearchParams(hash);
    expect(p.getAll('m')).toEqual(['model one', 'model-b', 'third model']);
    expect(p.get('cmp')).toBe('overlay');
    expect(p.get('tab')).toBe('report');
    expect(parseCasesHash(hash).needModels).toEqual(['m1', 'm2']);
    expect(parseCasesHash('#cmp=bogus&tab=x').compare).toBe('single');
    expect(parseCasesHash('#cmp=bogus&tab=x').tab).toBeNull();
  });

  it('reads the documented example', () => {
    const s = parseCasesHash('#bench=ltb&f.challenge=occluded&outcome=fail&a=model1&b=model2&case=img_1.jpg');
    expect(s.facets).toEqual({ challenge: ['occluded'] });
    expect(s.filter.a.outcomes).toEqual(['fail']);
    expect(s.filter.b.outcomes).toEqual([]);
    expect(s.models).toEqual({ a: 'model1', b: 'model2' });
    expect(s.selectedCaseId).toBe('img_1.jpg');
    expect(s.viewMode).toBe('list');
  });

  it('keeps keys it does not own, in their place, and replaces its own', () => {
    const prev = '#demo=ltb&a=old&f.task=x&outcome@old=fail&bench=ltb';
    const hash = serialiseCasesHash({ ...full, facets: {}, filter: parseCasesHash('').filter, byModel: {}, search: '', sort: { key: 'table', dir: 'asc' }, selectedCaseId: null, viewMode: 'list', review: [], shown: [], compare: 'single', tab: null }, prev);
    expect(hash).toBe('demo=ltb&bench=ltb&a=model+one&b=model-b');
  });

  it('keeps review statuses of model A as rv, dropping unknown ones', () => {
    expect(serialiseCasesHash({ ...parseCasesHash(''), review: ['gt_wrong', 'ok'] })).toBe('rv=gt_wrong&rv=ok');
    expect(parseCasesHash('#rv=gt_missing&rv=bogus&rv=gt_missing').review).toEqual(['gt_missing']);
  });

  it('writes nothing of its own for the default state', () => {
    expect(serialiseCasesHash(parseCasesHash(''), '#demo=ltb')).toBe('demo=ltb');
  });

  it('drops malformed values instead of throwing', () => {
    const s = parseCasesHash('#outcome=fail,bogus,none&score=1..0&score.b=x..y&sort=-nonsense&view=tiles&f.=x&f.task=&case=');
    expect(s.filter.a.outcomes).toEqual(['fail']);
    expect(s.filter.a.score).toBeNull();
    expect(s.filter.b.score).toBeNull();
    expect(s.sort).toEqual({ key: 'table', dir: 'asc' });
    expect(s.viewMode).toBe('list');
    expect(s.facets).toEqual({});
    expect(s.selectedCaseId).toBeNull();
    expect(parseCasesHash('#score=0.25..1').filter.a.score).toEqual([0.25, 1]);
  });
});

function fakeHost(hash: string) {
  const listeners = new Map<string, Set<() => void>>();
  const writes: string[] = [];
  const host: HashHost = {
    location: { hash },
    history: {
      replaceState: (_d, _u, url) => {
        host.location.hash = String(url);
        writes.push(String(url));
      },
    },
    addEventListener: (t, l) => void (listeners.get(t) ?? listeners.set(t, new Set()).get(t)!).add(l),
    removeEventListener: (t, l) => void listeners.get(t)?.delete(l),
  };
  const fire = (t: string) => listeners.get(t)?.forEach((l) => l());
  return { host, writes, fire, listeners };
}

describe('filters on any model by name in the URL (issue 13)', () => {
  it("writes a third model's outcome, error and score filters under its name, beside the pair's a/b keys", () => {
    const hash = serialiseCasesHash({ ...parseCasesHash(''), models: { a: 'm1', b: 'm2' }, byModel: { m3: { outcomes: ['fail', 'partial'], errorKinds: ['no_infer'], score: [0, 0.5] } } });
    const p = new URLSearchParams(hash);
    expect(p.get('outcome@m3')).toBe('fail,partial');
    expect(p.getAll('err@m3')).toEqual(['no_infer']);
    expect(p.get('score@m3')).toBe('0..0.5');
    expect(p.get('outcome')).toBeNull();
    expect(parseCasesHash(hash).byModel).toEqual({ m3: { outcomes: ['fail', 'partial'], errorKinds: ['no_infer'], score: [0, 0.5] } });
  });

  it('still reads the a/b filter keys of old links, and drops malformed named filters', () => {
    const s = parseCasesHash('#a=m1&b=m2&outcome=fail&err.b=no_extract&score.b=0..0.3&outcome@m3=bogus&score@m4=2..1&outcome@=fail&err@m5=');
    expect(s.filter.a.outcomes).toEqual(['fail']);
    expect(s.filter.b).toEqual({ outcomes: [], errorKinds: ['no_extract'], score: [0, 0.3] });
    expect(s.byModel).toEqual({});
  });

  it('a toggle on a third model filters the store and lands in the hash; clearing it leaves no key', () => {
    const store = createStore<CasesSlice>()(createCasesSlice);
    const { host } = fakeHost('#demo=ltb');
    bindCasesHash(store, host);
    const table = syntheticCaseTable({ cases: 200, models: ['m1', 'm2', 'm3'], seed: 4 });
    store.getState().setCaseTable(table);
    store.getState().toggleOutcome({ model: 'm3' }, 'fail');
    const m3 = table.perModel.m3.outcome;
    const want = table.caseIds.filter((_, i) => m3[i] === OUTCOME_CODES.indexOf('fail'));
    expect(want.length).toBeGreaterThan(0);
    expect([...store.getState().caseResult!.rows].map((i) => table.caseIds[i])).toEqual(want);
    expect(new URLSearchParams(host.location.hash.slice(1)).get('outcome@m3')).toBe('fail');
    // A fresh store restored from that hash shows the same cases.
    const again = createStore<CasesSlice>()(createCasesSlice);
    bindCasesHash(again, fakeHost(host.location.hash).host);
    again.getState().setCaseTable(table);
    expect([...again.getState().caseResult!.rows].map((i) => table.caseIds[i])).toEqual(want);
    store.getState().toggleOutcome({ model: 'm3' }, 'fail');
    expect(store.getState().caseQuery.byModel).toEqual({});
    expect(host.location.hash).not.toContain('m3');
    expect(store.getState().caseResult!.rows.length).toBe(table.caseIds.length);
  });
});

describe('bindCasesHash', () => {
  it('restores filters from the hash, writes changes back with replaceState, and follows hashchange', () => {
    const store = createStore<CasesSlice>()(createCasesSlice);
    const { host, writes, fire, listeners } = fakeHost('#demo=ltb&f.task=parsing&outcome=fail&case=img_3.jpg');
    const unbind = bindCasesHash(store, host);
    expect(store.getState().caseQuery.facets).toEqual({ task: ['parsing'] });
    expect(store.getState().selectedCaseId).toBe('img_3.jpg');

    store.getState().setCaseTable(syntheticCaseTable({ cases: 50, models: ['m1', 'm2'] }));
    expect(host.location.hash).toBe('#demo=ltb&a=m1&b=m2&f.task=parsing&outcome=fail&case=img_3.jpg');

    store.getState().toggleFacetValue('task', 'spotting');
    store.getState().setSearch('exit');
    expect(parseCasesHash(host.location.hash).facets.task).toEqual(['parsing', 'spotting']);
    expect(host.location.hash).toContain('q=exit');
    expect(host.location.hash.startsWith('#demo=ltb&')).toBe(true);

    const before = writes.length;
    host.location.hash = '#demo=ltb&a=m2&b=m1&outcome.b=pass';
    fire('hashchange');
    expect(store.getState().caseQuery.models).toEqual({ a: 'm2', b: 'm1' });
    expect(store.getState().caseQuery.filter.b.outcomes).toEqual(['pass']);
    expect(store.getState().caseQuery.facets).toEqual({});
    expect(writes.length).toBe(before); // restoring what the hash already says writes nothing

    unbind();
    expect([...listeners.values()].every((s) => s.size === 0)).toBe(true);
    store.getState().setSearch('after');
    expect(host.location.hash).not.toContain('after');
  });

  it('with a deferring host, coalesces the changes of one task into one later write', () => {
    const store = createStore<CasesSlice>()(createCasesSlice);
    const { host, writes } = fakeHost('#demo=ltb');
    const queued: (() => void)[] = [];
    host.defer = (fn) => void queued.push(fn);
    bindCasesHash(store, host);
    store.getState().setCaseTable(syntheticCaseTable({ cases: 50, models: ['m1', 'm2'] }));
    store.getState().setSearch('exit');
    store.getState().toggleFacetValue('task', 'parsing');
    expect(writes).toEqual([]); // nothing written inside the task that changed the store
    expect(queued).toHaveLength(1);
    queued.shift()!();
    expect(writes).toHaveLength(1);
    expect(host.location.hash).toContain('q=exit');
    expect(parseCasesHash(host.location.hash).facets.task).toEqual(['parsing']);
  });
});
