/**
 * Through the real CLI: detector outputs score (exit 0, one model each), and a prediction input
 * with no usable record is exit 2 with one line naming the file (and the benchmark it looks like).
 * A refused --pred fails the whole run, as the contract says (exit 2 on unusable input): no
 * report.json is written, and the line names the refused file, not the good one beside it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactMmocrJsonl, TINY_GT, tinyLtbFiles } from '../test/ltbTiny';
import { REPO_ROOT } from '../test/shared';

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules/tsx/dist/cli.mjs'), join(REPO_ROOT, 'cli/main.ts'), 'score', ...args], { encoding: 'utf8' });
  return { code: r.status, stderr: r.stderr };
}

let dir = '';
const write = (rel: string, data: string | Uint8Array) => {
  const p = join(dir, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, data);
  return p;
};
const stemOf = (name: string) => name.replace(/\.jpg$/, '');
const pts = (f: number[]) => [0, 2, 4, 6].map((i) => [f[i], f[i + 1]]);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bl-refusal-'));
  for (const [p, data] of Object.entries(tinyLtbFiles())) write(`ltb/${p}`, data);
  // MMOCR 0.x ocr.py --export: out_<stem>.json, det + recog with --details.
  for (const [name, polys] of Object.entries(TINY_GT)) {
    write(`ocr-export/out_${stemOf(name)}.json`, JSON.stringify({ filename: stemOf(name), result: polys.map((box) => ({ box, box_score: 0.9, text: '2015', text_score: 0.8 })) }, null, 4));
  }
  // PaddleOCR tools/infer_det.py: absolute image paths, no confidence.
  write('paddle/predicts_db.txt', Object.entries(TINY_GT).map(([name, polys]) => `/data/LTB/images/${name}\t${JSON.stringify(polys.map((p) => ({ transcription: '', points: pts(p) })))}`).join('\n') + '\n');
  // ICDAR2015 end-to-end with numeric transcriptions.
  for (const [name, polys] of Object.entries(TINY_GT)) write(`e2e/res_${stemOf(name)}.txt`, polys.map((p, k) => `${p.join(',')},${k === 0 ? 'OPEN' : '0'}`).join('\n'));
  write('good.jsonl', exactMmocrJsonl());
  write('tabench-run.jsonl', JSON.stringify({ image_path: 'Receipt/r.jpeg', task_type: 'T2R', question: 'Where is "SAFEWAY"?', bbox: [1, 2, 3, 4], coord_type: 'abs', prediction: '[1, 2, 3, 4]' }) + '\n');
  write('empty/results.jsonl', '');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the CLI reads what detectors write', () => {
  it.each([
    ['MMOCR 0.x ocr.py --export folder', 'ocr-export'],
    ['PaddleOCR infer_det.py predicts_db.txt', 'paddle/predicts_db.txt'],
    ['ICDAR2015 end-to-end res_img folder', 'e2e'],
  ])('%s: exit 0, one model, hmean 1', (_n, pred) => {
    const out = join(dir, `out-${pred.replace(/\W/g, '_')}`);
    const r = cli('--dataset', join(dir, 'ltb'), '--pred', join(dir, pred), '--out', out);
    expect(r.code, r.stderr).toBe(0);
    const models = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).models as Record<string, { metrics: Record<string, number> }>;
    expect(Object.keys(models)).toHaveLength(1);
    expect(Object.values(models)[0].metrics['norm/hmean']).toBe(1);
  }, 60_000);
});

describe('the CLI refuses a prediction input with no usable record', () => {
  it.each([
    ['another benchmark\'s file', 'tabench-run.jsonl', /^benchlens: Not LTB predictions: tabench-run\.jsonl is a TABench predictions file — nothing to score — /],
    ['an empty results.jsonl', 'empty/results.jsonl', /^benchlens: results\.jsonl: no prediction lines$/],
  ])('%s: exit 2, one line naming the file', (_n, pred, message) => {
    const out = join(dir, 'out-refused');
    const r = cli('--dataset', join(dir, 'ltb'), '--pred', join(dir, pred), '--out', out);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr.trim()).toMatch(message);
  }, 60_000);

  it('a refused --pred beside a good one: exit 2 naming the refused file only, no report written', () => {
    const out = join(dir, 'out-mixed');
    const r = cli('--dataset', join(dir, 'ltb'), '--pred', join(dir, 'good.jsonl'), '--pred', join(dir, 'tabench-run.jsonl'), '--out', out);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('tabench-run.jsonl');
    expect(r.stderr).not.toContain('good.jsonl');
    expect(existsSync(join(out, 'report.json'))).toBe(false);
  }, 60_000);
});
