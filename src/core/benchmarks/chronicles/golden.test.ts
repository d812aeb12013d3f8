/**
 * Golden test: every number of shared/reference/chronicles (report metrics and per-case official
 * scores), reproduced over the real-layout mini set — through BenchSession, and through the CLI.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeFolderSource } from '../../../../cli/nodeSource';
import { HAS_SHARED, shared } from '../../../../test/shared';
import type { ModelResult, Protocol } from '../../model';
import { BenchSession } from '../../session';
import { runCli } from '../../../../test/cli';
import { withoutCi } from '../../../../test/withoutCi';

interface ExpectedReport {
  protocol: { name: string };
  dataset: { cases: number; images: number };
  models: Record<string, { metrics: Record<string, number>; counts: Record<string, number> }>;
}

interface ExpectedCase {
  model: string;
  image_path: string;
  script: string;
  font_type: string;
  task: string;
  task_key: string;
  score: number;
  error: string | null;
  outcome: string;
  [k: string]: unknown;
}

function expectMetrics(got: Record<string, number>, exp: Record<string, number>, label: string) {
  expect(Object.keys(got).sort(), label).toEqual(Object.keys(exp).sort());
  for (const [k, v] of Object.entries(exp)) {
    if (k.endsWith('/n')) expect(got[k], `${label} ${k}`).toBe(v);
    else expect(Math.abs(got[k] - v), `${label} ${k}: ${got[k]} vs ${v}`).toBeLessThanOrEqual(1e-9);
  }
}

/** The fields expected-cases.jsonl carries, derived from one of our case records. */
function officialView(c: ModelResult['cases'][number]): Record<string, unknown> {
  const d = c.detail ?? {};
  const out: Record<string, unknown> = {
    score: c.score,
    error: c.errors[0] ?? null,
    outcome: c.outcome,
    task_key: d.task_key,
    script: c.facets.script,
    font_type: c.facets.script_name,
  };
  if (c.task === 'classification' || c.task === 'recognition') Object.assign(out, { gt: d.gt, pred: d.pred });
  if (c.task === 'parsing') for (const k of ['edit_distance', 'len_pred', 'len_gt']) out[k] = d[k];
  if (c.task === 'spotting')
    for (const k of ['detection_f1', 'tp', 'fp', 'fn', 'detection', 'n_pred', 'n_gt', 'in_mean']) out[k] = d[k];
  return out;
}

describe.skipIf(!HAS_SHARED)('Chronicles-OCR golden numbers (shared/reference/chronicles)', () => {
  let expected: ExpectedReport;
  let expectedCases: ExpectedCase[];
  beforeAll(() => {
    expected = JSON.parse(readFileSync(shared('reference', 'chronicles', 'expected.json'), 'utf8'));
    expectedCases = readFileSync(shared('reference', 'chronicles', 'expected-cases.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l));
  });

  async function run(options: Record<string, string> = {}) {
    const session = await BenchSession.open(nodeFolderSource(shared('data', 'chronicles-mini')));
    expect(session.adapter.id).toBe('chronicles');
    expect(await session.addBundledPredictions()).toEqual(['model-a', 'model-b']);
    const protocol = session.resolveProtocol(undefined, options);
    const results = await session.score(protocol);
    return { session, protocol, results, report: session.report(protocol, results) };
  }

  for (const [label, options, protocol] of [
    ['stored extract (default)', {}, { name: 'official', options: {} }],
    ['reextract=true', { reextract: 'true' }, { name: 'official', options: { reextract: true } }],
  ] as [string, Record<string, string>, Protocol][]) {
    it(`reproduces expected.json — ${label}`, async () => {
      const { report } = await run(options);
      expect(withoutCi(report.protocol)).toEqual(protocol);
      expect(report.protocol.name).toBe(expected.protocol.name);
      expect(report.dataset).toEqual(expected.dataset);
      expect(Object.keys(report.models).sort()).toEqual(Object.keys(expected.models).sort());
      for (const [model, exp] of Object.entries(expected.models)) {
        expectMetrics(report.models[model].metrics, exp.metrics, model);
        expect(report.models[model].counts).toMatchObject(exp.counts);
        expect(report.models[model].warnings).toEqual([]);
      }
    });

    it(`reproduces expected-cases.jsonl case by case — ${label}`, async () => {
      const { results } = await run(options);
      const ours = new Map<string, ModelResult['cases'][number]>();
      for (const r of results) for (const c of r.cases) ours.set(`${r.model}|${c.image_path}|${c.task}`, c);
      expect(ours.size).toBe(expectedCases.length);
      for (const e of expectedCases) {
        const c = ours.get(`${e.model}|${e.image_path}|${e.task}`);
        expect(c, `${e.model} ${e.image_path} ${e.task}`).toBeDefined();
        const got = officialView(c!);
        for (const [k, v] of Object.entries(e)) {
          if (k === 'model' || k === 'image_path' || k === 'task') continue;
          const where = `${e.model} ${e.image_path} ${e.task} ${k}`;
          if (typeof v === 'number' && !Number.isInteger(v)) expect(Math.abs((got[k] as number) - v), where).toBeLessThanOrEqual(1e-12);
          else expect(got[k], where).toEqual(v);
        }
        expect(c!.case_id).toBe(`${e.image_path}#${e.task}`);
      }
    });
  }

  it('re-extracts exactly what the official extractor stored, on every record that has an extract', async () => {
    const { results } = await run();
    let withExtract = 0;
    for (const r of results)
      for (const c of r.cases) {
        const d = c.detail!;
        expect(d.extract_differs, `${r.model} ${c.case_id}`).toBe(false);
        const ex = d.extraction as { ok: boolean };
        // Where inference stored no extract, the extractor fails on the answer today too.
        expect(ex.ok, `${r.model} ${c.case_id}`).toBe(d.extract !== null);
        if (d.extract !== null) withExtract++;
      }
    expect(withExtract).toBe(115); // 118 judged cases, 3 of them (model-b) without a stored extract
  });

  it('draws spotting cases in pixels, with the reasons the official matching gives', async () => {
    const { results } = await run();
    const b = results.find((r) => r.model === 'model-b')!;
    const c = b.cases.find((x) => x.case_id === 'images/金文/br_001.png#spotting')!;
    expect(c.width).toBe(640);
    expect(c.gt[2]).toMatchObject({ text: '孙', state: 'fn' });
    expect(c.gt[2].reason).toMatch(/^char 系 ≠ 孙/);
    expect(c.pred[6].state).toBe('fp');
    expect(c.pred[6].reason).toMatch(/^IoU 0\.\d\d < 0\.75/);
    // 0–1000 units mapped back to pixels: x1 = 656 / 1000 · 640
    expect(c.pred[0].shape).toEqual({ type: 'box', box: [(656 * 640) / 1000, (69 * 480) / 1000, (820 * 640) / 1000, (319 * 480) / 1000] });
    expect(c.matches).toHaveLength(4);
    const ob3 = b.cases.find((x) => x.case_id === 'images/甲骨文/ob_003.png#spotting')!;
    expect(ob3.gt.filter((g) => g.state === 'unk')).toHaveLength(2);
    const rec = b.cases.find((x) => x.case_id === 'images/甲骨文/ob_001.png#recognition')!;
    expect(rec.gt[0]).toMatchObject({ state: 'info', text: '巳', shape: { type: 'box', box: [387, 219, 501, 359] } });
    expect(rec.pred[0]).toMatchObject({ state: 'fp', text: '王' });
    expect(rec.facets).toEqual({ script: 'oracle_bone', script_name: '甲骨文', group: 'ancient', task: 'recognition' });
  });

  it('the CLI writes the same report.json', () => {
    const out = mkdtempSync(join(tmpdir(), 'bl-chronicles-'));
    const r = runCli(['score', '--dataset', shared('data', 'chronicles-mini'), '--pred', shared('data', 'chronicles-mini', 'infer_results'), '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as ExpectedReport & { protocol: Protocol };
    expect(withoutCi(report.protocol)).toEqual({ name: 'official', options: {} });
    expect(report.dataset).toEqual(expected.dataset);
    for (const [model, exp] of Object.entries(expected.models)) {
      expectMetrics(report.models[model].metrics, exp.metrics, `cli ${model}`);
      expect(report.models[model].counts).toMatchObject(exp.counts);
    }
    const lines = readFileSync(join(out, 'case_analysis.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(118);
    expect(JSON.parse(lines[0])).toMatchObject({ schema: 'benchlens.case/1', benchmark: 'chronicles', model: 'model-a' });
  });
});
