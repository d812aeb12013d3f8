/**
 * The CLI's `uncertainty` block (shared/specs/uncertainty.md) on every shared mini dataset: present
 * and well formed by default, absent with ci=off, and nothing else in report.json or
 * case_analysis.jsonl changes between the two.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HAS_SHARED, shared } from '../test/shared';
import { runCli } from '../test/cli';
import type { Report } from '../src/core/report';

const dir = mkdtempSync(join(tmpdir(), 'bl-unc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RUNS: { benchmark: string; data: string; preds: string[] }[] = [
  { benchmark: 'ltb', data: 'ltb-mini', preds: ['ltb/ltbmini-object.json', 'ltb/ltbmini-mmocr.jsonl', 'ltb/ltbmini-icdar'] },
  { benchmark: 'gansulishuzhi', data: 'gansulishuzhi-mini', preds: ['gansulishuzhi/glm4v-sim.jsonl', 'gansulishuzhi/qwen25vl-7b-sim.jsonl'] },
  { benchmark: 'tabench', data: 'tabench-mini', preds: ['tabench/qwen3vl-2b-sim.jsonl', 'tabench/thinker-7b-sim.jsonl'] },
  { benchmark: 'pulsebench-select', data: 'pulsebench-select-mini', preds: ['pulsebench-select/gpt-vision-sim.jsonl', 'pulsebench-select/pulse-ultra-sim.jsonl'] },
  { benchmark: 'chronicles', data: 'chronicles-mini', preds: [] },
];

function score(run: (typeof RUNS)[number], tag: string, options: string[]) {
  const out = join(dir, `${run.benchmark}-${tag}`);
  const args = ['score', '--dataset', shared('data', run.data), ...run.preds.flatMap((p) => ['--pred', shared('reference', p)]), '--out', out];
  for (const o of options) args.push('--option', o);
  const r = runCli(args);
  expect(r.status, r.stderr).toBe(0);
  return {
    report: JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report,
    cases: readFileSync(join(out, 'case_analysis.jsonl'), 'utf8'),
  };
}

describe.skipIf(!HAS_SHARED)('CLI uncertainty block', () => {
  for (const run of RUNS) {
    it(`${run.benchmark}: present and well formed; ci=off leaves it out and changes nothing else`, () => {
      const on = score(run, 'on', ['ci_replicates=200', 'ci_permutations=200']);
      const off = score(run, 'off', ['ci=off']);
      const u = on.report.uncertainty!;
      expect(u).toBeDefined();
      expect(off.report.uncertainty).toBeUndefined();
      expect(on.report.protocol.options).toMatchObject({ ci: 'on', ci_replicates: 200, ci_permutations: 200, ci_level: 0.95, ci_seed: 0 });
      expect(off.report.protocol.options.ci).toBe('off');
      // metrics, counts, warnings, diagnostics, cases: the same with and without intervals.
      expect(on.report.models).toEqual(off.report.models);
      expect(on.cases).toBe(off.cases);

      expect(u.schema).toBe(1);
      expect(u.method).toBe('paired percentile bootstrap; approximate randomization test');
      expect([u.level, u.replicates, u.permutations, u.seed]).toEqual([0.95, 200, 200, 0]);
      expect(u.groups.length).toBeGreaterThan(0);
      for (const g of u.groups) expect(g.units).toBeGreaterThan(0);
      const groupIds = new Set(u.groups.map((g) => g.id));
      const models = Object.keys(on.report.models);
      expect(Object.keys(u.intervals)).toEqual(models);
      for (const m of models) {
        const metrics = on.report.models[m].metrics;
        const keys = Object.keys(u.intervals[m]);
        expect(keys.length).toBeGreaterThan(0);
        for (const k of keys) {
          expect(metrics[k], `${m} ${k} is a metric`).toBeTypeOf('number');
          const [lo, hi] = u.intervals[m][k];
          expect(lo, k).toBeLessThanOrEqual(hi);
        }
      }
      expect(u.pairs.length).toBeGreaterThan(0);
      for (const p of u.pairs) {
        expect(models.indexOf(p.a)).toBeLessThan(models.indexOf(p.b));
        expect(groupIds.has(p.group)).toBe(true);
        expect(p.diff).toBe(on.report.models[p.a].metrics[p.key] - on.report.models[p.b].metrics[p.key]);
        expect(p.ci[0]).toBeLessThanOrEqual(p.ci[1]);
        expect(p.p).toBeGreaterThan(0);
        expect(p.p).toBeLessThanOrEqual(1);
        expect(p.p_holm).toBeGreaterThanOrEqual(p.p);
        expect(p.p_holm).toBeLessThanOrEqual(1);
      }
    });
  }

  it('refuses out-of-range options with exit 2 and a message', () => {
    for (const [opt, says] of [
      ['ci_level=1', 'ci_level'],
      ['ci_replicates=1.5', 'ci_replicates'],
      ['ci_seed=-1', 'ci_seed'],
      ['ci=maybe', 'ci'],
    ]) {
      const r = runCli(['score', '--dataset', shared('data', 'gansulishuzhi-mini'), '--option', opt, '--out', join(dir, 'bad')]);
      expect(r.status, opt).toBe(2);
      expect(r.stderr).toContain(`option ${says}=`);
    }
  });

  it('lists the options under every protocol', () => {
    const r = runCli(['protocols']);
    expect(r.status).toBe(0);
    const protocols = r.stdout.split('\n').filter((l) => l.startsWith('  --protocol')).length;
    for (const key of ['ci', 'ci_replicates', 'ci_permutations', 'ci_level', 'ci_seed']) {
      expect(r.stdout.split('\n').filter((l) => l.startsWith(`    --option ${key}=`)).length, key).toBe(protocols);
    }
  });
});
