/**
 * Zero install, from disk: dist/benchlens.html (`vite build --mode single`, part of
 * `npm run build`) copied alone into an empty folder and opened from a file:// URL — no server,
 * no other file — scores the demo, opens a folder through the folder input, shows cases on the
 * image and keeps a review across a reload.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from '@playwright/test';
import { REPO_ROOT } from '../test/shared';
import { drag, dropPaths, expectMetric } from './helpers';
import { KEY, ltbDemoNumbers, writeLtbDemo } from './demoNumbers';

const BUILT = resolve(REPO_ROOT, 'dist/benchlens.html');
let dir = '';
let page = '';

test.beforeAll(() => {
  expect(existsSync(BUILT), 'dist/benchlens.html missing: npm run build (or npx vite build --mode single) makes it').toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'benchlens-file-'));
  copyFileSync(BUILT, join(dir, 'benchlens.html'));
  page = pathToFileURL(join(dir, 'benchlens.html')).href;
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('benchlens.html opened from file:// scores the LTB demo and opens a case', async ({ page: p }) => {
  const errors: string[] = [];
  p.on('pageerror', (e) => errors.push(e.message));
  p.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const node = await ltbDemoNumbers();
  await p.goto(`${page}#demo=ltb`);
  await expect(p.getByTestId('report-protocol')).toContainText('Protocol', { timeout: 60_000 });
  for (const m of node.models) await expectMetric(p, m, KEY, node.metric[m]);
  await p.getByTestId('case-row').first().click();
  await expect(p.locator('.case-viewer [data-testid="viewer-screen-0"]')).toBeVisible();
  expect(errors).toEqual([]);
});

test('benchlens.html from file://: the raster workers start from the inlined code and draw the view after a pan', async ({ page: p }) => {
  const errors: string[] = [];
  p.on('pageerror', (e) => errors.push(e.message));
  p.on('console', (m) => (m.type() === 'error' || /drawing on the main thread/.test(m.text())) && errors.push(m.text()));
  await p.goto(`${page}#demo=ltb`);
  await expect(p.getByTestId('report-protocol')).toContainText('Protocol', { timeout: 60_000 });
  await p.getByTestId('case-row').first().click();
  const pane = p.getByTestId('viewer-pane-0');
  await expect(pane).toBeVisible();
  // The static-shapes layer (the second canvas) says who drew what it shows (useFullDetail).
  const drawnBy = () => pane.locator('canvas').nth(1).getAttribute('data-drawn-by');
  await expect.poll(drawnBy).toBe('at once');
  // The workers load while the case is opened; a pan is redrawn by them once they are ready.
  const box = (await pane.boundingBox())!;
  await expect
    .poll(
      async () => {
        const x = box.x + box.width / 2;
        const y = box.y + box.height / 2;
        await drag(p, x, y, 5, 6, 3);
        await p.waitForTimeout(400);
        return drawnBy();
      },
      { timeout: 20_000 },
    )
    .toBe('workers');
  expect(errors).toEqual([]);
});

test('benchlens.html from file:// opens a folder (folder input), adds predictions, scores, and keeps a review', async ({ page: p }) => {
  const node = await ltbDemoNumbers();
  const files = await writeLtbDemo(join(dir, 'data'));
  await p.goto(page);
  await p.getByTestId('dataset-folder-input').setInputFiles(files.dataset);
  await expect(p.getByTestId('dataset-summary')).toContainText('LTB');
  await p.getByTestId('prediction-files-input').setInputFiles(files.predictions);
  await expect(p.getByTestId('report-protocol')).toContainText('Protocol', { timeout: 60_000 });
  // Models are named after the files (demo model names + .json), scored as in Node.
  for (const m of node.models) await expectMetric(p, m, KEY, node.metric[m]);

  const row = p.getByTestId('case-row').nth(1);
  const id = (await row.getAttribute('data-case-id'))!;
  await row.click();
  await expect(p.locator('.case-viewer [data-testid="viewer-screen-0"]')).toBeVisible();
  const panel = p.getByTestId('review-panel');
  await expect(panel).toHaveAttribute('data-loading', 'false');
  const status = p.getByRole('group', { name: 'Case status' }).locator('[data-status="gt_wrong"]');
  await status.click();
  await expect(status).toHaveAttribute('aria-pressed', 'true');
  await p.getByLabel('Case note').fill('kept on file://');
  await p.getByLabel('Case note').press('Enter');
  await expect(p.getByTestId('case-note-state')).toHaveAttribute('data-state', 'saved');

  // Reviews live in IndexedDB, which Chromium keeps for file:// pages: after a reload and the
  // same folder opened again, the review is back.
  await p.reload();
  await p.getByTestId('dataset-folder-input').setInputFiles(files.dataset);
  await p.getByTestId('prediction-files-input').setInputFiles(files.predictions);
  await p.locator(`[data-testid="case-row"][data-case-id="${id}"]`).click();
  await expect(p.getByRole('group', { name: 'Case status' }).locator('[data-status="gt_wrong"]')).toHaveAttribute('aria-pressed', 'true');
  await expect(p.getByLabel('Case note')).toHaveValue('kept on file://');
});

test('benchlens.html from file://: what Chromium offers there, and a dropped folder opens', async ({ page: p }) => {
  const files = await writeLtbDemo(join(dir, 'data-2'));
  await p.goto(page);
  // What the README says about file://, checked: a secure context (so the File System Access
  // pickers exist) with IndexedDB (reviews, recent folders), but neither a service worker nor
  // the origin-private file system: both are refused for the file: scheme's opaque origin.
  const offered = await p.evaluate(async () => ({
    secure: isSecureContext,
    directoryPicker: typeof (window as { showDirectoryPicker?: unknown }).showDirectoryPicker === 'function',
    indexedDB: await new Promise<boolean>((r) => {
      const q = indexedDB.open('benchlens-probe');
      q.onsuccess = () => (q.result.close(), r(true));
      q.onerror = () => r(false);
    }),
    serviceWorker: await navigator.serviceWorker.register('./sw.js').then(
      () => 'registered',
      (e: Error) => `refused (${e.name})`,
    ),
    opfs: await navigator.storage.getDirectory().then(
      () => 'available',
      (e: Error) => `refused (${e.name})`,
    ),
  }));
  expect(offered).toMatchObject({ secure: true, directoryPicker: true, indexedDB: true });
  expect(offered.serviceWorker).toMatch(/^refused/);
  expect(offered.opfs).toBe('refused (SecurityError)');

  await dropPaths(p, [files.dataset]);
  await expect(p.getByTestId('dataset-summary')).toContainText('LTB');
  await expect(p.getByTestId('dataset-summary')).toContainText('8 images');
});
