/**
 * The error classes of the case table (the case list's error-class facet, and what a class bar of
 * the report filters on) are exactly the classes of each case's FN and FP instances.
 */
import { describe, expect, it } from 'vitest';
import { BenchSession, errorClassKind, parseErrorClassKind, type CaseRecord, type ModelResult } from '../core';
import { makeDemo } from '../core/benchmarks/ltb/demo';
import { buildCaseTable } from './buildCaseTable';

function instanceKinds(c: CaseRecord): string[] {
  const out = new Set<string>();
  for (const g of c.gt) if (g.state === 'fn' && g.error) out.add(errorClassKind('fn', g.error));
  for (const p of c.pred) if (p.state === 'fp' && p.error) out.add(errorClassKind('fp', p.error));
  return [...out].sort();
}

function tableKinds(results: ModelResult[], model: string): Map<string, string[]> {
  const t = buildCaseTable(results);
  const cols = t.perModel[model];
  return new Map(
    t.caseIds.map((id, i) => [
      id,
      cols.errorKinds
        .filter((k, bit) => parseErrorClassKind(k) && (cols.errorMask[i] & (1 << bit)) !== 0)
        .sort(),
    ]),
  );
}

describe('the case table error classes', () => {
  it('match the FN / FP instances of every case of the LTB demo, from the per-case counts and from the instances alike', async () => {
    const bundle = await makeDemo();
    const session = await BenchSession.open(bundle.source, 'ltb');
    for (const p of bundle.predictions) await session.addPredictions(p);
    const protocol = session.resolveProtocol(undefined, {});
    const results = await session.score(protocol);
    let classed = 0;
    for (const r of results) {
      const fromCounts = tableKinds(results, r.model);
      // Without the per-case counts, the instances' `error` fields are read instead.
      const fromInstances = tableKinds(
        results.map((x) => ({ ...x, diagnostics: undefined })),
        r.model,
      );
      for (const c of r.cases) {
        const want = instanceKinds(c);
        classed += want.length;
        expect(fromCounts.get(c.case_id), `${r.model} ${c.case_id}`).toEqual(want);
        expect(fromInstances.get(c.case_id), `${r.model} ${c.case_id}`).toEqual(want);
      }
    }
    expect(classed).toBeGreaterThan(0);
  });
});
