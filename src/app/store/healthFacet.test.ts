import { describe, expect, it } from 'vitest';
import type { CaseTable } from '../../core';
import type { GtHealth } from '../../worker/client';
import { GT_HEALTH_FACET, withHealthFacet } from './healthFacet';

const table = (): CaseTable => ({
  caseIds: ['a', 'b', 'c'],
  imagePaths: ['a', 'b', 'c'],
  imageFiles: ['a', 'b', 'c'],
  facets: [{ key: 'split', values: ['x'], offsets: Uint32Array.from([0, 1, 2, 3]), codes: Uint32Array.from([0, 0, 0]) }],
  models: [],
  perModel: {},
  searchText: ['', '', ''],
});

const health = (findings: [string, string][]): GtHealth => ({
  benchmark: 'ltb',
  dataset: { cases: 3, instances: 5 },
  findings: findings.map(([case_id, kind]) => ({ case_id, kind, severity: 'warning', detail: '' })),
  counts: {},
  fixed: [],
  corrections: 0,
});

describe('the gt_health facet of the case list', () => {
  it('gives each case its distinct finding kinds, values sorted, other facets kept', () => {
    const t = withHealthFacet(table(), health([['c', 'empty_text'], ['a', 'duplicate_instance'], ['c', 'empty_text'], ['c', 'duplicate_instance']]));
    expect(t.facets.map((f) => f.key)).toEqual(['split', GT_HEALTH_FACET]);
    const col = t.facets[1];
    expect(col.values).toEqual(['duplicate_instance', 'empty_text']);
    const of = (i: number) => [...col.codes.slice(col.offsets[i], col.offsets[i + 1])].map((c) => col.values[c]).sort();
    expect([of(0), of(1), of(2)]).toEqual([['duplicate_instance'], [], ['duplicate_instance', 'empty_text']]);
  });

  it('is replaced on each new check and dropped when nothing is left', () => {
    const once = withHealthFacet(table(), health([['a', 'empty_text']]));
    const again = withHealthFacet(once, health([['b', 'out_of_image']]));
    expect(again.facets.filter((f) => f.key === GT_HEALTH_FACET)).toHaveLength(1);
    expect(again.facets[1].values).toEqual(['out_of_image']);
    expect(withHealthFacet(again, health([])).facets.map((f) => f.key)).toEqual(['split']);
    // The same kinds per case again: the very same table (the list is not redrawn for nothing).
    expect(withHealthFacet(again, health([['b', 'out_of_image']]))).toBe(again);
  });
});
