import { describe, expect, it } from 'vitest';
import { facetLabel, formatCount, formatScore, orderFacetValues, outcomeName, rowErrors, rowFacets } from './format';
import { facetColumn } from './syntheticTable';
import type { CaseTable } from '../../../core/caseTable';

describe('case row formatting', () => {
  it('formats counts with thousands separators, like toLocaleString("en")', () => {
    for (const n of [0, 7, 999, 1000, 20000, 123456, 1234567, -4500]) expect(formatCount(n)).toBe(n.toLocaleString('en'));
  });

  it('formats scores and outcomes', () => {
    expect(formatScore(NaN)).toBe('—');
    expect(formatScore(0.8333333)).toBe('0.833');
    expect(formatScore(1)).toBe('1');
    expect(outcomeName(2)).toBe('fail');
    expect(outcomeName(9)).toBe('none');
  });

  it('decodes a row’s facets and error kinds', () => {
    const table = {
      facets: [facetColumn('task', [['parsing'], ['spotting']]), facetColumn('challenge', [['occluded', 'blurred'], []])],
    } as unknown as CaseTable;
    expect(rowFacets(table, 0)).toEqual([
      { key: 'task', value: 'parsing' },
      { key: 'challenge', value: 'occluded' },
      { key: 'challenge', value: 'blurred' },
    ]);
    expect(rowFacets(table, 0, 2)).toHaveLength(2);
    expect(rowFacets(table, 1)).toEqual([{ key: 'task', value: 'spotting' }]);
    expect(rowErrors(['no_infer', 'no_extract', 'x'], 0b101)).toEqual(['no_infer', 'x']);
  });

  it('orders facet values selected first, then by count', () => {
    expect(orderFacetValues(['a', 'b', 'c', 'd'], Uint32Array.from([1, 5, 5, 0]), ['d'])).toEqual([3, 1, 2, 0]);
    expect(facetLabel('source_dataset')).toBe('source dataset');
  });
});
