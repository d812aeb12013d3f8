import { describe, expect, it } from 'vitest';
import { ADAPTERS } from './benchmarks/registry';
import { buildReport, type Report } from './report';
import { caseUnitOf, fillKey, gridCaption, gridKey, gridRows, presentUnits, resolveRows, type ReportLayout, type ReportSection } from './reportLayout';
import { BenchSession } from './session';

const report = (metrics: Record<string, number>[], options: Record<string, string | number> = {}): Report =>
  buildReport('ltb', { name: 'p', options }, { cases: 1, images: 1 }, metrics.map((m, i) => ({ model: `m${i}`, metrics: m, counts: {}, warnings: [] })));

type Grid = Extract<ReportSection, { kind: 'grid' }>;
const grid = (over: Partial<Grid> = {}): Grid => ({
  kind: 'grid',
  caption: 'per split',
  corner: 'split',
  rows: [
    { key: 'hard', label: 'Hard' },
    { key: 'glass', label: 'Glass' },
  ],
  columns: [{ key: 'hmean', label: 'H' }],
  perModel: 'colgroup',
  ...over,
});

describe('report layout patterns', () => {
  it('fills named holes and leaves unknown ones', () => {
    expect(fillKey('{unit}/hmean@{x}', { unit: 'hard', x: '0.5' })).toBe('hard/hmean@0.5');
    expect(fillKey('{group}/{nope}', { group: 'a' })).toBe('a/{nope}');
  });

  it('derives rows from the middle segment of prefixed keys, sorted', () => {
    const r = report([{ 'category/b/overall': 1, 'category/a/t2r/f1': 1, 'category/x': 1, 'level/z/overall': 1 }, { 'category/c/overall': 0 }]);
    expect(resolveRows({ fromPrefix: 'category' }, r).map((x) => x.key)).toEqual(['a', 'b', 'c']);
  });

  it('builds grid keys as row/col, or prefix/row/col for derived rows', () => {
    expect(gridKey(grid(), 'hard', 'hmean')).toBe('hard/hmean');
    expect(gridKey(grid({ rows: { fromPrefix: 'source' } }), 'ctw', 't2r/f1')).toBe('source/ctw/t2r/f1');
    expect(gridKey(grid({ pattern: '{col}@{row}' }), 'a', 'b')).toBe('b@a');
  });

  it('hides rows no model reports only when asked', () => {
    const r = report([{ 'hard/hmean': 0.5 }]);
    expect(gridRows(grid(), r).map((x) => x.key)).toEqual(['hard', 'glass']);
    expect(gridRows(grid({ hideEmptyRows: true }), r).map((x) => x.key)).toEqual(['hard']);
  });

  it('captions by the protocol option when it is set', () => {
    const g = grid({ captionWhenOption: { option: 'score_thr', caption: 'pinned at {value}' } });
    expect(gridCaption(g, report([{}]))).toBe('per split');
    expect(gridCaption(g, report([{}], { score_thr: 0.6 }))).toBe('pinned at 0.6');
  });

  it('offers the units a report has, and the cases’ unit from the protocol option or the first present default', () => {
    const layout: ReportLayout = {
      headlines: [],
      sections: [],
      plots: [],
      units: { label: 'split', units: grid().rows as never, default: 'hard', caseOption: 'case_split', caseUnits: ['hard', 'glass'] },
    };
    const onlyGlass = report([{ 'glass/hmean': 1 }]);
    expect(presentUnits(layout, onlyGlass).map((u) => u.key)).toEqual(['glass']);
    expect(caseUnitOf(layout, onlyGlass)).toBe('glass');
    expect(caseUnitOf(layout, report([{ 'hard/hmean': 1, 'glass/hmean': 1 }]))).toBe('hard');
    expect(caseUnitOf(layout, report([{ 'hard/hmean': 1 }], { case_split: 'glass' }))).toBe('glass');
  });
});

/**
 * Every key a layout names (table rows, grid cells, bar groups) is reported by the benchmark's
 * own demo, so a typo in a layout cannot leave a column of dashes unnoticed. Derived rows and
 * leaderboards depend on the data; rows a grid hides when empty are allowed to be absent.
 */
describe.each(ADAPTERS.map((a) => [a.id, a] as const))('the %s report layout', (id, adapter) => {
  it('is plain data the worker can post', () => {
    expect(structuredClone(adapter.reportLayout)).toEqual(adapter.reportLayout);
  });

  it('names only metric keys its demo report has', async () => {
    const { makeDemo } = (await import(`./benchmarks/${id}/demo.ts`)) as typeof import('./benchmarks/ltb/demo');
    const bundle = await makeDemo();
    const session = await BenchSession.open(bundle.source, id);
    await session.addBundledPredictions();
    for (const p of bundle.predictions) await session.addPredictions(p);
    const protocol = session.resolveProtocol(undefined, {});
    const r = session.report(protocol, await session.score(protocol));
    const keys = new Set(Object.values(r.models).flatMap((m) => Object.keys(m.metrics)));
    const named: string[] = [];
    const unreported: string[] = [];
    for (const s of adapter.reportLayout.sections) {
      if (s.kind === 'keys') named.push(...s.rows.map((row) => row.key));
      if (s.kind !== 'grid') continue;
      // A grid may have holes (Chronicles' modern scripts have no spotting), but every row and
      // every column must have a reported cell.
      const rows = resolveRows(s.rows, r);
      for (const row of s.hideEmptyRows ? [] : rows) if (!s.columns.some((c) => keys.has(gridKey(s, row.key, c.key)))) unreported.push(`row ${row.key}`);
      for (const c of s.columns) if (!rows.some((row) => keys.has(gridKey(s, row.key, c.key)))) unreported.push(`column ${c.key}`);
    }
    expect(unreported).toEqual([]);
    for (const p of adapter.reportLayout.plots) if (p.kind === 'bars') for (const g of resolveRows(p.groups, r)) named.push(fillKey(p.metric, { group: g.key }));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((k) => !keys.has(k))).toEqual([]);
  });
});
