import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from './args';
import { runCli } from '../test/cli';
import { HAS_SHARED, shared } from '../test/shared';
import { tempDir } from '../test/tempDirs';

describe('the lint command', () => {
  it('parses --dataset, --benchmark and --out', () => {
    expect(parseArgs(['lint', '--dataset', 'd', '--benchmark=ltb', '--out', 'o'])).toEqual({ command: 'lint', dataset: 'd', benchmark: 'ltb', out: 'o' });
  });

  it('refuses the score-only flags with exit 2 and one line', () => {
    for (const flag of [['--pred', 'x'], ['--protocol', 'mmocr-0.6.3'], ['--no-bundled']]) {
      const r = runCli(['lint', '--dataset', '.', ...flag, '--out', 'x']);
      expect(r.status).toBe(2);
      expect(r.stderr.split('\n')[0]).toMatch(new RegExp(`^benchlens: unknown flag ${flag[0]} for lint$`));
    }
  });

  it('exits 2 with one line for a folder that holds no benchmark, and writes nothing', () => {
    const dir = tempDir('bl-lint-empty-');
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    const out = join(dir, 'out');
    const r = runCli(['lint', '--dataset', dir, '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(/^benchlens: no recognisable benchmark in ".*" \(1 files\)\. Looked for — /);
    expect(existsSync(join(out, 'lint.json'))).toBe(false);
  });

  it('exits 2 with one line when the dataset folder does not exist', () => {
    const r = runCli(['lint', '--dataset', '/nonexistent/benchlens', '--out', join(tmpdir(), 'bl-out')]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('benchlens: dataset /nonexistent/benchlens: not a folder');
  });

  it('exits 2 when --benchmark names a benchmark the folder is not', () => {
    const dir = tempDir('bl-lint-wrong-');
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    const r = runCli(['lint', '--dataset', dir, '--benchmark', 'gansulishuzhi', '--out', join(dir, 'out')]);
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(/^benchlens: .*no manifest\.jsonl/);
  });

  it.skipIf(!HAS_SHARED)('writes lint.json in the spec shape, exit 0 with findings, and a one-line summary on stderr', () => {
    const out = tempDir('bl-lint-out-');
    const r = runCli(['lint', '--dataset', shared('data', 'pulsebench-select-mini'), '--out', out]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    const text = readFileSync(join(out, 'lint.json'), 'utf8');
    const report = JSON.parse(text);
    expect(Object.keys(report)).toEqual(['schema', 'benchmark', 'dataset', 'counts', 'findings']);
    expect(Object.keys(report.findings[0])).toEqual(['case_id', 'kind', 'severity', 'detail']);
    expect(text.endsWith('}\n')).toBe(true);
  });
});
