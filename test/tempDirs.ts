/**
 * Temporary folders for tests that write datasets or CLI output: removed after the test file
 * that made them, so repeated runs do not fill the OS temp folder (a planted lint fixture is a
 * copy of a mini dataset). The hook is registered when a test file first imports this module
 * (vitest evaluates modules per test file), so it runs after that file's tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];

afterAll(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
