import { describe, expect, it } from 'vitest';
import { facetLabel, formatCount, formatScore, isNumericFacet, middleEllipsis, orderFacetValues, outcomeName, rowErrors, rowFacets, rowTask, varyingFacets } from './format';
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

describe('what tells cases apart', () => {
  it('shortens a long id in the middle, keeping the folder and the file name with its task', () => {
    const id = 'images/甲骨文/some-long-folder-name/re_000123.jpg#parsing';
    const short = middleEllipsis(id, 24);
    expect([...short]).toHaveLength(24);
    expect(short.startsWith('images/')).toBe(true);
    expect(short.endsWith('0123.jpg#parsing')).toBe(true);
    expect(short).toContain('…');
    expect(middleEllipsis('img_1.jpg', 24)).toBe('img_1.jpg');
  });

  it('sorts a numeric facet as numbers (2 before 10) and any other naturally', () => {
    const values = ['10', '2', '1.5', '100'];
    const counts = new Uint32Array([1, 1, 1, 1]);
    expect(orderFacetValues(values, counts, []).map((c) => values[c])).toEqual(['1.5', '2', '10', '100']);
    expect(isNumericFacet(values)).toBe(true);
    const mixed = ['page 10', 'page 2', 'page 1'];
    expect(orderFacetValues(mixed, new Uint32Array(3), []).map((c) => mixed[c])).toEqual(['page 1', 'page 2', 'page 10']);
    expect(isNumericFacet(mixed)).toBe(false);
  });

  it('puts chips only for facets that differ between cases, and reads the task', () => {
    const table = {
      facets: [facetColumn('task', [['parsing'], ['spotting']]), facetColumn('script', [['楷书'], ['楷书']]), facetColumn('challenge', [['occluded'], []])],
    } as unknown as CaseTable;
    expect(varyingFacets(table)).toEqual(['challenge']);
    expect(rowTask(table, 1)).toBe('spotting');
  });
});
