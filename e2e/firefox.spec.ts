/**
 * dist/benchlens.html opened from file:// in Firefox (the Debian firefox-esr; `apt-get install
 * firefox-esr`): e2e/firefoxBidi.mjs drives it over WebDriver BiDi in a child process and
 * reports what it saw; the numbers must be Node's. Skipped, loudly, where that Firefox is absent.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { REPO_ROOT } from '../test/shared';
import { KEY, ltbDemoNumbers, writeLtbDemo } from './demoNumbers';

const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** BiDi sends an object as [key, {type, value}] pairs. */
const fromBidi = (v: unknown): Record<string, string> | null =>
  Array.isArray(v) ? Object.fromEntries((v as [string, { value: string }][]).map(([k, x]) => [k, x.value])) : null;

test('benchlens.html from file:// in Firefox scores the demo, opens a case and redraws it by the raster workers after a zoom, opens a folder and prediction files', async () => {
  test.skip(!existsSync(FIREFOX), `*** ${FIREFOX} not installed (apt-get install firefox-esr): skipping the Firefox file:// test ***`);
  test.setTimeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'benchlens-ff-'));
  try {
    copyFileSync(resolve(REPO_ROOT, 'dist/benchlens.html'), join(dir, 'benchlens.html'));
    const files = await writeLtbDemo(join(dir, 'data'));
    const node = await ltbDemoNumbers();
    const r = spawnSync(process.execPath, ['--experimental-websocket', resolve(REPO_ROOT, 'e2e/firefoxBidi.mjs'), join(dir, 'benchlens.html'), files.dataset, ...files.predictions], {
      encoding: 'utf8',
      timeout: 170_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const seen = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(seen.failure, JSON.stringify(seen)).toBeUndefined();
    const want = Object.fromEntries(node.models.map((m) => [m, `${KEY} = ${String(node.metric[m])}`]));
    expect(fromBidi(seen.demo)).toEqual(want);
    expect(seen.viewer).toBe(true);
    // The raster workers draw in Firefox too, from the inlined code (chunked parts, aborts).
    expect(seen.drawnAfterZoom).toBe('workers');
    // As snapshots of their canvases, as in Chromium (the transfer fallback: viewer-motion.spec.ts).
    expect(seen.partsVia).toBe('snapshot');
    expect(String(seen.summary)).toContain('LTB');
    expect(String(seen.summary)).toContain('8 images');
    expect(fromBidi(seen.opened)).toEqual(want);
    expect(seen.indexedDB).toBe(true);
    // Firefox has no File System Access API: "Open folder…" uses the folder input there.
    expect(seen.directoryPicker).toBe(false);
    expect(seen.errors).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
