/**
 * GT-health fixtures: a mini dataset of ../shared/data copied (read in place, written to the OS
 * temp folder, never into the repo) with defects planted by the test, and the real CLI run on it.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { runCli } from './cli';
import { lintDataset, type LintReport } from '../src/core/lint';
import { adapterFor } from '../src/core/benchmarks/registry';
import type { BenchmarkId, GtCorrection } from '../src/core/model';
import { nodeFolderSource } from '../cli/nodeSource';
import { gtOnlyResult } from '../src/core/gtCases';
import { expect } from 'vitest';
import { tempDir } from './tempDirs';
import { tiffWithOrientation } from './exif';

/** Copies every file under `from` into a fresh temp folder except `skip` (relative paths); returns the folder. */
export function copyTree(from: string, skip: readonly string[] = []): string {
  const dir = tempDir('bl-lint-');
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else {
        const rel = relative(from, p).split('\\').join('/');
        if (skip.includes(rel)) continue;
        const to = join(dir, rel);
        mkdirSync(dirname(to), { recursive: true });
        writeFileSync(to, readFileSync(p));
      }
    }
  };
  walk(from);
  return dir;
}

/** Rewrites a JSON file of the copy through `edit`. */
export function editJson<T>(path: string, edit: (doc: T) => void): void {
  const doc = JSON.parse(readFileSync(path, 'utf8')) as T;
  edit(doc);
  writeFileSync(path, JSON.stringify(doc));
}

/** Rewrites a JSONL file line by line (`edit` may change the parsed object in place). */
export function editJsonl(path: string, edit: (row: Record<string, unknown>, index: number) => void): void {
  const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '');
  const out = lines.map((l, i) => {
    const row = JSON.parse(l) as Record<string, unknown>;
    edit(row, i);
    return JSON.stringify(row);
  });
  writeFileSync(path, out.join('\n') + '\n');
}

/**
 * A real JPEG with an EXIF orientation: an APP1 `Exif` segment (big-endian TIFF, one IFD entry
 * 0x0112 SHORT = `orientation`) inserted right after the SOI marker of the given JPEG bytes.
 */
export function withExifOrientation(jpeg: Uint8Array, orientation: number): Uint8Array {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error('not a JPEG');
  const payload = [...'Exif'].map((c) => c.charCodeAt(0)).concat([0, 0], [...tiffWithOrientation(orientation)]);
  const len = payload.length + 2;
  const app1 = [0xff, 0xe1, len >> 8, len & 0xff, ...payload];
  const out = new Uint8Array(jpeg.length + app1.length);
  out.set(jpeg.subarray(0, 2), 0);
  out.set(app1, 2);
  out.set(jpeg.subarray(2), 2 + app1.length);
  return out;
}

/** Runs `lint` on a folder; returns the exit code, stderr and the parsed lint.json. */
export function lintCli(dataset: string, ...extra: string[]): { status: number | null; stderr: string; report: LintReport } {
  const out = tempDir('bl-lint-out-');
  const r = runCli(['lint', '--dataset', dataset, '--out', out, ...extra]);
  if (r.status !== 0) throw new Error(`lint exited ${r.status}: ${r.stderr}`);
  return { status: r.status, stderr: r.stderr, report: JSON.parse(readFileSync(join(out, 'lint.json'), 'utf8')) as LintReport };
}

/** `case_id / instance / kind` of each finding, in the report's order: what a fixture test compares. */
export function keys(r: LintReport): string[] {
  return r.findings.map((f) => `${f.case_id} / ${f.instance ?? '-'} / ${f.kind}`);
}

/**
 * The fix loop without the page: load `dir` with the adapter, apply `corrections`, lint the
 * corrected dataset; then write the corrected GT back in the benchmark's own format (the
 * adapter's export) over a copy of the folder, reload it and lint it again.
 */
export async function lintAfterCorrections(
  benchmark: BenchmarkId,
  dir: string,
  corrections: GtCorrection[],
): Promise<{ before: LintReport; after: LintReport; exported: LintReport; files: Record<string, string> }> {
  const adapter = adapterFor(benchmark);
  const src = nodeFolderSource(dir);
  const ds = await adapter.loadDataset(src);
  const before = await lintDataset(benchmark, ds, src);
  const corrected = adapter.applyCorrections!(ds, corrections);
  const after = await lintDataset(benchmark, corrected, src);
  const files = adapter.exportGroundTruth!(corrected);
  const copy = copyTree(dir);
  for (const [p, text] of Object.entries(files)) writeFileSync(join(copy, p), text);
  const src2 = nodeFolderSource(copy);
  const exported = await lintDataset(benchmark, await adapter.loadDataset(src2), src2);
  return { before, after, exported, files };
}

/**
 * Checks a lint report against the cases the viewer shows (gtCases.ts: the adapter's own scorer
 * on an empty prediction set): the same number of cases and GT instances, every finding on one
 * of those cases, every instance index one of that case's GT ids.
 */
export async function expectViewerNumbering(benchmark: BenchmarkId, dir: string, report: LintReport): Promise<void> {
  const adapter = adapterFor(benchmark);
  const ds = await adapter.loadDataset(nodeFolderSource(dir));
  const result = await gtOnlyResult(adapter, ds, adapter.resolveProtocol(undefined, {}));
  const byId = new Map(result.cases.map((c) => [c.case_id, c]));
  expect(report.dataset).toEqual({ cases: result.cases.length, instances: result.cases.reduce((n, c) => n + c.gt.length, 0) });
  for (const f of report.findings) {
    const c = byId.get(f.case_id);
    expect(c, `${f.case_id} is a case of the viewer`).toBeDefined();
    if (f.instance !== undefined) expect(c!.gt.map((g) => g.id), `${f.case_id} has GT ${f.instance}`).toContain(f.instance);
  }
}
