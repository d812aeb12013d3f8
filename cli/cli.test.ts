import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from './args';
import { runCli } from '../test/cli';

function cli(...args: string[]) {
  const r = runCli(args);
  return { code: r.status, stderr: r.stderr, stdout: r.stdout };
}

describe('the command line', () => {
  it('parses repeated --pred and --option key=value', () => {
    const a = parseArgs(['score', '--dataset', 'd', '--pred', 'a.json', '--pred=b', '--option', 'iou=0.5', '--option', 'x=y=z', '--out', 'o']);
    expect(a).toMatchObject({ command: 'score', dataset: 'd', preds: ['a.json', 'b'], options: { iou: '0.5', x: 'y=z' }, out: 'o' });
  });

  it('exits 2 with one line when the dataset folder does not exist', () => {
    const r = cli('score', '--dataset', '/nonexistent/benchlens', '--pred', 'x', '--out', join(tmpdir(), 'bl-out'));
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')[0]).toMatch(/^benchlens: dataset \/nonexistent\/benchlens: not a folder$/);
  });

  it('exits 2 and says what it looked for when no benchmark is recognised', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bl-empty-'));
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    const r = cli('score', '--dataset', dir, '--pred', join(dir, 'notes.txt'), '--out', join(dir, 'out'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no recognisable benchmark/);
    expect(r.stderr).toMatch(/Looked for/);
  });

  it('exits 2 on an unknown flag', () => {
    const r = cli('score', '--dataset', '.', '--frobnicate', '1', '--out', 'x');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown flag --frobnicate/);
  });
});
