/**
 * Golden numbers: shared/reference/pulsebench-select reproduced through BenchSession (as the
 * worker runs it) and through the real CLI (as CI runs it). Rates abs tol 1e-9, counts exact.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeFolderSource } from '../../../../cli/nodeSource';
import { HAS_SHARED, shared } from '../../../../test/shared';
import { singleFileSource, stem } from '../../io/fileSource';
import type { PredictionInput } from '../../model';
import type { Report } from '../../report';
import { BenchSession } from '../../session';
import { runCli } from '../../../../test/cli';
import { withoutCi } from '../../../../test/withoutCi';
import type { Protocol } from '../../model';

interface Run {
  name: string;
  dataset: string;
  pred: string;
  options: string[];
  expected: string;
}

const REF = 'reference/pulsebench-select';
const fromShared = (p: string) => shared(p.replace(/^shared\//, ''));

function predInput(file: string): PredictionInput {
  const parent = nodeFolderSource(dirname(file));
  return { source: singleFileSource(parent, basename(file)), path: basename(file), name: stem(file) };
}

/** Every metric within 1e-9 (counts exactly), and counts, warnings and protocol equal. */
function expectReportMatches(actual: Report, expected: Report, model: string) {
  expect(actual.schema).toBe(expected.schema);
  expect(actual.benchmark).toBe(expected.benchmark);
  expect(withoutCi(actual.protocol as Protocol)).toEqual(expected.protocol);
  expect(actual.dataset).toEqual(expected.dataset);
  const a = actual.models[model];
  const e = expected.models[model];
  expect(Object.keys(a.metrics).sort()).toEqual(Object.keys(e.metrics).sort());
  for (const [k, v] of Object.entries(e.metrics)) {
    if (Number.isInteger(v) && ['tp', 'fp', 'fn', 'samples', 'macro_skipped_samples'].includes(k)) expect(a.metrics[k], k).toBe(v);
    else expect(Math.abs(a.metrics[k] - v), `${k}: ${a.metrics[k]} vs ${v}`).toBeLessThanOrEqual(1e-9);
  }
  expect(a.counts).toEqual(e.counts);
  expect(a.warnings).toEqual(e.warnings);
}

describe.skipIf(!HAS_SHARED)('PulseBench-Select golden numbers', () => {
  const manifest = HAS_SHARED ? (JSON.parse(readFileSync(shared(REF, 'manifest.json'), 'utf8')) as { runs: Run[] }) : { runs: [] };

  it('has both public runs in the manifest', () => {
    expect(manifest.runs.map((r) => r.name)).toEqual(['public/pulse-ultra-sim', 'public/gpt-vision-sim']);
  });

  for (const run of manifest.runs) {
    it(`reproduces ${run.name} through BenchSession`, async () => {
      const session = await BenchSession.open(nodeFolderSource(fromShared(run.dataset)));
      expect(session.adapter.id).toBe('pulsebench-select');
      const [model] = await session.addPredictions(predInput(fromShared(run.pred)));
      expect(model).toBe(stem(run.pred));
      const protocol = session.resolveProtocol(undefined, {});
      const results = await session.score(protocol);
      const expected = JSON.parse(readFileSync(fromShared(run.expected), 'utf8')) as Report;
      expectReportMatches(session.report(protocol, results), expected, model);
      expect(session.caseLines(results)).toHaveLength(10);
    });
  }

  it('reproduces both runs through the real CLI (report.json)', () => {
    const out = mkdtempSync(join(tmpdir(), 'pulsebench-cli-'));
    const r = runCli(
      [
        'score',
        '--dataset',
        shared('data/pulsebench-select-mini'),
        '--pred',
        shared(REF, 'pulse-ultra-sim.jsonl'),
        '--pred',
        shared(REF, 'gpt-vision-sim.jsonl'),
        '--out',
        out,
      ],
    );
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    expect(Object.keys(report.models)).toEqual(['pulse-ultra-sim', 'gpt-vision-sim']);
    for (const m of ['pulse-ultra-sim', 'gpt-vision-sim']) {
      const expected = JSON.parse(readFileSync(shared(REF, `expected-${m}.json`), 'utf8')) as Report;
      expectReportMatches(report, expected, m);
    }
    const lines = readFileSync(join(out, 'case_analysis.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(20);
    const first = JSON.parse(lines[0]) as { schema: string; case_id: string; image_path: string; width: number };
    expect(first).toMatchObject({ schema: 'benchlens.case/1', case_id: 'sel-0001', image_path: 'sel-0001.png', width: 850 });
  }, 60_000);
});
