import { describe, expect, it } from 'vitest';
import { buildReport, type Report, type UnitErrors } from '../../core';
import { classRows, maxGain } from './diagnostics';

const unit = (fn: UnitErrors['fn'], fp: UnitErrors['fp'], dhmean: UnitErrors['dhmean']): UnitErrors => ({ threshold: 0.5, gt: 10, pred: 10, hits: 5, fn, fp, dhmean });

function report(errors: Record<string, Record<string, UnitErrors>>): Report {
  const r = buildReport('ltb', { name: 'p', options: {} }, { cases: 1, images: 1 }, Object.keys(errors).map((model) => ({ model, metrics: {}, counts: {}, warnings: [] })));
  for (const [m, e] of Object.entries(errors)) r.models[m].diagnostics = { errors: e };
  return r;
}

describe('classRows', () => {
  const r = report({
    a: { hard: unit({ missed: 3, split: 1 }, { background: 2, split: 2 }, { missed: 0.1, split: 0.05, background: 0.02, all_fp: 0.03, all_fn: 0.2 }) },
    b: { hard: unit({ localization: 1 }, {}, { localization: 0.01 }), norm: unit({ missed: 9 }, {}, {}) },
    c: {},
  });

  it('lists the classes any model has, in the spec order, FN and FP of a class together', () => {
    const rows = classRows(r, ['a', 'b', 'c'], 'hard');
    expect(rows.map((x) => x.cls)).toEqual(['split', 'localization', 'missed', 'background']);
    expect(rows[0].cells).toEqual([{ fn: 1, fp: 2, dhmean: 0.05 }, { fn: 0, fp: 0, dhmean: null }, undefined]);
    expect(rows[2].cells[0]).toEqual({ fn: 3, fp: 0, dhmean: 0.1 });
  });

  it('follows the unit', () => {
    expect(classRows(r, ['a', 'b'], 'norm').map((x) => [x.cls, x.cells.map((c) => c?.fn)])).toEqual([['missed', [undefined, 9]]]);
  });

  it('scales bars to the largest gain, all_fn included', () => {
    expect(maxGain(classRows(r, ['a'], 'hard'), [r.models.a.diagnostics!.errors.hard])).toBe(0.2);
  });
});
