/**
 * Batch outputs carry no gt_char: their Recognition answers are judged against the target infer.py
 * picks, recomputed from the GT. Through the real CLI on chronicles-mini: model-a's answers
 * rewritten as an OpenAI batch output with custom_ids `<image_path>#<task>` (no target index;
 * half of them with `|`) score as infer.py's own results.jsonl does.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../../test/cli';
import { HAS_SHARED, shared } from '../../../../test/shared';
import { TASK_KEYS, type TaskId } from './constants';

const MINI = HAS_SHARED ? shared('data/chronicles-mini') : '';

interface Report {
  models: Record<string, { metrics: Record<string, number>; warnings: string[] }>;
}

function score(dir: string, pred: string, name: string, ...options: string[]): { report: Report; cases: Record<string, unknown>[] } {
  const out = join(dir, name);
  const r = runCli(['score', '--dataset', MINI, '--pred', pred, '--out', out, ...options.flatMap((o) => ['--option', o])]);
  expect(r.status, r.stderr).toBe(0);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
  const cases = readFileSync(join(out, 'case_analysis.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  return { report, cases };
}

/** A model's answers as OpenAI batch output lines, one per (image, task). */
function batchFile(dir: string, model: string): string {
  const lines: string[] = [];
  const rows = readFileSync(join(MINI, `infer_results/${model}/results.jsonl`), 'utf8').split('\n').filter(Boolean);
  rows.forEach((text, i) => {
    const row = JSON.parse(text) as { image_path: string; infer_results: Record<string, { answer?: string }> };
    for (const [task, key] of Object.entries(TASK_KEYS) as [TaskId, string][]) {
      const rec = row.infer_results[key];
      if (!rec) continue;
      const sep = i % 2 === 0 ? '#' : '|';
      lines.push(
        JSON.stringify({
          id: `batch_req_${lines.length}`,
          custom_id: `${row.image_path}${sep}${task}`,
          response: { status_code: 200, request_id: 'r', body: { choices: [{ index: 0, message: { role: 'assistant', content: rec.answer ?? '' }, finish_reason: 'stop' }] } },
          error: null,
        }),
      );
    }
  });
  const path = join(dir, `${model}-batch.jsonl`);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

describe.skipIf(!HAS_SHARED)('Recognition target of answers that carry none (CLI, chronicles-mini)', () => {
  it.each([
    ['model-a', 1],
    ['model-b', 5 / 9],
  ])("%s: a batch file without target indices scores like infer.py's own file; the warning says so; the red box is drawn", (model, recognitionAll) => {
    const dir = mkdtempSync(join(tmpdir(), 'chron-target-'));
    const official = score(dir, join(MINI, `infer_results/${model}/results.jsonl`), 'official');
    const batch = score(dir, batchFile(dir, model), 'batch');
    const o = Object.values(official.report.models)[0];
    const b = Object.values(batch.report.models)[0];
    const recognition = Object.keys(o.metrics).filter((k) => k.includes('recognition'));
    expect(recognition.length).toBeGreaterThanOrEqual(7);
    // model-b answers 4 of its 9 wrong (巳 → 王, 雨 → [UNK], …): a wrong target would show.
    expect(o.metrics['all/recognition']).toBeCloseTo(recognitionAll, 12);
    for (const k of recognition) expect(b.metrics[k], k).toBe(o.metrics[k]);
    // Every other number agrees too (the batch answers are the ones infer.py extracted from).
    expect(b.metrics).toEqual(o.metrics);
    expect(b.warnings.join('\n')).toMatch(/^9 recognition answers carry no target character \(gt_char\): judged against the target infer\.py picks, recomputed from the GT .*recognition_target=stored/m);
    expect(o.warnings.join('\n')).not.toMatch(/recomputed/);

    // The case view names and draws the same red box as infer.py stored.
    const caseOf = (cs: Record<string, unknown>[], id: string) => cs.find((c) => c.case_id === id) as { gt: { shape?: unknown; text?: string }[]; detail: Record<string, unknown> };
    for (const id of ['images/甲骨文/ob_001.png#recognition', 'images/金文/br_001.png#recognition', 'images/篆书/se_003.png#recognition']) {
      const oc = caseOf(official.cases, id);
      const bc = caseOf(batch.cases, id);
      expect(bc.gt[0].shape, id).toEqual(oc.gt[0].shape);
      expect(bc.gt[0].shape, id).toBeTruthy();
      expect(bc.gt[0].text).toBe(oc.gt[0].text);
      expect([bc.detail.target_index, bc.detail.target_source, oc.detail.target_source]).toEqual([oc.detail.target_index, 'recomputed', 'stored']);
    }

    // recognition_target=stored: the official rule, every such answer 0 (no_gt).
    const stored = score(dir, join(dir, `${model}-batch.jsonl`), 'stored', 'recognition_target=stored');
    const s = Object.values(stored.report.models)[0];
    expect(s.metrics['all/recognition']).toBe(0);
    expect(s.warnings.join('\n')).toMatch(/9 recognition records have no gt_char: scored 0 \(no_gt\).*recognition_target=recompute/);
  }, 120_000);

  it('says when a stored sample_key is not the GT row\'s (infer.py ran on another GT version); no number changes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chron-target-'));
    const rows = readFileSync(join(MINI, 'infer_results/model-a/results.jsonl'), 'utf8').split('\n').filter(Boolean);
    const changed = rows.map((t) => {
      const row = JSON.parse(t) as { image_path: string; infer_results: Record<string, Record<string, unknown>> };
      const rec = row.infer_results['单字识别'];
      if (rec && row.image_path === 'images/金文/br_002.png') rec.sample_key = String(rec.sample_key).replace(/sp_fp=\w+/, 'sp_fp=000000000000');
      return JSON.stringify(row);
    });
    const path = join(dir, 'results.jsonl');
    writeFileSync(path, changed.join('\n') + '\n');
    const official = Object.values(score(dir, join(MINI, 'infer_results/model-a/results.jsonl'), 'official').report.models)[0];
    const m = Object.values(score(dir, path, 'changed').report.models)[0];
    expect(m.metrics).toEqual(official.metrics);
    expect(official.warnings.join('\n')).not.toMatch(/another version of the GT/);
    expect(m.warnings.join('\n')).toMatch(
      /^1 recognition records were made from another version of the GT \(their sample_key is not the GT row's now; first images\/金文\/br_002\.png: stored "image_path=images\/金文\/br_002\.png\|sp_fp=000000000000", the GT now "image_path=images\/金文\/br_002\.png\|sp_fp=[0-9a-f]{12}"\)/m,
    );
  }, 120_000);

  it('an infer.py record without gt_char keeps the official 0 unless recognition_target=recompute', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chron-target-'));
    const rows = readFileSync(join(MINI, 'infer_results/model-a/results.jsonl'), 'utf8').split('\n').filter(Boolean);
    const stripped = rows.map((t) => {
      const row = JSON.parse(t) as { infer_results: Record<string, Record<string, unknown>> };
      const rec = row.infer_results['单字识别'];
      if (rec) delete rec.gt_char;
      return JSON.stringify(row);
    });
    const path = join(dir, 'results.jsonl');
    writeFileSync(path, stripped.join('\n') + '\n');
    const official = score(dir, join(MINI, 'infer_results/model-a/results.jsonl'), 'official');
    const def = Object.values(score(dir, path, 'default').report.models)[0];
    expect(def.metrics['ancient/recognition']).toBe(0);
    expect(def.warnings.join('\n')).toMatch(/recognition_target=recompute/);
    const re = Object.values(score(dir, path, 'recompute', 'recognition_target=recompute').report.models)[0];
    expect(re.metrics['ancient/recognition']).toBe(Object.values(official.report.models)[0].metrics['ancient/recognition']);
  }, 120_000);
});
