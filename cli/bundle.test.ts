/**
 * The compiled CLI (dist-cli/benchlens.mjs, built by test/globalSetup.ts when stale) is what
 * `npx benchlens` runs: copied alone into an empty folder — no source tree, no tsx, no
 * node_modules on the resolution path — it must list protocols and score a dataset exactly as
 * the source does, and it must not carry the UI.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BUNDLE, CLI_DIR, inputRecords, staleReason } from '../scripts/cliBundle.mjs';
import { makeDemo } from '../src/core/benchmarks/ltb/demo';
import { serializeReport } from '../src/core/report';
import { computeUncertainty, uncertaintyOptions } from '../src/core/uncertainty';
import { BenchSession } from '../src/core/session';

let dir = '';
let bundle = '';
const run = (...args: string[]) => spawnSync(process.execPath, [bundle, ...args], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'benchlens-bundle-'));
  bundle = join(dir, 'benchlens.mjs');
  copyFileSync(CLI_BUNDLE, bundle);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the compiled CLI, alone in an empty folder', () => {
  it('imports nothing but Node built-ins', () => {
    const text = readFileSync(bundle, 'utf8');
    // JSDoc in bundled libraries mentions import('…') types: look at code, not comments.
    const src = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    const specifiers = [...src.matchAll(/^\s*(?:import|export)\b[^'"\n]*?from\s*["']([^"']+)["']/gm), ...src.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);
    expect(specifiers.length).toBeGreaterThan(0);
    expect(specifiers.filter((s) => !s.startsWith('node:'))).toEqual([]);
    expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('was built from the core and the CLI only: no UI, worker, storage or browser I/O module', () => {
    const { files } = JSON.parse(readFileSync(join(CLI_DIR, 'benchlens.inputs.json'), 'utf8')) as { files: { path: string }[] };
    const paths = files.map((f) => f.path);
    expect(paths).toContain('src/core/session.ts');
    expect(paths).toContain('cli/main.ts');
    expect(paths.filter((p) => /^src\/(app|worker|db|io)\/|node_modules\/(react|react-dom|konva|react-konva|zustand|dexie|comlink)\//.test(p))).toEqual([]);
  });

  it('prints the protocols and the usage, exit 0', () => {
    const p = run('protocols');
    expect(p.status, p.stderr).toBe(0);
    expect(p.stdout.split('\n')[0]).toBe('ltb (LTB)');
    expect(p.stdout).toMatch(/^chronicles \(/m);
    const h = run('--help');
    expect(h.status).toBe(0);
    expect(h.stdout).toMatch(/^usage: /);
  });

  it('scores the LTB demo to the same report.json and case lines as the source, and exits 2 on a missing folder', async () => {
    const demo = await makeDemo();
    const data = join(dir, 'ltb-demo');
    for (const { path } of demo.source.list()) {
      mkdirSync(dirname(join(data, path)), { recursive: true });
      writeFileSync(join(data, path), await demo.source.read(path));
    }
    // The demo's prediction inputs live in memory; write them beside the dataset.
    const predFiles: string[] = [];
    for (const p of demo.predictions) {
      const file = join(dir, 'preds', `${p.name}.json`);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, await p.source.read(p.path));
      predFiles.push(file);
    }
    expect(predFiles.length).toBeGreaterThan(0);
    const out = join(dir, 'out');
    const r = run('score', '--dataset', data, ...predFiles.flatMap((f) => ['--pred', f]), '--out', out);
    expect(r.status, r.stderr).toBe(0);

    const session = await BenchSession.open(demo.source);
    const protocol = session.resolveProtocol();
    for (const p of demo.predictions) await session.addPredictions({ ...p });
    const results = await session.score(protocol);
    // The uncertainty block (shared/specs/uncertainty.md) as the page's worker makes it: the same bits.
    const report = session.report(protocol, results);
    report.uncertainty = await computeUncertainty('ltb', session.dataset, results, protocol, uncertaintyOptions(protocol)!);
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe(serializeReport(report));
    const lines = [...session.eachCaseLine(results)];
    expect(lines.length).toBeGreaterThan(0);
    expect(readFileSync(join(out, 'case_analysis.jsonl'), 'utf8')).toBe(lines.map((l) => l + '\n').join(''));

    const bad = run('score', '--dataset', join(dir, 'nope'), '--pred', 'x', '--out', out);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim()).toBe(`benchlens: dataset ${join(dir, 'nope')}: not a folder`);
  });
});

describe('when the bundle is rebuilt (scripts/cliBundle.mjs)', () => {
  it('is fresh while every input has its recorded content, stale when one changed or is gone, not when one is only touched', () => {
    const root = mkdtempSync(join(tmpdir(), 'benchlens-stale-'));
    try {
      const bundle = join(root, 'out.mjs');
      const inputList = join(root, 'inputs.json');
      const paths = { bundle, inputList, root };
      expect(staleReason(paths)).toBe('no bundle yet');
      writeFileSync(bundle, '');
      expect(staleReason(paths)).toBe('no input list');
      writeFileSync(join(root, 'a.ts'), 'export const a = 1;\n');
      writeFileSync(join(root, 'b.ts'), 'export const b = 2;\n');
      writeFileSync(inputList, JSON.stringify({ files: inputRecords([join(root, 'a.ts'), join(root, 'b.ts')], root) }));
      expect(staleReason(paths)).toBeNull();
      // A checkout or `touch` changes the time, not the content: still fresh (the hash decides).
      utimesSync(join(root, 'a.ts'), new Date(Date.now() + 60_000), new Date(Date.now() + 60_000));
      expect(staleReason(paths)).toBeNull();
      // An edit of the same size: the time differs from the recorded one, so the hash is compared.
      writeFileSync(join(root, 'a.ts'), 'export const a = 3;\n');
      expect(staleReason(paths)).toBe('a.ts changed');
      writeFileSync(join(root, 'a.ts'), 'export const a = 1;\n');
      expect(staleReason(paths)).toBeNull();
      unlinkSync(join(root, 'b.ts'));
      expect(staleReason(paths)).toBe('b.ts is gone');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
