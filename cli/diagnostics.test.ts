/** The CLI writes the error taxonomy: report.json `diagnostics`, `error` on the FN / FP instances of case_analysis.jsonl. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAS_SHARED, REPO_ROOT, shared } from '../test/shared';

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules/tsx/dist/cli.mjs'), join(REPO_ROOT, 'cli/main.ts'), ...args], { encoding: 'utf8' });
  return { code: r.status, stderr: r.stderr, stdout: r.stdout };
}

interface Line {
  model: string;
  gt: { state: string; error?: string; error_with?: { gt?: number[]; pred?: number[] } }[];
  pred: { state: string; error?: string; error_with?: { gt?: number[]; pred?: number[] } }[];
}

function read(out: string) {
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
  const lines = readFileSync(join(out, 'case_analysis.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);
  return { report, lines };
}

describe('the command line writes the error taxonomy', () => {
  it('gansulishuzhi: diagnostics.errors per threshold, suspects, and a class on every FN and FP (a split and a miss)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bl-tax-'));
    try {
      const page = { id: 'page_001', page: 1, image_path: 'pages/page_001.png', image_size_px: [1000, 1000], gt_bboxes: [[0, 0, 100, 10], [500, 500, 600, 600]] };
      writeFileSync(join(dir, 'manifest.jsonl'), JSON.stringify(page) + '\n');
      mkdirSync(join(dir, 'runs'));
      // Three slices of GT0 (IoU 0.33 / 0.33 / 0.34, union = GT0): a split; GT1 has nothing near it: missed.
      writeFileSync(join(dir, 'runs', 'm.jsonl'), JSON.stringify({ id: 'page_001', pred_bboxes: [[0, 0, 33, 10], [33, 0, 66, 10], [66, 0, 100, 10]] }) + '\n');
      const out = join(dir, 'out');
      const r = cli('score', '--dataset', dir, '--out', out);
      expect(r.code, r.stderr).toBe(0);
      const { report, lines } = read(out);
      expect(report.schema).toBe('benchlens.report/1');
      const e = report.models.m.diagnostics.errors;
      expect(Object.keys(e).sort()).toEqual(['iou0.3', 'iou0.5', 'iou0.7']);
      expect(e['iou0.5']).toMatchObject({ threshold: null, gt: 2, pred: 3, hits: 0, fn: { split: 1, missed: 1 }, fp: { split: 3 } });
      expect(report.models.m.metrics['iou0.5/f1']).toBe(0);
      expect(report.diagnostics.suspects).toEqual([{ kind: 'wrong_gt', case_id: 'page_001', gt: 1 }]);
      expect(lines[0].gt.map((g) => g.error)).toEqual(['split', 'missed']);
      expect(lines[0].gt[0].error_with).toEqual({ pred: [0, 1, 2] });
      expect(lines[0].pred.map((p) => p.error)).toEqual(['split', 'split', 'split']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!HAS_SHARED)('ltb-mini: 15 split entries at each split’s best threshold, and every FN / FP case instance has a class', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bl-tax-ltb-'));
    try {
      const r = cli('score', '--dataset', shared('data', 'ltb-mini'), '--pred', shared('reference', 'ltb', 'ltbmini-object.json'), '--out', dir);
      expect(r.code, r.stderr).toBe(0);
      const { report, lines } = read(dir);
      const m = report.models['ltbmini-object'];
      expect(Object.keys(m.diagnostics.errors)).toHaveLength(15);
      for (const [k, u] of Object.entries(m.diagnostics.errors) as [string, { threshold: number }][]) expect(u.threshold, k).toBe(m.metrics[`${k}/threshold`]);
      let n = 0;
      for (const l of lines) {
        for (const x of [...l.gt, ...l.pred]) {
          if (x.state === 'fn' || x.state === 'fp') {
            expect(x.error).toBeTypeOf('string');
            n++;
          } else expect(x.error).toBeUndefined();
        }
      }
      expect(n).toBeGreaterThan(0);
      expect(Array.isArray(report.diagnostics.suspects)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
