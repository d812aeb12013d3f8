import { describe, expect, it } from 'vitest';
import type { CaseRecord, ModelResult } from '../core';
import { buildCaseTable, caseTableTransferables } from './buildCaseTable';

const rec = (id: string, over: Partial<CaseRecord> = {}): CaseRecord => ({
  case_id: id,
  image_path: `imgs/${id}.jpg`,
  facets: {},
  score: 1,
  outcome: 'pass',
  gt: [],
  pred: [],
  matches: [],
  errors: [],
  ...over,
});
const result = (model: string, cases: CaseRecord[]): ModelResult => ({ model, metrics: {}, counts: {}, warnings: [], cases });

describe('buildCaseTable', () => {
  const a = result('A', [
    rec('c1', {
      facets: { challenge: ['occluded', 'dense'], task: 'T2R' },
      gt: [
        { id: 0, state: 'fn', text: 'EXIT' },
        { id: 1, state: 'tp', text: 'Stage' },
      ],
      pred: [{ id: 0, state: 'fp', text: 'EX1T' }],
      score: 0.5,
      outcome: 'partial',
      errors: ['unparseable_output'],
    }),
    rec('c2', { facets: { task: 'R2T' }, image_file: null, score: null, outcome: 'skipped' }),
  ]);
  const b = result('B', [rec('c3', { facets: { task: 'R2T', challenge: 'glass' } }), rec('c1', { errors: ['no_extract', 'unparseable_output'] })]);
  const t = buildCaseTable([a, b]);

  it('keeps the first model order and appends cases only later models have', () => {
    expect(t.caseIds).toEqual(['c1', 'c2', 'c3']);
    expect(t.models).toEqual(['A', 'B']);
    expect(t.imagePaths).toEqual(['imgs/c1.jpg', 'imgs/c2.jpg', 'imgs/c3.jpg']);
    // image_file null means the image is missing; absent means "same as image_path".
    expect(t.imageFiles).toEqual(['imgs/c1.jpg', null, 'imgs/c3.jpg']);
  });

  it('stores multi-valued facets in CSR layout with sorted distinct values', () => {
    const ch = t.facets.find((f) => f.key === 'challenge')!;
    expect(ch.values).toEqual(['dense', 'glass', 'occluded']);
    const of = (row: number) => [...ch.codes.subarray(ch.offsets[row], ch.offsets[row + 1])].map((c) => ch.values[c]).sort();
    expect(of(0)).toEqual(['dense', 'occluded']);
    expect(of(1)).toEqual([]);
    expect(of(2)).toEqual(['glass']);
    const task = t.facets.find((f) => f.key === 'task')!;
    expect(task.values).toEqual(['R2T', 'T2R']);
  });

  it('codes outcomes, scores, misses and false positives per model; absent cases are "none"', () => {
    const A = t.perModel.A;
    expect([...A.outcome]).toEqual([1, 3, 4]);
    expect(A.score[0]).toBe(0.5);
    expect(Number.isNaN(A.score[1])).toBe(true);
    expect(Number.isNaN(A.score[2])).toBe(true);
    expect([...A.misses]).toEqual([1, 0, 0]);
    expect([...A.falsePositives]).toEqual([1, 0, 0]);
    expect([...t.perModel.B.outcome]).toEqual([0, 4, 0]);
  });

  it('gives each model its own error kinds and bitmask', () => {
    expect(t.perModel.A.errorKinds).toEqual(['unparseable_output']);
    expect(t.perModel.A.errorMask[0]).toBe(1);
    expect(t.perModel.B.errorKinds).toEqual(['no_extract', 'unparseable_output']);
    expect(t.perModel.B.errorMask[0]).toBe(0b11);
  });

  it('folds error kinds past the 31st into one "other errors" bit', () => {
    const many = rec('x', { errors: Array.from({ length: 40 }, (_, i) => `e${i}`) });
    const tt = buildCaseTable([result('M', [many])]);
    expect(tt.perModel.M.errorKinds).toHaveLength(32);
    expect(tt.perModel.M.errorKinds[31]).toBe('other errors');
    expect(tt.perModel.M.errorMask[0] >>> 0).toBe(0xffffffff);
  });

  it('collects lower-cased GT and predicted text for search, across models', () => {
    expect(t.searchText[0]).toContain('exit');
    expect(t.searchText[0]).toContain('stage');
    expect(t.searchText[0]).toContain('ex1t');
  });

  it('lists every typed-array buffer for transfer', () => {
    expect(caseTableTransferables(t)).toHaveLength(2 * t.facets.length + 5 * t.models.length);
  });
});

describe('buildCaseTable with prediction instances built on demand (LTB, millions of predictions)', () => {
  it('gives the same table from the counted columns without building any prediction instance', async () => {
    const { makeDemo } = await import('../core/benchmarks/ltb/demo');
    const { ON_DEMAND } = await import('../core/benchmarks/ltb/cases');
    const { BenchSession } = await import('../core/session');
    const demo = await makeDemo();
    const session = await BenchSession.open(demo.source);
    for (const p of demo.predictions) await session.addPredictions(p);
    const protocol = session.resolveProtocol(undefined, {});
    const eager = await session.score(protocol);
    const saved = ON_DEMAND.predictions;
    ON_DEMAND.predictions = -1;
    try {
      const lazy = await session.score(protocol);
      expect(lazy[0].caseCounts).toBeDefined();
      expect(eager[0].caseCounts).toBeUndefined();
      // Any read of `pred` would go through the getter: make every read fail.
      for (const r of lazy) for (const c of r.cases) Object.defineProperty(c, 'pred', { get: () => { throw new Error('pred built'); } });
      const t = buildCaseTable(lazy);
      expect(t).toEqual(buildCaseTable(eager));
      expect([...t.perModel['demo-dbnet'].falsePositives].some((n) => n > 0)).toBe(true);
      expect([...t.perModel['demo-dbnet'].misses].some((n) => n > 0)).toBe(true);
    } finally {
      ON_DEMAND.predictions = saved;
    }
  });
});

describe('buildCaseTable error-class columns', () => {
  it('carry the per-case class counts and a bitmask of the classes present, aligned with the table rows', async () => {
    const { ERROR_CLASSES, ERROR_SLOTS, errorSlot } = await import('../core');
    const n = ERROR_SLOTS.length;
    // Model B lists c2 before c1: its counts must land on the table's rows, not its own order.
    const counts = new Uint16Array(2 * n);
    counts[0 * n + errorSlot('fn', 'split')] = 2;
    counts[0 * n + errorSlot('fp', 'split')] = 3;
    counts[1 * n + errorSlot('fp', 'background')] = 1;
    const base = result('A', [rec('c1'), rec('c2')]);
    const b: ModelResult = {
      ...result('B', [rec('c2'), rec('c1')]),
      diagnostics: { errors: {}, case_unit: 'norm', case_counts: counts, background: [], missed: new Uint32Array(0) },
    };
    const t = buildCaseTable([base, b]);
    expect(t.perModel.A.errorClasses).toBeUndefined();
    const cols = t.perModel.B;
    const bit = (c: string) => 1 << ERROR_CLASSES.indexOf(c as never);
    expect([...cols.errorClasses!]).toEqual([bit('background'), bit('split')]);
    expect(cols.errorCounts![1 * n + errorSlot('fn', 'split')]).toBe(2);
    expect(cols.errorCounts![1 * n + errorSlot('fp', 'split')]).toBe(3);
    expect(cols.errorCounts![0 * n + errorSlot('fp', 'background')]).toBe(1);
    expect(caseTableTransferables(t)).toContain(cols.errorCounts!.buffer);
  });
});
