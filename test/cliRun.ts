/**
 * The real CLI in a child process (tsx, as `npm run cli` runs it), and the LTB demo written to a
 * folder as a user would have it on disk: the fixtures of the CLI's refusal tests.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { makeDemo } from '../src/core/benchmarks/ltb/demo';
import type { MemorySource } from '../src/core/io/fileSource';
import { REPO_ROOT } from './shared';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `uid` runs the CLI as that user (root can; used to meet real EACCES, which root never does). */
export function runCli(args: string[], opts: { uid?: number; timeoutMs?: number } = {}): CliRun {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules/tsx/dist/cli.mjs'), join(REPO_ROOT, 'cli/main.ts'), ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 120_000,
    ...(opts.uid !== undefined ? { uid: opts.uid, gid: opts.uid, env: { ...process.env, HOME: tmpdir() } } : {}),
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * A fresh folder (readable by every user, so a test may run the CLI as `nobody`) holding the LTB
 * demo dataset in `ds/` and its two prediction files in `preds/`.
 */
export async function ltbDemoOnDisk(): Promise<{ dir: string; ds: string; preds: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'bl-cli-'));
  chmodSync(dir, 0o755);
  const demo = await makeDemo();
  const ds = join(dir, 'ds');
  const preds = join(dir, 'preds');
  await writeAll(demo.source, ds);
  mkdirSync(preds);
  for (const p of demo.predictions) writeFileSync(join(preds, p.path), await p.source.read(p.path));
  return { dir, ds, preds };
}

async function writeAll(src: MemorySource, dir: string): Promise<void> {
  for (const e of src.list()) {
    const p = join(dir, ...e.path.split('/'));
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, await src.read(e.path));
  }
}
