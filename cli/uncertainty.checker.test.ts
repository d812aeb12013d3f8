/**
 * An outside checker, written from shared/specs/uncertainty.md alone, run on what the CLI writes:
 * it rebuilds gansulishuzhi's intervals and paired tests from case_analysis.jsonl (each page's
 * TP / FP / FN at each IoU) — draws as index lists, metrics from the drawn pages' counts, swaps
 * as exchanged pages — and must get the report's numbers bit for bit.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAS_SHARED, shared } from '../test/shared';
import { runCli } from '../test/cli';
import type { Report } from '../src/core/report';

type Counts = Record<string, { tp: number; fp: number; fn: number }>;
const IOUS = ['0.3', '0.5', '0.7'];

function gen(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t = (t + Math.imul(t ^ (t >>> 7), t | 61)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** numpy.quantile(x, q) (method "linear", NumPy's lerp). */
function npQuantile(x: number[], q: number): number {
  const s = [...x].sort((p, r) => p - r);
  const pos = q * (s.length - 1);
  const lo = Math.floor(pos);
  if (lo >= s.length - 1) return s[s.length - 1];
  const t = pos - lo;
  const d = s[lo + 1] - s[lo];
  return t >= 0.5 ? s[lo + 1] - d * (1 - t) : s[lo] + d * t;
}

/** Micro P / R / F1 at one IoU over a list of pages (as the card protocol pools them). */
function prf(pages: Counts[], iou: string): Record<string, number> {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const p of pages) {
    tp += p[iou].tp;
    fp += p[iou].fp;
    fn += p[iou].fn;
  }
  const precision = tp + fp > 0 ? tp / (tp + fp) : 0;
  const recall = tp + fn > 0 ? tp / (tp + fn) : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

describe.skipIf(!HAS_SHARED)('an outside checker gets the CLI uncertainty block', () => {
  it('gansulishuzhi, two models, 8 pages (exact test), seed 3', () => {
    const out = mkdtempSync(join(tmpdir(), 'bl-unc-check-'));
    try {
      const level = 0.9;
      const B = 400;
      const seed = 3;
      const r = runCli([
        'score', '--dataset', shared('data', 'gansulishuzhi-mini'),
        '--pred', shared('reference', 'gansulishuzhi', 'glm4v-sim.jsonl'), '--pred', shared('reference', 'gansulishuzhi', 'qwen25vl-7b-sim.jsonl'),
        '--option', `ci_replicates=${B}`, '--option', `ci_level=${level}`, '--option', `ci_seed=${seed}`, '--out', out,
      ]);
      expect(r.status, r.stderr).toBe(0);
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
      const lines = readFileSync(join(out, 'case_analysis.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      const models = Object.keys(report.models);
      const pages = new Map<string, Map<string, Counts>>(models.map((m) => [m, new Map()]));
      for (const l of lines) pages.get(l.model)!.set(l.case_id, l.detail.at);
      const ids = [...pages.get(models[0])!.keys()].sort();
      const n = ids.length;
      expect(n).toBeLessThanOrEqual(12);
      const rows = (m: string) => ids.map((id) => pages.get(m)!.get(id)!);

      // Bootstrap: n draws per replicate, the same drawn pages for every model.
      const g = gen(seed);
      const draws: number[][] = [];
      for (let b = 0; b < B; b++) draws.push(Array.from({ length: n }, () => Math.floor((g() * n) / 2 ** 32)));
      const alpha = 1 - level;
      const u = report.uncertainty!;
      expect(u.groups).toEqual([{ id: 'all', units: n }]);
      for (const m of models) {
        for (const iou of IOUS) {
          for (const k of ['precision', 'recall', 'f1']) {
            const reps = draws.map((d) => prf(d.map((i) => rows(m)[i]), iou)[k]);
            expect(u.intervals[m][`iou${iou}/${k}`], `${m} iou${iou}/${k}`).toEqual([npQuantile(reps, alpha / 2), npQuantile(reps, 1 - alpha / 2)]);
          }
        }
      }
      const [a, b] = models;
      for (const iou of IOUS) {
        const pair = u.pairs.find((p) => p.key === `iou${iou}/f1`)!;
        expect([pair.a, pair.b, pair.group]).toEqual([a, b, 'all']);
        const obs = prf(rows(a), iou).f1 - prf(rows(b), iou).f1;
        expect(pair.diff).toBe(obs);
        const diffs = draws.map((d) => prf(d.map((i) => rows(a)[i]), iou).f1 - prf(d.map((i) => rows(b)[i]), iou).f1);
        expect(pair.ci).toEqual([npQuantile(diffs, alpha / 2), npQuantile(diffs, 1 - alpha / 2)]);
        let hits = 0;
        for (let k = 0; k < 2 ** n; k++) {
          const ra = rows(a).map((x, i) => ((k >> i) & 1 ? rows(b)[i] : x));
          const rb = rows(b).map((x, i) => ((k >> i) & 1 ? rows(a)[i] : x));
          if (Math.abs(prf(ra, iou).f1 - prf(rb, iou).f1) >= Math.abs(obs) - 1e-12) hits++;
        }
        expect(pair.p).toBe(hits / 2 ** n);
        // One group: Holm over one p-value leaves it as it is.
        expect(pair.p_holm).toBe(pair.p);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
