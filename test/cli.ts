/**
 * Runs the compiled CLI (dist-cli/benchlens.mjs) the way CI and `npx benchlens` do: plain
 * `node`, no tsx. The test setups (test/globalSetup.ts, e2e/globalSetup.ts) build it first when
 * it is missing or older than its sources, so the tests never run a stale bundle.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CLI_BUNDLE } from '../scripts/cliBundle.mjs';
import { REPO_ROOT } from './shared';

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], options: { cwd?: string } = {}): CliRun {
  if (!existsSync(CLI_BUNDLE)) throw new Error(`${CLI_BUNDLE} missing: the test setup builds it (node scripts/cliBundle.mjs)`);
  const r = spawnSync(process.execPath, [CLI_BUNDLE, ...args], { cwd: options.cwd ?? REPO_ROOT, encoding: 'utf8' });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
