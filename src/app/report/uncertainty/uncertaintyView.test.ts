import { describe, expect, it } from 'vitest';
import type { UncertaintyBlockView, UncertaintyPair } from './block';
import { differencesOf, familiesOf, familyOf, formatDelta, formatP, headlineDifferences, isSignificant, rankDifferences } from './differences';
import { changesCases, groupCases } from './groupCases';
import { formatInterval, groupOfKey, intervalOf, intervalTitle, prefixGroupOfKey } from './intervals';

const pair = (group: string, key: string, diff: number, p_holm: number, ci: [number, number] = [diff - 0.01, diff + 0.01]): UncertaintyPair => ({
  a: 'm1',
  b: 'm2',
  group,
  key,
  diff,
  ci,
  p: p_holm / 2,
  p_holm,
});

const block: UncertaintyBlockView = {
  schema: 1,
  method: 'paired percentile bootstrap; approximate randomization test',
  level: 0.95,
  replicates: 1000,
  permutations: 1000,
  seed: 0,
  groups: [
    { id: 'all', units: 120 },
    { id: 'category/table', units: 12 },
    { id: 'category/table-x', units: 40 },
  ],
  intervals: { m1: { overall: [0.5, 0.7], 'category/table/overall': [0.1, 0.4] }, m2: { overall: [0.4, 0.6] } },
  pairs: [
    pair('all', 'overall', 0.1, 0.2),
    pair('category/table', 'category/table/overall', -0.3, 0.01, [-0.4, -0.2]),
    pair('category/table-x', 'category/table-x/overall', 0.05, 0.01),
    pair('all', 't2r/f1', 0.2, 0.001),
  ],
};

describe('intervals of the block', () => {
  it('finds an interval per model and key, and none for a key the block does not hold (a count)', () => {
    expect(intervalOf(block, 'm1', 'overall')).toEqual([0.5, 0.7]);
    expect(intervalOf(block, 'm2', 'category/table/overall')).toBeUndefined();
    expect(intervalOf(null, 'm1', 'overall')).toBeUndefined();
    expect(intervalTitle(block, 'm1', 'category/table/n')).toBeNull();
  });

  it('maps a key to the longest group id that prefixes it, else all', () => {
    expect(groupOfKey(block, 'category/table-x/overall')?.id).toBe('category/table-x');
    expect(groupOfKey(block, 'category/table/overall')?.id).toBe('category/table');
    expect(groupOfKey(block, 'r2t/accuracy')?.id).toBe('all');
    // Only a prefix names the group of a table row (the n < 30 mark): none for the dataset's keys.
    expect(prefixGroupOfKey(block, 'r2t/accuracy')).toBeUndefined();
    expect(prefixGroupOfKey(block, 'category/table/n')?.units).toBe(12);
  });

  it('writes the interval in the metric display format and flags a group under 30 units', () => {
    expect(formatInterval('x/hmean', [0.61234, 0.69])).toBe('61.23 – 69.00');
    const t = intervalTitle(block, 'm1', 'category/table/overall');
    expect(t).toBe('95 % interval 10.00 – 40.00\nbootstrap, 1000 replicates; category/table: 12 units (n < 30)');
    expect(intervalTitle(block, 'm1', 'overall')).toBe('95 % interval 50.00 – 70.00\nbootstrap, 1000 replicates; all: 120 units');
  });
});

describe('differences of a pair', () => {
  it('reads the stored pair as A − B, negating and swapping the interval for the reverse order', () => {
    const fwd = differencesOf(block, 'm1', 'm2').find((d) => d.group === 'category/table')!;
    const rev = differencesOf(block, 'm2', 'm1').find((d) => d.group === 'category/table')!;
    expect([fwd.diff, fwd.ci]).toEqual([-0.3, [-0.4, -0.2]]);
    expect([rev.diff, rev.ci]).toEqual([0.3, [0.2, 0.4]]);
    expect(rev.p_holm).toBe(fwd.p_holm);
    expect(differencesOf(block, 'm1', 'm1')).toEqual([]);
    expect(differencesOf(block, 'm1', 'other')).toEqual([]);
  });

  it('marks significance when p_holm < 1 − level', () => {
    expect(isSignificant(0.049, 0.95)).toBe(true);
    expect(isSignificant(0.06, 0.95)).toBe(false);
    expect(isSignificant(0.009, 0.99)).toBe(true);
    expect(isSignificant(0.011, 0.99)).toBe(false);
    expect(differencesOf(block, 'm1', 'm2').map((d) => d.significant)).toEqual([false, true, true, true]);
  });

  it('groups keys into metric families and ranks one family by p_holm, then |Δ|', () => {
    const diffs = differencesOf(block, 'm1', 'm2');
    expect(familyOf('category/table', 'category/table/overall')).toBe('overall');
    expect(familyOf('all', 't2r/f1')).toBe('t2r/f1');
    expect(familiesOf(diffs)).toEqual(['overall', 't2r/f1']);
    // Two groups tie at p_holm 0.01: the larger |Δ| (0.3) comes first; then all at 0.2.
    expect(rankDifferences(diffs, 'overall').map((d) => d.group)).toEqual(['category/table', 'category/table-x', 'all']);
    expect(rankDifferences(diffs, 't2r/f1').map((d) => d.group)).toEqual(['all']);
  });

  it('puts a difference without a p (no units) last', () => {
    const diffs = differencesOf({ ...block, pairs: [pair('all', 'overall', NaN, NaN), pair('category/table', 'category/table/overall', 0.01, 0.9)] }, 'm1', 'm2');
    expect(rankDifferences(diffs, 'overall').map((d) => d.group)).toEqual(['category/table', 'all']);
  });

  it('shows the layout headlines, in their order, else the first group', () => {
    const diffs = differencesOf(block, 'm1', 'm2');
    expect(headlineDifferences(diffs, ['t2r/f1', 'overall']).map((d) => d.key)).toEqual(['t2r/f1', 'overall']);
    expect(headlineDifferences(diffs, ['nope']).map((d) => d.key)).toEqual(['overall', 't2r/f1']);
  });
});

describe('the cases of a group', () => {
  const table: Record<string, string[]> = { category: ['Table'], source_dataset: ['pubtab'], script: ['seal'], group: ['ancient', 'modern'] };
  const lookup = (keys: readonly string[], value: string) => {
    for (const k of keys) {
      const hit = table[k]?.find((v) => v.toLowerCase() === value.toLowerCase());
      if (hit) return { key: k, value: hit };
    }
    return undefined;
  };

  it('lists everything for all, a split with its skipped images left out for LTB', () => {
    expect(groupCases('gansulishuzhi', 'all', lookup)).toEqual({ facets: [] });
    expect(groupCases('ltb', 'blurred', lookup)).toEqual({ options: { case_split: 'blurred', case_threshold: null }, facets: [], outcomesA: ['pass', 'partial', 'fail'] });
  });

  it('maps TABench slices and Chronicles groups to their facets, and refuses what the table lacks', () => {
    expect(groupCases('tabench', 'category/table', lookup)).toEqual({ facets: [{ key: 'category', value: 'Table' }] });
    expect(groupCases('tabench', 'source/pubtab', lookup)).toEqual({ facets: [{ key: 'source_dataset', value: 'pubtab' }] });
    expect(groupCases('tabench', 'level/3', lookup)).toBeNull();
    expect(groupCases('chronicles', 'ancient', lookup)).toEqual({ facets: [{ key: 'group', value: 'ancient' }] });
    expect(groupCases('chronicles', 'seal', lookup)).toEqual({ facets: [{ key: 'script', value: 'seal' }] });
    expect(groupCases('pulsebench-select', 'x', lookup)).toBeNull();
  });
});

describe('formatting a difference', () => {
  it('signs a difference by the digits shown, and writes small p-values as < 0.001', () => {
    expect(formatDelta('hard/hmean', 0.021)).toBe('+2.10');
    expect(formatDelta('hard/hmean', -0.0035)).toBe('−0.35');
    expect(formatDelta('hard/hmean', -0.00001)).toBe('0.00');
    expect(formatP(0.0004)).toBe('< 0.001');
    expect(formatP(0.0441)).toBe('0.044');
    expect(formatP(NaN)).toBe('—');
  });
});

describe('whether opening a group needs a rescore', () => {
  const ltb = (split: string) => ({ case_split: split, case_threshold: null });
  it('not for the split already shown (set, or the default in effect) with no pinned threshold', () => {
    expect(changesCases(ltb('hard'), {}, { key: 'case_split', unit: 'hard' })).toBe(false);
    expect(changesCases(ltb('blurred'), { case_split: 'blurred' }, { key: 'case_split', unit: 'blurred' })).toBe(false);
  });
  it('for another split, or a pinned case threshold to clear', () => {
    expect(changesCases(ltb('blurred'), {}, { key: 'case_split', unit: 'hard' })).toBe(true);
    expect(changesCases(ltb('hard'), { case_threshold: 0.5 }, { key: 'case_split', unit: 'hard' })).toBe(true);
  });
});
