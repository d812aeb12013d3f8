/**
 * Golden tests: every metric of every shared/reference/ltb/expected-*.json (3 prediction forms ×
 * 2 protocol variants × 225 keys), plus the per-threshold counts the official code was seen to
 * produce, reproduced through BenchSession over the real-layout ltb-mini folder — and once
 * through the actual CLI.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { predictionInput } from '../../../../cli/predictionInput';
import { nodeFolderSource } from '../../../../cli/nodeSource';
import { HAS_SHARED, shared } from '../../../../test/shared';
import type { ModelResult } from '../../model';
import { BenchSession } from '../../session';
import { runCli } from '../../../../test/cli';
import { withoutCi } from '../../../../test/withoutCi';

interface Manifest {
  sets: { name: string; pred: string; expected: Record<string, string> }[];
}
interface Expected {
  protocol: { name: string; options: Record<string, unknown> };
  models: Record<
    string,
    {
      metrics: Record<string, number>;
      official_detail: { splits: Record<string, { best_index: number; per_threshold: Record<string, number>[] }> };
    }
  >;
}

const REF = () => shared('reference', 'ltb');

function expectMetrics(r: ModelResult, exp: Expected['models'][string]) {
  const keys = Object.keys(exp.metrics);
  expect(keys.length).toBe(225);
  for (const k of keys) {
    const want = exp.metrics[k];
    const got = r.metrics[k];
    expect(got, k).toBeTypeOf('number');
    if (/\/(hits|gt|pred|ignored)$/.test(k)) expect(got, k).toBe(want);
    else expect(Math.abs(got - want), `${k}: got ${got}, want ${want}`).toBeLessThanOrEqual(1e-9);
  }
  // The per-threshold counts observed inside the official code (not a metric, but the same run).
  const splits = (r.extra as { splits: Record<string, { best_index: number; per_threshold: Record<string, number>[] }> }).splits;
  for (const [key, od] of Object.entries(exp.official_detail.splits)) {
    expect(splits[key].best_index, key).toBe(od.best_index);
    od.per_threshold.forEach((row, i) => {
      const mine = splits[key].per_threshold[i];
      for (const f of ['threshold', 'hits', 'gt', 'pred', 'ignored']) expect(mine[f], `${key}@${i} ${f}`).toBe(row[f]);
      for (const f of ['precision', 'recall', 'hmean']) expect(Math.abs(mine[f] - row[f]), `${key}@${i} ${f}`).toBeLessThanOrEqual(1e-9);
    });
  }
}

describe.skipIf(!HAS_SHARED)('LTB golden: shared/reference/ltb on ltb-mini', () => {
  const manifest = (): Manifest => JSON.parse(readFileSync(join(REF(), 'manifest.json'), 'utf8'));

  for (const variant of ['mmocr-1.0.1', 'mmocr-0.6.3']) {
    it(`reproduces every metric of every prediction form with ${variant}`, async () => {
      const session = await BenchSession.open(nodeFolderSource(shared('data', 'ltb-mini')));
      expect(session.adapter.id).toBe('ltb');
      const sets = manifest().sets;
      expect(sets.length).toBe(3);
      for (const s of sets) await session.addPredictions(predictionInput(join(REF(), s.pred)));
      const protocol = session.resolveProtocol(variant, {});
      const results = await session.score(protocol);
      for (const s of sets) {
        const exp: Expected = JSON.parse(readFileSync(join(REF(), s.expected[variant]), 'utf8'));
        expect(withoutCi(protocol)).toEqual(exp.protocol);
        const r = results.find((x) => x.model === s.name)!;
        expect(r, s.name).toBeDefined();
        expectMetrics(r, exp.models[s.name]);
        expect(r.counts.cases).toBe(10);
        expect(r.cases).toHaveLength(10);
      }
      // The facts the reference README states about the inputs.
      const object = results.find((x) => x.model === 'ltbmini-object')!;
      expect(object.warnings.some((w) => w.includes('img_99.jpg'))).toBe(true);
      expect(object.counts.unknown_images).toBe(1);
      const mmocr = results.find((x) => x.model === 'ltbmini-mmocr')!;
      expect(mmocr.counts.images_without_predictions).toBe(1);
      expect(mmocr.cases.find((c) => c.case_id === 'img_4.jpg')!.errors).toContain('no_predictions');
    });
  }

  it('the CLI writes the same report.json (mmocr-0.6.3, all three forms)', () => {
    const out = mkdtempSync(join(tmpdir(), 'ltb-cli-'));
    try {
      const sets = manifest().sets;
      const args = ['score', '--dataset', shared('data', 'ltb-mini'), '--protocol', 'mmocr-0.6.3', '--out', out];
      for (const s of sets) args.push('--pred', join(REF(), s.pred));
      const r = runCli(args);
      expect(r.status, r.stderr).toBe(0);
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
      expect(report.benchmark).toBe('ltb');
      expect(report.dataset).toEqual({ cases: 10, images: 10 });
      for (const s of sets) {
        const exp: Expected = JSON.parse(readFileSync(join(REF(), s.expected['mmocr-0.6.3']), 'utf8'));
        expect(withoutCi(report.protocol)).toEqual(exp.protocol);
        const m = report.models[s.name].metrics;
        for (const [k, v] of Object.entries(exp.models[s.name].metrics)) expect(Math.abs(m[k] - v), k).toBeLessThanOrEqual(1e-9);
      }
      const lines = readFileSync(join(out, 'case_analysis.jsonl'), 'utf8').trim().split('\n');
      expect(lines).toHaveLength(30);
      const first = JSON.parse(lines[0]);
      expect(first.schema).toBe('benchlens.case/1');
      expect(first.facets.challenge).toBeInstanceOf(Array);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
