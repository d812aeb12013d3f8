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

describe('PulseBench-Select CLI on malformed files', () => {
  it('JSONL layout with BOM + CRLF + unicode names scores; an empty prediction file scores every sample as missing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pulse-audit-'));
    const root = join(dir, '数据 ü');
    mkdirSync(join(root, 'data'), { recursive: true });
    const gt = (content: string) => JSON.stringify({ page_count: 1, annotations: [], selected_items: [{ page: 1, bbox: [], content }] });
    const rows = [
      { sample_id: 's1', image: 'images/样本 1.png', ground_truth: gt('Yes') },
      { sample_id: 's2', ground_truth: gt('No') },
    ];
    writeFileSync(join(root, 'data', 'test.jsonl'), '\uFEFF' + rows.map((r) => JSON.stringify(r)).join('\r\n') + '\r\n');
    const preds = join(dir, '预测 ü');
    mkdirSync(preds);
    writeFileSync(join(preds, 'm.jsonl'), '\uFEFF' + JSON.stringify({ sample_id: 's1', content: 'YES' }) + '\r\nnot json\r\n');
    writeFileSync(join(preds, 'empty.jsonl'), '');

    const out = join(dir, 'out');
    let r = cli('--dataset', root, '--pred', join(preds, 'm.jsonl'), '--out', out);
    expect(r.status, r.stderr).toBe(0);
    const m = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).models.m;
    // s1: "YES" ~ "Yes" → TP; s2 absent → FN. P = 1/1, R = 1/2, F1 = 2/3; macro skips s2 → 1, 1.
    expect(m.metrics).toMatchObject({ tp: 1, fp: 0, fn: 1, precision: 1, recall: 0.5, macro_precision: 1, macro_recall: 1, macro_skipped_samples: 1, samples: 2 });
    expect(m.metrics.f1).toBeCloseTo(2 / 3, 15);
    expect(m.counts.malformed_lines).toBe(1);
    expect(m.warnings).toContain('line 2: not valid JSON');

    r = cli('--dataset', root, '--pred', join(preds, 'empty.jsonl'), '--out', join(dir, 'out2'));
    // An empty file has no usable record: refused with one line naming it (specs/README.md, issue 12),
    // no longer scored as a model that predicted nothing.
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/empty\.jsonl: no prediction lines/);
  }, 60_000);
});
