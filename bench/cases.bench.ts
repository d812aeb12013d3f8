/**
 * The case list's filter / count / sort engine at the size: 25,000 cases × 3 models.
 * Budget: well under 50 ms per query, so typing in the search box or ticking a facet never lags.
 */
import { compareFilters, emptyQuery, runQuery, type CaseQuery } from '../src/app/panels/cases/query';
import { syntheticCaseTable } from '../src/app/panels/cases/syntheticTable';

function time(label: string, fn: () => { rows: Uint32Array }): void {
  fn(); // warm the JIT the way a second keystroke would find it
  const runs = 20;
  const t0 = performance.now();
  let rows = 0;
  for (let k = 0; k < runs; k++) rows = fn().rows.length;
  const ms = (performance.now() - t0) / runs;
  console.log(`${label}: ${ms.toFixed(2)} ms per query (${rows} rows)`);
}

export async function run(): Promise<void> {
  const t0 = performance.now();
  const table = syntheticCaseTable({ cases: 25_000, seed: 3 });
  console.log(`table of 25,000 cases × 3 models built in ${(performance.now() - t0).toFixed(0)} ms`);
  const base: CaseQuery = { ...emptyQuery(), models: { a: 'model-a', b: 'model-b' } };
  const t1 = performance.now();
  runQuery(table, { ...base, sort: { key: 'id', dir: 'asc' } });
  console.log(`first sort by case id (ranks the ids once per table): ${(performance.now() - t1).toFixed(1)} ms`);
  time('no filter, table order', () => runQuery(table, base));
  time('facets task+challenge', () => runQuery(table, { ...base, facets: { task: ['parsing', 'recognition'], challenge: ['occluded', 'dense'] } }));
  time('A passes, B fails', () => runQuery(table, { ...base, filter: compareFilters('a-passes-b-fails') }));
  // Issue 13: a filter on a model outside the pair, AND-ed with the pair's.
  time('A passes, B fails, C fails (third model by name)', () =>
    runQuery(table, { ...base, filter: compareFilters('a-passes-b-fails'), byModel: { 'model-c': { outcomes: ['fail'], errorKinds: [], score: null } } }),
  );
  time('search "exit"', () => runQuery(table, { ...base, search: 'exit' }));
  time('sort by score desc', () => runQuery(table, { ...base, sort: { key: 'score', dir: 'desc' } }));
  time('sort by disagreement', () => runQuery(table, { ...base, sort: { key: 'disagreement', dir: 'desc' } }));
  time('sort by case id (natural order)', () => runQuery(table, { ...base, sort: { key: 'id', dir: 'asc' } }));
  time('everything at once', () =>
    runQuery(table, {
      ...base,
      facets: { script: ['seal', 'bronze'] },
      filter: { a: { outcomes: ['fail', 'partial'], errorKinds: [], score: [0, 0.8] }, b: { outcomes: [], errorKinds: [], score: null } },
      search: 'a',
      sort: { key: 'misses', dir: 'desc' },
    }),
  );
}
