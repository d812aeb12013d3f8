/**
 * GT-only cases for every benchmark's demo: the same cases, facets and GT numbering as a scored
 * model's records, with nothing a prediction decided left on them.
 */
import { describe, expect, it } from 'vitest';
import { BenchSession } from './session';
import { gtOnlyResult, GT_ONLY_MODEL } from './gtCases';
import type { BenchmarkId } from './model';

const DEMOS: BenchmarkId[] = ['ltb', 'chronicles', 'gansulishuzhi', 'tabench', 'pulsebench-select'];

describe.each(DEMOS)('gtOnlyResult on the %s demo', (id) => {
  it('lists every scored case with its GT, unscored and without predictions', async () => {
    const { makeDemo } = (await import(`./benchmarks/${id}/demo.ts`)) as { makeDemo: () => Promise<import('./demo').DemoBundle> };
    const bundle = await makeDemo();
    const session = await BenchSession.open(bundle.source, id);
    await session.addBundledPredictions();
    for (const p of bundle.predictions) await session.addPredictions(p);
    const protocol = session.resolveProtocol();
    const [scored] = await session.score(protocol);
    const gtOnly = await gtOnlyResult(session.adapter, session.dataset, protocol);

    expect(gtOnly.model).toBe(GT_ONLY_MODEL);
    // Every case a model's record has (a model may leave rows out: Chronicles lists only rows it answered).
    const gtIds = gtOnly.cases.map((c) => c.case_id);
    expect(gtIds).toEqual(expect.arrayContaining(scored.cases.map((c) => c.case_id)));
    expect(new Set(gtIds).size).toBe(gtIds.length);
    const byId = new Map(scored.cases.map((c) => [c.case_id, c]));
    let instances = 0;
    for (const c of gtOnly.cases) {
      const s = byId.get(c.case_id)!;
      const { missed: _m, flag: _f, ...gtFacets } = s.facets;
      expect(c.facets).toEqual(gtFacets);
      expect(c.image_path).toBe(s.image_path);
      expect(c.outcome).toBe('skipped');
      expect(c.score).toBeNull();
      expect(c.pred).toEqual([]);
      expect(c.errors).toEqual([]);
      // Same numbering and geometry as the viewer shows under a model — except Chronicles'
      // Recognition target, whose box and character the results file carries (gtCases.ts says so).
      if (id === 'chronicles' && c.task === 'recognition') expect(c.gt.map((g) => g.id)).toEqual(s.gt.map((g) => g.id));
      else expect(c.gt.map((g) => [g.id, g.shape, g.text])).toEqual(s.gt.map((g) => [g.id, g.shape, g.text]));
      for (const g of c.gt) {
        expect(['info', 'dontcare', 'unk']).toContain(g.state);
        expect(g.iou).toBeUndefined();
        expect(g.error).toBeUndefined();
      }
      instances += c.gt.length;
    }
    expect(instances).toBeGreaterThan(0);
  });
});
