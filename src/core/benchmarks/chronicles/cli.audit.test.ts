/**
 * Malformed input through the real CLI: BOM, CRLF, a garbage line, an empty file, unicode paths.
 * Nothing may crash: exit 0 with the bad line listed, or exit 2 with one line naming the file.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../../test/cli';

function cli(...args: string[]) {
  const r = runCli(['score', ...args]);
  return { status: r.status, stderr: r.stderr };
}

describe('Chronicles-OCR CLI on malformed files', () => {
  it('BOM + CRLF + garbage line + unicode folders: exit 0, the bad line named; empty file: exit 2, named (issue 12)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chron-audit-'));
    const root = join(dir, '数据 ü');
    mkdirSync(join(root, 'data'), { recursive: true });
    const gt = { image_path: 'images/楷书/九成宫 1.jpg', font_type: '楷书', annotation: '九成宫' };
    writeFileSync(join(root, 'data', 'Chronicles_OCR.jsonl'), '\uFEFF' + JSON.stringify(gt) + '\r\n');
    const preds = join(dir, '模型 ü');
    mkdirSync(preds);
    const row = { image_path: gt.image_path, infer_results: { 字体分类: { answer: '', extract: { category: '楷书' } } } };
    writeFileSync(join(preds, 'm.jsonl'), '\uFEFF' + JSON.stringify(row) + '\r\n{garbage\r\n');
    writeFileSync(join(preds, 'empty.jsonl'), '');

    const out = join(dir, 'out');
    let r = cli('--dataset', root, '--pred', join(preds, 'm.jsonl'), '--out', out);
    expect(r.status, r.stderr).toBe(0);
    const rep = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    // Classification 楷书 = 楷书 → 1; parsing has no record → no_infer → 0.
    expect(rep.models.m.metrics['regular/classification']).toBe(1);
    expect(rep.models.m.metrics['regular/parsing']).toBe(0);
    expect(rep.models.m.warnings).toEqual(['line 2: not valid JSON (m.jsonl)']);

    // An empty results file has no usable record: refused with one line naming it (specs/README.md),
    // no longer scored as a model with no metrics.
    r = cli('--dataset', root, '--pred', join(preds, 'empty.jsonl'), '--out', join(dir, 'out2'));
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/empty\.jsonl: nothing to score — the file has no lines/);

    r = cli('--dataset', root, '--pred', join(preds, 'nope.jsonl'), '--out', join(dir, 'out3'));
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/nope\.jsonl/);
  }, 60_000);
});
