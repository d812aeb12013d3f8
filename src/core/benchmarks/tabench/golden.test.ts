/**
 * Golden test: every number in shared/reference/tabench, reproduced through BenchSession over
 * the real-layout mini dataset (model name = the prediction file's stem, as the CLI names it).
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

function expectReportToMatch(actual: Expected, expected: Expected): void {
  expect(withoutCi(actual.protocol as Protocol)).toEqual(expected.protocol);
  expect(actual.dataset).toEqual(expected.dataset);
  for (const [model, exp] of Object.entries(expected.models)) {
    const got = actual.models[model];
    expect(got, `model ${model}`).toBeDefined();
    expect(Object.keys(got.metrics).sort()).toEqual(Object.keys(exp.metrics).sort());
    for (const [k, v] of Object.entries(exp.metrics)) {
      if (Number.isInteger(v) && (k.endsWith('/n') || /\/(tp|fp|fn)$/.test(k) || ['pages', 'gt', 'pred'].includes(k))) {
        expect(got.metrics[k], k).toBe(v);
      } else {
        expect(Math.abs(got.metrics[k] - v), `${k}: ${got.metrics[k]} vs ${v}`).toBeLessThanOrEqual(1e-9);
      }
    }
    expect(got.counts).toEqual(exp.counts);
    expect(got.warnings).toEqual(exp.warnings);
  }
}

const RUNS = ['qwen3vl-2b-sim', 'thinker-7b-sim'];

describe.skipIf(!HAS_SHARED)('TABench golden numbers (shared/reference/tabench)', () => {
  for (const run of RUNS) {
    it(`reproduces expected-${run}.json`, async () => {
      const expected = JSON.parse(readFileSync(shared('reference', 'tabench', `expected-${run}.json`), 'utf8')) as Expected;
      const session = await BenchSession.open(nodeFolderSource(shared('data', 'tabench-mini')));
      expect(session.adapter.id).toBe('tabench');
      const predFile = shared('reference', 'tabench', `${run}.jsonl`);
      await session.addPredictions({
        source: singleFileSource(nodeFolderSource(dirname(predFile)), basename(predFile)),
        path: basename(predFile),
        name: stem(predFile),
      });
      const protocol = session.resolveProtocol();
      const results = await session.score(protocol);
      const report = session.report(protocol, results);
      expectReportToMatch(report as unknown as Expected, expected);

      // One case line per query, pixel shapes, and the case fields the contract requires.
      const lines = session.caseLines(results).map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines).toHaveLength(40);
      const t2r = results[0].cases.filter((c) => c.task === 'T2R');
      const tp = t2r.reduce((n, c) => n + c.pred.filter((p) => p.state === 'tp').length, 0);
      expect(tp).toBe(expected.models[run].metrics['t2r/tp']);
      const unparseable = results[0].cases.filter((c) => c.errors.includes('unparseable_output'));
      expect(unparseable).toHaveLength(expected.models[run].counts.unparseable_outputs);
    });
  }

  it('draws rel1000 cases in pixels from the image header', async () => {
    const session = await BenchSession.open(nodeFolderSource(shared('data', 'tabench-mini')));
    const predFile = shared('reference', 'tabench', 'thinker-7b-sim.jsonl');
    await session.addPredictions({
      source: singleFileSource(nodeFolderSource(dirname(predFile)), basename(predFile)),
      path: basename(predFile),
      name: 'thinker',
    });
    const [r] = await session.score(session.resolveProtocol());
    const abs = await BenchSession.open(nodeFolderSource(shared('data', 'tabench-mini')));
    const absDs = abs.dataset as unknown as { spaces: { abs: { queries: { id: string; gtBoxes: number[][] }[] } } };
    // Query 21 is "GROCERY": its rel1000 GT box, scaled by the receipt's size, lands within a
    // pixel of the abs file's box (the rel1000 file rounds to integers).
    const c = r.cases.find((x) => x.case_id === '21')!;
    const absBox = absDs.spaces.abs.queries.find((q) => q.id === '21')!.gtBoxes[0];
    const drawn = c.gt[0].shape!;
    expect(drawn.type).toBe('box');
    if (drawn.type === 'box') drawn.box.forEach((v, i) => expect(Math.abs(v - absBox[i])).toBeLessThan(2));
    expect(c.gt[0].attrs?.box).toEqual([452, 296, 525, 322]);
    expect(c.width).toBeGreaterThan(0);
  });

  it('gives the same report.json through the real CLI', () => {
    const out = mkdtempSync(join(tmpdir(), 'benchlens-tabench-'));
    try {
      const preds = RUNS.map((r) => shared('reference', 'tabench', `${r}.jsonl`));
      const cli = runCli(['score', '--dataset', shared('data', 'tabench-mini'), '--pred', preds[0], '--out', out]);
      expect(cli.status, cli.stderr).toBe(0);
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Expected;
      const expected = JSON.parse(readFileSync(shared('reference', 'tabench', `expected-${RUNS[0]}.json`), 'utf8')) as Expected;
      expectReportToMatch(report, expected);
      const cases = readFileSync(join(out, 'case_analysis.jsonl'), 'utf8').trim().split('\n');
      expect(cases).toHaveLength(40);
      expect(JSON.parse(cases[0])).toMatchObject({ schema: 'benchlens.case/1', benchmark: 'tabench', model: RUNS[0], case_id: '1' });
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('exits 2 naming the file when the predictions belong to another benchmark', () => {
    const out = mkdtempSync(join(tmpdir(), 'benchlens-tabench-'));
    try {
      const wrong = shared('reference', 'gansulishuzhi', 'glm4v-sim.jsonl');
      const cli = runCli(['score', '--dataset', shared('data', 'tabench-mini'), '--pred', wrong, '--out', out]);
      expect(cli.status).toBe(2);
      expect(cli.stderr.trim().split('\n')).toHaveLength(1);
      expect(cli.stderr).toContain('glm4v-sim.jsonl');
      // …and which benchmark it is for (core/benchmarks/sniff.ts, issue 12).
      expect(cli.stderr).toContain('Not TABench predictions: glm4v-sim.jsonl is a gansulishuzhi run (figure boxes per page)');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
