/**
 * The error taxonomy on every shared dataset (shared/data/*) with its reference predictions
 * (shared/reference/*): in every unit the FN classes sum to gt − hits and the FP classes to
 * pred − hits, the unit's counts are the official ones, every FN / FP instance of the case view
 * carries a class and the instances add up to the case unit, and scoring with the taxonomy gives
 * the same metrics as scoring without it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { predictionInput as input } from '../../../cli/predictionInput';
import { nodeFolderSource } from '../../../cli/nodeSource';
import { HAS_SHARED, shared } from '../../../test/shared';
import { MemorySource } from '../io/fileSource';
import { ERROR_SLOTS, FN_CLASSES, type ModelResult, type UnitErrors } from '../model';
import { BenchSession } from '../session';

const total = (o: Record<string, number | undefined>) => Object.values(o).reduce((a: number, b) => a + (b ?? 0), 0);

/** The official counts of a unit, read from the metrics. */
function officialCounts(bench: string, key: string, m: Record<string, number>): { gt: number; pred: number; hits: number } | null {
  if (bench === 'ltb') return { gt: m[`${key}/gt`], pred: m[`${key}/pred`], hits: m[`${key}/hits`] };
  if (bench === 'gansulishuzhi') return { gt: m[`${key}/tp`] + m[`${key}/fn`], pred: m[`${key}/tp`] + m[`${key}/fp`], hits: m[`${key}/tp`] };
  if (bench === 'tabench') return { gt: m['t2r/tp'] + m['t2r/fn'], pred: m['t2r/tp'] + m['t2r/fp'], hits: m['t2r/tp'] };
  return null; // Chronicles reports per-row means, not pooled counts
}

function checkResult(bench: string, r: ModelResult): void {
  const d = r.diagnostics!;
  expect(d, `${r.model}: diagnostics`).toBeDefined();
  const units = Object.entries(d.errors);
  expect(units.length).toBeGreaterThan(0);
  for (const [key, u] of units) {
    const where = `${r.model} ${key}`;
    expect(total(u.fn), `${where}: Σ fn = gt − hits`).toBe(u.gt - u.hits);
    expect(total(u.fp), `${where}: Σ fp = pred − hits`).toBe(u.pred - u.hits);
    const off = officialCounts(bench, key, r.metrics);
    if (off) expect({ gt: u.gt, pred: u.pred, hits: u.hits }, where).toEqual(off);
    for (const [c, x] of Object.entries(u.dhmean)) expect(Number.isFinite(x), `${where} dhmean ${c}`).toBe(true);
  }
  if (bench === 'ltb') expect(d.errors[d.case_unit].threshold).toBe(r.metrics[`${d.case_unit}/threshold`]);

  // Case view: every FN / FP of the cases in the taxonomy has a class; they add up to the case unit.
  const n = ERROR_SLOTS.length;
  const inTaxonomy = (c: ModelResult['cases'][number]) =>
    bench === 'tabench' ? c.task === 'T2R' : bench === 'chronicles' ? c.task === 'spotting' && c.detail?.in_mean === true : true;
  const fromInstances = new Float64Array(n);
  const fromColumn = new Float64Array(n);
  r.cases.forEach((c, i) => {
    for (let s = 0; s < n; s++) if (inTaxonomy(c)) fromColumn[s] += d.case_counts[i * n + s];
    if (!inTaxonomy(c)) return;
    for (const g of c.gt) {
      if (g.state !== 'fn') continue;
      expect(g.error, `${r.model} ${c.case_id} gt ${g.id}`).toBeDefined();
      fromInstances[FN_CLASSES.indexOf(g.error as never)]++;
    }
    for (const p of c.pred) {
      if (p.state !== 'fp') continue;
      expect(p.error, `${r.model} ${c.case_id} pred ${p.id}`).toBeDefined();
      fromInstances[ERROR_SLOTS.findIndex((x) => x.side === 'fp' && x.cls === p.error)]++;
    }
  });
  expect([...fromColumn], `${r.model}: case_counts = instance classes`).toEqual([...fromInstances]);
  // The case unit (LTB: the case split; gansulishuzhi: iou0.5; TABench: t2r; Chronicles: all/spotting, every script's rows).
  const caseUnit: UnitErrors = d.errors[d.case_unit];
  const want = ERROR_SLOTS.map((s) => (s.side === 'fn' ? caseUnit.fn : caseUnit.fp)[s.cls as never] ?? 0);
  expect([...fromInstances], `${r.model}: instances = unit ${d.case_unit}`).toEqual(want);
}

async function scoreBoth(session: BenchSession, options: Record<string, string> = {}, protocol?: string) {
  const p = session.resolveProtocol(protocol, options);
  const withTx = await session.score(p);
  const without = await session.score(p, { diagnostics: false });
  withTx.forEach((r, i) => {
    expect(without[i].diagnostics).toBeUndefined();
    expect(r.metrics, `${r.model}: metrics with and without the taxonomy`).toEqual(without[i].metrics);
  });
  return { results: withTx, report: session.report(p, withTx) };
}

describe.skipIf(!HAS_SHARED)('error taxonomy invariants on the shared datasets', () => {
  it('ltb-mini × the three reference prediction forms × both variants', async () => {
    const ref = shared('reference', 'ltb');
    const session = await BenchSession.open(nodeFolderSource(shared('data', 'ltb-mini')));
    for (const f of ['ltbmini-object.json', 'ltbmini-mmocr.jsonl', 'ltbmini-icdar']) await session.addPredictions(input(join(ref, f)));
    for (const variant of ['mmocr-1.0.1', 'mmocr-0.6.3']) {
      for (const options of [{}, { case_split: 'norm' }, { score_thr: '0.5' }] as Record<string, string>[]) {
        const { results, report } = await scoreBoth(session, options, variant);
        expect(results).toHaveLength(3);
        for (const r of results) {
          checkResult('ltb', r);
          expect(Object.keys(r.diagnostics!.errors)).toHaveLength(15);
        }
        expect(report.diagnostics?.suspects).toBeDefined();
      }
    }
  });

  it('icdar2015-toy, with predictions made from its own GT (shifted, sliced, dropped)', async () => {
    const gtDir = shared('data', 'icdar2015-toy', 'gt');
    const files: Record<string, string> = {};
    for (const f of readdirSync(gtDir)) {
      const lines = readFileSync(join(gtDir, f), 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/).filter(Boolean);
      const out: string[] = [];
      lines.forEach((l, i) => {
        const xy = l.split(',').slice(0, 8).map(Number);
        const score = [0.95, 0.6, 0.35, 0.2][i % 4];
        if (i % 5 === 0) return; // a miss
        const dx = (i % 3) * 4; // 0, 4, 8 px: some matches, some off
        out.push([...xy.map((v, k) => (k % 2 === 0 ? v + dx : v)), score].join(','));
        if (i % 7 === 0) out.push([...xy.map((v, k) => (k % 2 === 0 ? v + 1 : v)), 0.9].join(',')); // a duplicate
      });
      files[f.replace(/^gt_/, 'res_')] = out.join('\n') + '\n';
    }
    const session = await BenchSession.open(nodeFolderSource(shared('data', 'icdar2015-toy')));
    await session.addPredictions({ source: new MemorySource('res', files), path: '', name: 'shifted' });
    const { results } = await scoreBoth(session);
    for (const r of results) checkResult('ltb', r);
    const classes = new Set(Object.values(results[0].diagnostics!.errors).flatMap((u) => [...Object.keys(u.fn), ...Object.keys(u.fp)]));
    expect(classes.size).toBeGreaterThanOrEqual(3);
  });

  it('gansulishuzhi-mini with its bundled runs and the reference runs', async () => {
    const session = await BenchSession.open(nodeFolderSource(shared('data', 'gansulishuzhi-mini')));
    await session.addBundledPredictions();
    for (const f of ['glm4v-sim.jsonl', 'qwen25vl-7b-sim.jsonl']) await session.addPredictions(input(shared('reference', 'gansulishuzhi', f)));
    const { results } = await scoreBoth(session);
    for (const r of results) {
      checkResult('gansulishuzhi', r);
      expect(Object.keys(r.diagnostics!.errors).sort()).toEqual(['iou0.3', 'iou0.5', 'iou0.7']);
    }
  });

  it('tabench-mini with the reference predictions, micro and macro', async () => {
    const session = await BenchSession.open(nodeFolderSource(shared('data', 'tabench-mini')));
    for (const f of ['qwen3vl-2b-sim.jsonl', 'thinker-7b-sim.jsonl']) await session.addPredictions(input(shared('reference', 'tabench', f)));
    for (const options of [{}, { t2r_average: 'macro' }] as Record<string, string>[]) {
      const { results } = await scoreBoth(session, options);
      for (const r of results) checkResult('tabench', r);
    }
  });

  it('chronicles-mini with its bundled results', async () => {
    const session = await BenchSession.open(nodeFolderSource(shared('data', 'chronicles-mini')));
    await session.addBundledPredictions();
    for (const options of [{}, { reextract: 'true' }] as Record<string, string>[]) {
      const { results } = await scoreBoth(session, options);
      for (const r of results) {
        checkResult('chronicles', r);
        for (const key of Object.keys(r.diagnostics!.errors)) expect(r.metrics[key], key).toBeTypeOf('number');
      }
    }
  });

  it('pulsebench-select-mini has no matching step: no diagnostics, no suspects', async () => {
    const session = await BenchSession.open(nodeFolderSource(shared('data', 'pulsebench-select-mini')));
    await session.addPredictions(input(shared('reference', 'pulsebench-select', 'pulse-ultra-sim.jsonl')));
    const p = session.resolveProtocol();
    const results = await session.score(p);
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) expect(r.diagnostics).toBeUndefined();
    expect(session.report(p, results).diagnostics).toBeUndefined();
  });
});
