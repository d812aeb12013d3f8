/**
 * `case_threshold`: the per-image cases at another threshold of the sweep (what a point of the
 * page's threshold curve opens). No metric and no report diagnostics change; the cases and their
 * error classes are those of that threshold.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../../model';
import { BenchSession } from '../../session';
import { makeDemo } from './demo';

async function demo() {
  const bundle = await makeDemo();
  const session = await BenchSession.open(bundle.source, 'ltb');
  for (const p of bundle.predictions) await session.addPredictions(p);
  return session;
}

describe('the LTB case_threshold option', () => {
  it('changes the cases, never a metric or the report diagnostics', async () => {
    const session = await demo();
    const base = session.resolveProtocol(undefined, {});
    const at = session.resolveProtocol(undefined, { case_threshold: '0.8' });
    const a = await session.score(base);
    const b = await session.score(at);
    const ra = session.report(base, a);
    const rb = session.report(at, b);
    for (const m of Object.keys(ra.models)) {
      expect(rb.models[m].metrics).toEqual(ra.models[m].metrics);
      expect(rb.models[m].diagnostics).toEqual(ra.models[m].diagnostics);
    }
    for (const [i, r] of b.entries()) {
      expect(r.extra?.case_threshold).toBeCloseTo(0.8, 12); // the sweep's own value (arange: 0.8000000000000003)
      expect(a[i].extra?.case_threshold).toBe(ra.models[r.model].metrics['hard/threshold']);
      // Every case's classes cover exactly its FNs and FPs at 0.8.
      for (const c of r.cases) {
        for (const g of c.gt) expect(g.state === 'fn', `${c.case_id} gt ${g.id}`).toBe(g.error !== undefined);
        for (const p of c.pred) expect(p.state === 'fp', `${c.case_id} pred ${p.id}`).toBe(p.error !== undefined);
      }
    }
    // At 0.8 fewer predictions take part than at either model's best threshold (0.5, 0.3).
    const taking = (rs: typeof a) => rs.flatMap((r) => r.cases.flatMap((c) => c.pred.filter((p) => p.state === 'tp' || p.state === 'fp'))).length;
    expect(taking(b)).toBeLessThan(taking(a));
  });

  it('refuses a threshold the protocol does not score', async () => {
    const session = await demo();
    expect(() => session.resolveProtocol(undefined, { case_threshold: '0.55' })).toThrow(InputError);
    expect(() => session.resolveProtocol(undefined, { score_thr: '0.6', case_threshold: '0.7' })).toThrow(/0\.6/);
  });
});
