/**
 * Golden test: every number in shared/reference/gansulishuzhi, through BenchSession (model name =
 * the run file's stem), through the dataset's bundled runs/, and through the real CLI.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeFolderSource } from '../../../../cli/nodeSource';
import { HAS_SHARED, shared } from '../../../../test/shared';
import { singleFileSource, stem } from '../../io/fileSource';
import { BenchSession } from '../../session';
import { runCli } from '../../../../test/cli';
import { withoutCi } from '../../../../test/withoutCi';
import type { Protocol } from '../../model';

interface Expected {
  protocol: unknown;
  dataset: { cases: number; images: number };
  models: Record<string, { metrics: Record<string, number>; counts: Record<string, number>; warnings: string[] }>;
}

const COUNT_KEYS = /\/(tp|fp|fn)$|^(pages|gt|pred)$/;

function expectReportToMatch(actual: Expected, expected: Expected, models = Object.keys(expected.models)): void {
  expect(withoutCi(actual.protocol as Protocol)).toEqual(expected.protocol);
  expect(actual.dataset).toEqual(expected.dataset);
  for (const model of models) {
    const exp = expected.models[model];
    const got = actual.models[model];
    expect(got, `model ${model}`).toBeDefined();
    expect(Object.keys(got.metrics).sort()).toEqual(Object.keys(exp.metrics).sort());
    for (const [k, v] of Object.entries(exp.metrics)) {
      if (COUNT_KEYS.test(k)) expect(got.metrics[k], k).toBe(v);
      else expect(Math.abs(got.metrics[k] - v), `${k}: ${got.metrics[k]} vs ${v}`).toBeLessThanOrEqual(1e-9);
    }
    expect(got.counts).toEqual(exp.counts);
    expect(got.warnings).toEqual(exp.warnings);
  }
}

const RUNS = ['qwen25vl-7b-sim', 'glm4v-sim'];
const expectedFor = (run: string) =>
  JSON.parse(readFileSync(shared('reference', 'gansulishuzhi', `expected-${run}.json`), 'utf8')) as Expected;

describe.skipIf(!HAS_SHARED)('gansulishuzhi golden numbers (shared/reference/gansulishuzhi)', () => {
  for (const run of RUNS) {
    it(`reproduces expected-${run}.json`, async () => {
      const session = await BenchSession.open(nodeFolderSource(shared('data', 'gansulishuzhi-mini')));
      expect(session.adapter.id).toBe('gansulishuzhi');
      const file = shared('reference', 'gansulishuzhi', `${run}.jsonl`);
      await session.addPredictions({ source: singleFileSource(nodeFolderSource(dirname(file)), basename(file)), path: basename(file), name: stem(file) });
      const protocol = session.resolveProtocol();
      const results = await session.score(protocol);
      expectReportToMatch(session.report(protocol, results) as unknown as Expected, expectedFor(run));
      // The case colours agree with the pooled numbers at 0.5.
      const tp = results[0].cases.reduce((n, c) => n + c.pred.filter((p) => p.state === 'tp').length, 0);
      expect(tp).toBe(expectedFor(run).models[run].metrics['iou0.5/tp']);
    });
  }

  it('finds the same runs in the dataset’s runs/ folder', async () => {
    const session = await BenchSession.open(nodeFolderSource(shared('data', 'gansulishuzhi-mini')));
    expect((await session.addBundledPredictions()).sort()).toEqual([...RUNS].sort());
    const protocol = session.resolveProtocol();
    const report = session.report(protocol, await session.score(protocol)) as unknown as Expected;
    for (const run of RUNS) expectReportToMatch(report, expectedFor(run), [run]);
  });

  it('draws cases with overlays, errors and outcomes', async () => {
    const session = await BenchSession.open(nodeFolderSource(shared('data', 'gansulishuzhi-mini')));
    await session.addBundledPredictions();
    const results = await session.score(session.resolveProtocol());
    const glm = results.find((r) => r.model === 'glm4v-sim')!;
    const byId = new Map(glm.cases.map((c) => [c.case_id, c]));
    expect(byId.get('page_058')).toMatchObject({ errors: ['unparseable_output'], outcome: 'fail' });
    expect(byId.get('page_012')).toMatchObject({ outcome: 'fail', facets: { has_figures: false, page: 12 } });
    expect(byId.get('page_003')!.detail).toMatchObject({ overlay_path: 'overlays/page_003.png', parse_steps: ['think', 'fence'] });
    const qwen = results.find((r) => r.model === 'qwen25vl-7b-sim')!;
    expect(qwen.cases.find((c) => c.case_id === 'page_045')).toMatchObject({ errors: ['missing_prediction'], outcome: 'fail', pred: [] });
    expect(qwen.cases.find((c) => c.case_id === 'page_012')).toMatchObject({ outcome: 'pass', score: 1 });
  });

  it('gives the same report.json through the real CLI', () => {
    const out = mkdtempSync(join(tmpdir(), 'benchlens-gansu-'));
    try {
      const cli = runCli(['score', '--dataset', shared('data', 'gansulishuzhi-mini'), '--pred', shared('reference', 'gansulishuzhi', 'glm4v-sim.jsonl'), '--out', out]);
      expect(cli.status, cli.stderr).toBe(0);
      expectReportToMatch(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Expected, expectedFor('glm4v-sim'));
      const lines = readFileSync(join(out, 'case_analysis.jsonl'), 'utf8').trim().split('\n');
      expect(lines).toHaveLength(8);
      expect(JSON.parse(lines[0])).toMatchObject({ schema: 'benchlens.case/1', benchmark: 'gansulishuzhi', model: 'glm4v-sim', case_id: 'page_003' });
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
