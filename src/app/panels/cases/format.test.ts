import { describe, expect, it } from 'vitest';
import { chipsThatFit, chipText, CHIP_CHARS, facetLabel, facetName, formatCount, hasDetectionCounts, textWidth, formatScore, isNumericFacet, middleEllipsis, orderFacetValues, outcomeName, rowErrors, rowFacets, rowTask, varyingFacets } from './format';
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

describe('row chips', () => {
  it('name yes / no and number facets, and leave words alone', () => {
    expect(chipText('has_care_gt', 'false')).toBe('has care GT: no');
    expect(chipText('has_figures', 'true')).toBe('has figures: yes');
    expect(chipText('has_selection', 'false')).toBe('has selection: no');
    expect(chipText('page', '12')).toBe('page 12');
    expect(chipText('challenge', 'glass')).toBe('glass');
    expect(chipText('script_name', '甲骨文')).toBe('甲骨文');
    expect(facetName('source_dataset')).toBe('source dataset');
  });

  it('cut a long value by code points, at a readable length', () => {
    const long = chipText('category', 'a very long category name indeed');
    expect([...long]).toHaveLength(CHIP_CHARS);
    expect(long.endsWith('…')).toBe(true);
    expect(chipText('x', '𠀀'.repeat(30)).startsWith('𠀀'.repeat(CHIP_CHARS - 1))).toBe(true);
  });

  it('fit whole chips into the room left, keeping room for "+N", and always show one', () => {
    const chips = ['oracle_bone', '甲骨文', 'ancient'];
    const all = chips.reduce((w, t) => w + textWidth(t) + 14, 0);
    expect(chipsThatFit(chips, all + 1)).toBe(3);
    // One short of all three: two whole ones and "+1".
    const two = chipsThatFit(chips, all - 1);
    expect(two).toBe(2);
    expect(chipsThatFit(chips, 10)).toBe(1);
    expect(chipsThatFit([], 100)).toBe(0);
    // Wide characters count about double.
    expect(textWidth('甲骨文')).toBeGreaterThan(textWidth('abc') * 1.5);
  });
});

describe('FN / FP counts on rows', () => {
  const counts = (misses: number[], fps: number[]) => ({
    score: new Float64Array(misses.length),
    outcome: new Uint8Array(misses.length),
    misses: Uint32Array.from(misses),
    falsePositives: Uint32Array.from(fps),
    errorKinds: [],
    errorMask: new Uint32Array(misses.length),
  });
  const table = (task: string[] | null, misses: number[], fps: number[]): CaseTable => ({
    caseIds: misses.map((_, i) => `c${i}`),
    imagePaths: misses.map(() => null),
    imageFiles: misses.map(() => null),
    facets: task ? [facetColumn('task', task.map((t) => [t]))] : [],
    models: ['m'],
    perModel: { m: counts(misses, fps) },
    searchText: misses.map(() => ''),
  });

  it('show where a task localises (some model has FN / FP on it), not on label or text tasks', () => {
    const t = table(['spotting', 'spotting', 'classification', 'parsing', 'R2T', 'T2R'], [0, 2, 1, 0, 0, 0], [0, 0, 1, 0, 1, 1]);
    const has = hasDetectionCounts(t);
    expect([0, 1, 2, 3, 4, 5].map(has)).toEqual([true, true, false, false, false, true]);
  });

  it('show on every row of a detection table without tasks, and on none where nothing is ever missed or false', () => {
    expect(hasDetectionCounts(table(null, [0, 1, 0], [0, 0, 0]))(0)).toBe(true);
    expect(hasDetectionCounts(table(['vqa', 'vqa'], [0, 0], [0, 0]))(0)).toBe(false);
  });
});
