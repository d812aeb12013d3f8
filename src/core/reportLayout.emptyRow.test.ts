import { describe, expect, it } from 'vitest';
import { LTB_REPORT_LAYOUT } from './benchmarks/ltb/reportLayout';
import { emptyRowCounts, type ReportSection } from './reportLayout';

const grid = LTB_REPORT_LAYOUT.sections.find((s): s is Extract<ReportSection, { kind: 'grid' }> => s.kind === 'grid')!;

describe('an empty LTB split row', () => {
  it('is one with gt 0 and pred 0, whatever the official hmean says', () => {
    expect(emptyRowCounts(grid, { 'glass/gt': 0, 'glass/pred': 0, 'glass/hmean': 1 }, 'glass')).toEqual({ gt: 0, pred: 0 });
  });
  it('is not one with predictions (precision 0 is a real number) or with GT', () => {
    expect(emptyRowCounts(grid, { 'glass/gt': 0, 'glass/pred': 3, 'glass/hmean': 0 }, 'glass')).toBeNull();
    expect(emptyRowCounts(grid, { 'glass/gt': 2, 'glass/pred': 0 }, 'glass')).toBeNull();
    expect(emptyRowCounts(grid, { 'glass/hmean': 1 }, 'glass')).toBeNull(); // counts not reported: say nothing
    expect(emptyRowCounts(grid, undefined, 'glass')).toBeNull();
  });
  it('replaces the rates and the threshold, not the counts', () => {
    expect(grid.emptyRow?.columns).toEqual(['hmean', 'precision', 'recall', 'threshold']);
  });
});
