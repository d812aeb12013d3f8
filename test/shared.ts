/**
 * Where ../shared is (CI always has it beside the checkout). Suites that read it use
 * `describe.skipIf(!HAS_SHARED)`; test/globalSetup.ts prints one loud line when it is absent.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const SHARED_DIR = process.env.BENCHLENS_SHARED ?? resolve(REPO_ROOT, '../shared');
export const HAS_SHARED = existsSync(resolve(SHARED_DIR, 'specs', 'README.md'));

export function shared(...parts: string[]): string {
  return resolve(SHARED_DIR, ...parts);
}
