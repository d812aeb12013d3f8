/**
 * An outside checker, written from shared/specs/uncertainty.md alone, run on what the CLI writes:
 * it rebuilds gansulishuzhi's intervals and paired tests from case_analysis.jsonl (each page's
 * TP / FP / FN at each IoU) — draws as index lists, metrics from the drawn pages' counts, swaps
 * as exchanged pages — and must get the report's numbers bit for bit: on the shared mini folder
 * (8 pages: every assignment) and on a synthetic one of 30 pages (random assignments).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** Everything the checker compares, from a CLI output folder. */
function check(out: string, opts: { B: number; R: number; level: number; seed: number }): { n: number } {
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
  const lines = readFileSync(join(out, 'case_analysis.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const models = Object.keys(report.models);
  const pages = new Map<string, Map<string, Counts>>(models.map((m) => [m, new Map()]));
  for (const l of lines) pages.get(l.model)!.set(l.case_id, l.detail.at);
  const ids = [...pages.get(models[0])!.keys()].sort();
  const n = ids.length;
  const rows = (m: string) => ids.map((id) => pages.get(m)!.get(id)!);

  // Bootstrap: n draws per replicate, the same drawn pages for every model.
  const g = gen(opts.seed);
  const draws: number[][] = [];
  for (let b = 0; b < opts.B; b++) draws.push(Array.from({ length: n }, () => Math.floor((g() * n) / 2 ** 32)));
  const alpha = 1 - opts.level;
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
  // The randomization test: all 2^n assignments up to 12 units, else R from a generator seeded seed + 1
  // (the three keys share the assignments).
  const assignments: boolean[][] = [];
  if (n <= 12) for (let k = 0; k < 2 ** n; k++) assignments.push(ids.map((_, i) => ((k >> i) & 1) === 1));
  else {
    const g2 = gen(opts.seed + 1);
    for (let r = 0; r < opts.R; r++) assignments.push(ids.map(() => g2() >= 2 ** 31));
  }
  for (const iou of IOUS) {
    const pair = u.pairs.find((p) => p.key === `iou${iou}/f1`)!;
    expect([pair.a, pair.b, pair.group]).toEqual([a, b, 'all']);
    const obs = prf(rows(a), iou).f1 - prf(rows(b), iou).f1;
    expect(pair.diff).toBe(obs);
    const diffs = draws.map((d) => prf(d.map((i) => rows(a)[i]), iou).f1 - prf(d.map((i) => rows(b)[i]), iou).f1);
    expect(pair.ci).toEqual([npQuantile(diffs, alpha / 2), npQuantile(diffs, 1 - alpha / 2)]);
    let hits = 0;
    for (const swap of assignments) {
      const ra = rows(a).map((x, i) => (swap[i] ? rows(b)[i] : x));
      const rb = rows(b).map((x, i) => (swap[i] ? rows(a)[i] : x));
      if (Math.abs(prf(ra, iou).f1 - prf(rb, iou).f1) >= Math.abs(obs) - 1e-12) hits++;
    }
    expect(pair.p, `p iou${iou}`).toBe(n <= 12 ? hits / 2 ** n : (1 + hits) / (opts.R + 1));
    // One group: Holm over one p-value leaves it as it is.
    expect(pair.p_holm).toBe(pair.p);
  }
  return { n };
}

function runScore(dataset: string, preds: string[], opts: { B: number; R: number; level: number; seed: number }, out: string): void {
  const r = runCli([
    'score', '--dataset', dataset, ...preds.flatMap((p) => ['--pred', p]),
    '--option', `ci_replicates=${opts.B}`, '--option', `ci_permutations=${opts.R}`, '--option', `ci_level=${opts.level}`, '--option', `ci_seed=${opts.seed}`, '--out', out,
  ]);
  expect(r.status, r.stderr).toBe(0);
}

/** A gansulishuzhi-shaped folder of `pages` pages (no images) and two models' answers. */
function syntheticGansu(dir: string, pages: number): { dataset: string; preds: string[] } {
  const dataset = join(dir, 'gansu');
  mkdirSync(join(dataset, 'pages'), { recursive: true });
  const manifest: string[] = [];
  const a: string[] = [];
  const b: string[] = [];
  for (let i = 0; i < pages; i++) {
    const id = `page_${String(i + 1).padStart(3, '0')}`;
    const gt = Array.from({ length: 1 + (i % 3) }, (_, k) => [50 + 200 * k, 100, 200 + 200 * k, 300]);
    manifest.push(JSON.stringify({ id, page: i + 1, image_path: `pages/${id}.png`, image_size_px: [698, 1019], gt_bboxes: gt }));
    // Model a: close boxes, one missed on every 4th page; model b: looser boxes, a stray one on odd pages.
    const boxA = gt.filter((_, k) => !(i % 4 === 0 && k === 0)).map(([x0, y0, x1, y1]) => [x0 + 5, y0 + 5, x1 + 5, y1 + 5]);
    const boxB = gt.map(([x0, y0, x1, y1]) => [x0 + 30 + (i % 5) * 10, y0 + 25, x1 + 30, y1 + 25]);
    if (i % 2 === 1) boxB.push([600, 800, 680, 900]);
    a.push(JSON.stringify({ image_path: `pages/${id}.png`, response: JSON.stringify(boxA) }));
    b.push(JSON.stringify({ image_path: `pages/${id}.png`, response: JSON.stringify(boxB) }));
  }
  writeFileSync(join(dataset, 'manifest.jsonl'), manifest.join('\n') + '\n');
  writeFileSync(join(dir, 'model-a.jsonl'), a.join('\n') + '\n');
  writeFileSync(join(dir, 'model-b.jsonl'), b.join('\n') + '\n');
  return { dataset, preds: [join(dir, 'model-a.jsonl'), join(dir, 'model-b.jsonl')] };
}

describe('an outside checker gets the CLI uncertainty block', () => {
  it.skipIf(!HAS_SHARED)('gansulishuzhi-mini, two models, 8 pages (all 256 assignments), seed 3, level 0.9', () => {
    const out = mkdtempSync(join(tmpdir(), 'bl-unc-check-'));
    try {
      const opts = { B: 400, R: 100, level: 0.9, seed: 3 };
      runScore(shared('data', 'gansulishuzhi-mini'), [shared('reference', 'gansulishuzhi', 'glm4v-sim.jsonl'), shared('reference', 'gansulishuzhi', 'qwen25vl-7b-sim.jsonl')], opts, out);
      expect(check(out, opts).n).toBe(8);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('a synthetic gansulishuzhi folder of 30 pages (random assignments, second generator), seed 11', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bl-unc-check-'));
    try {
      const opts = { B: 300, R: 250, level: 0.95, seed: 11 };
      const { dataset, preds } = syntheticGansu(dir, 30);
      runScore(dataset, preds, opts, join(dir, 'out'));
      expect(check(join(dir, 'out'), opts).n).toBe(30);
      const u = (JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as Report).uncertainty!;
      // Not a degenerate case: the models differ, and some p is neither 1 nor the smallest possible.
      expect(u.pairs.some((p) => p.diff !== 0 && p.p > 1 / (opts.R + 1) && p.p < 1)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
