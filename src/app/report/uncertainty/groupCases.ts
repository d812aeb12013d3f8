/**
 * Which cases of the case list make up an uncertainty group (its resampled units, spec
 * "Units"), expressed with the case list's own filters so a click in "Where do A and B differ"
 * lists exactly them:
 *
 * - `all`: every case (no filter);
 * - LTB split `s`: the cases are shown for one split at a time (protocol option `case_split`),
 *   the images that split's file does not list being `skipped` for every model — so the split is
 *   chosen and model A's `skipped` outcome left out;
 * - TABench `category/…`, `source/…`, `level/…`: the facets category, source_dataset,
 *   annotation_level (every query of the group's images);
 * - Chronicles: a script key → facet `script`; `ancient` / `modern` → facet `group`.
 */
import type { BenchmarkId, OptionValue } from '../../../core';
import type { OutcomeName } from '../../panels/cases/query';

export interface GroupCases {
  /** Protocol options to set first (they change no metric: they pick the cases shown). */
  options?: Record<string, OptionValue | null>;
  facets: { key: string; value: string }[];
  /** Model A's outcomes to keep; absent = any. */
  outcomesA?: OutcomeName[];
}

type Lookup = (keys: readonly string[], value: string) => { key: string; value: string } | undefined;

const TABENCH_FACETS: Record<string, string> = { category: 'category', source: 'source_dataset', level: 'annotation_level' };

/**
 * The filters that list group `group`'s cases, or null when the case list cannot show exactly
 * them (e.g. the facet is missing from the table): then the row says so instead of listing a
 * wrong set. `lookup` resolves a facet value against the loaded case table.
 */
export function groupCases(benchmark: BenchmarkId, group: string, lookup: Lookup): GroupCases | null {
  if (group === 'all') return { facets: [] };
  const facet = (key: string, value: string): GroupCases | null => {
    const f = lookup([key], value);
    return f ? { facets: [f] } : null;
  };
  switch (benchmark) {
    case 'ltb':
      return { options: { case_split: group, case_threshold: null }, facets: [], outcomesA: ['pass', 'partial', 'fail'] };
    case 'tabench': {
      const i = group.indexOf('/');
      const key = i > 0 ? TABENCH_FACETS[group.slice(0, i)] : undefined;
      return key ? facet(key, group.slice(i + 1)) : null;
    }
    case 'chronicles':
      return group === 'ancient' || group === 'modern' ? facet('group', group) : facet('script', group);
    default:
      return null;
  }
}

/**
 * Whether setting `options` changes which cases the list shows (else the click needs no rescore).
 * `caseUnit`: the protocol's case option and the unit in effect — its default (LTB: hard) is in
 * effect without the option being set.
 */
export function changesCases(
  options: Record<string, OptionValue | null>,
  current: Record<string, OptionValue>,
  caseUnit?: { key: string; unit: string | null },
): boolean {
  return Object.entries(options).some(([k, v]) => {
    if (caseUnit?.key === k) return v !== caseUnit.unit;
    return v === null ? k in current : current[k] !== v;
  });
}
