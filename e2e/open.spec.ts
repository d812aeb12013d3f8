/**
 * Opening things in the built app, in real Chromium (`npx vite build && npx playwright test
 * e2e/open.spec.ts`): the built-in demos, a real dataset folder dropped / chosen / picked, the
 * reference prediction files (their numbers checked against shared/reference, never typed in),
 * detection failures and malformed lines.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { HAS_SHARED, REPO_ROOT, shared } from '../test/shared';
import { dropPaths, expectMetric, fillOpfs, metricCell, showReport } from './helpers';

const BENCHMARKS = ['ltb', 'chronicles', 'tabench', 'gansulishuzhi', 'pulsebench-select'] as const;
const hasDemo = (id: string) => existsSync(resolve(REPO_ROOT, 'src/core/benchmarks', id, 'demo.ts'));


const LTB_MINI = shared('data/ltb-mini');
const LTB_REF = shared('reference/ltb');
const expected = (set: string, variant: string) =>
  (JSON.parse(readFileSync(join(LTB_REF, `expected-${set}-${variant}.json`), 'utf8')) as { models: Record<string, { metrics: Record<string, number> }> }).models[set]
    .metrics;

test.describe('built-in demos', () => {
  for (const id of BENCHMARKS) {
    test(`#demo=${id} opens the ${id} demo and shows a score table with numbers`, async ({ page }) => {
      test.skip(!hasDemo(id), `*** no src/core/benchmarks/${id}/demo.ts in this tree yet ***`);
      await page.goto(`/#demo=${id}`);
      await expect(page.getByTestId('dataset-summary')).toContainText(/\d/);
      // Cells of an empty split (gt 0, pred 0) say "—"; every other one is a number.
      const cells = page.locator('section[aria-label="Report"] .report-body td.num:not([data-empty])');
      await expect(cells.first()).toHaveText(/^\d+(\.\d+)?$/);
      expect(await cells.count()).toBeGreaterThan(3);
      await expect(page.getByTestId('report-protocol')).toContainText('Protocol');
    });
  }

  test('the landing page opens the demo chosen in its list (LTB by default)', async ({ page }) => {
    test.skip(!hasDemo('ltb'), '*** no LTB demo yet ***');
    await page.goto('/');
    await expect(page.getByLabel('Demo benchmark')).toHaveValue('ltb');
    await page.getByRole('button', { name: 'Open demo' }).click();
    await expect(page.getByTestId('dataset-summary')).toContainText('LTB');
    await expect(page).toHaveURL(/#.*demo=ltb/);
  });
});

test.describe('a real LTB folder', () => {
  test.skip(!HAS_SHARED, '*** ../shared is absent: skipping the real-folder tests ***');

  test('dropped on the page (DevTools drag events) it is detected as LTB', async ({ page }) => {
    await page.goto('/');
    await dropPaths(page, [LTB_MINI]);
    await expect(page.getByTestId('dataset-summary')).toContainText('LTB — 15 splits');
    await expect(page.getByTestId('dataset-summary')).toContainText('10 images');
  });

  test('chosen through the folder input (webkitdirectory) it is detected as LTB', async ({ page }) => {
    await page.goto('/');
    await page.bringToFront();
    await page.getByTestId('dataset-folder-input').setInputFiles(LTB_MINI);
    await expect(page.getByTestId('dataset-summary')).toContainText('LTB — 15 splits');
  });

  test('picked with showDirectoryPicker (an origin-private folder) it is detected as LTB', async ({ page }) => {
    await page.addInitScript(() => {
      // The picker hands back a real directory handle: the copy placed in the origin-private file system.
      Object.assign(window, { showDirectoryPicker: async () => (await navigator.storage.getDirectory()).getDirectoryHandle('ltb-mini') });
    });
    await page.goto('/');
    await fillOpfs(page, LTB_MINI, 'ltb-mini');
    await page.getByRole('button', { name: 'Open folder…' }).click();
    await expect(page.getByTestId('dataset-summary')).toContainText('LTB — 15 splits');
    await expect(page.getByTestId('dataset-summary')).toContainText('ltb-mini');
  });

  test('the reference predictions give the official numbers, under both protocol variants', async ({ page }) => {
    await page.goto('/');
    await page.bringToFront();
    await page.getByTestId('dataset-folder-input').setInputFiles(LTB_MINI);
    await expect(page.getByTestId('dataset-summary')).toContainText('LTB');
    await showReport(page);
    await page.getByTestId('prediction-files-input').setInputFiles([join(LTB_REF, 'ltbmini-object.json'), join(LTB_REF, 'ltbmini-mmocr.jsonl')]);
    await expect(metricCell(page, 'ltbmini-mmocr', 'hard/hmean')).toBeVisible();
    await page.getByTestId('prediction-folder-input').setInputFiles(join(LTB_REF, 'ltbmini-icdar'));
    await expect(metricCell(page, 'ltbmini-icdar', 'hard/hmean')).toBeVisible();

    const splits = ['blurred', 'artistic', 'glass', 'single_char', 'distorted', 'inverse', 'delimited', 'dense', 'overlapped', 'occluded', 'low_contrast', 'complex_bg', 'others', 'hard', 'norm'];
    for (const variant of ['mmocr-1.0.1', 'mmocr-0.6.3']) {
      if (variant !== 'mmocr-1.0.1') await page.getByLabel('Protocol', { exact: true }).selectOption(variant);
      await expect(page.getByTestId('report-protocol')).toContainText(`Protocol ${variant}`);
      for (const set of ['ltbmini-object', 'ltbmini-mmocr', 'ltbmini-icdar']) {
        const want = expected(set, variant);
        for (const s of splits) {
          for (const m of ['hmean', 'precision', 'recall', 'threshold']) await expectMetric(page, set, `${s}/${m}`, want[`${s}/${m}`]);
        }
        // What a reader sees: × 100, two decimals.
        await expect(metricCell(page, set, 'hard/hmean')).toHaveText((want['hard/hmean'] * 100).toFixed(2));
      }
    }
    // The headline of the issue, read off the screen.
    await expect(metricCell(page, 'ltbmini-object', 'hard/hmean')).toHaveText('77.78');
  });

  test('a malformed prediction line is listed with its line number and costs only that line', async ({ page }) => {
    const dir = mkdtempSync(join(tmpdir(), 'benchlens-e2e-'));
    const lines = readFileSync(join(LTB_REF, 'ltbmini-mmocr.jsonl'), 'utf8').trimEnd().split('\n');
    lines.splice(2, 0, '{"img_path": "img_1.jpg", "det_polygons": [[1, 2, 3');
    const bad = join(dir, 'broken.jsonl');
    writeFileSync(bad, lines.join('\n') + '\n');
    await page.goto('/');
    await page.bringToFront();
    await page.getByTestId('dataset-folder-input').setInputFiles(LTB_MINI);
    await expect(page.getByTestId('dataset-summary')).toContainText('LTB');
    await showReport(page);
    await page.getByTestId('prediction-files-input').setInputFiles(bad);
    const warnings = page.getByRole('region', { name: 'Warnings' });
    await expect(warnings).toContainText('broken');
    await expect(warnings).toContainText('line 3');
    // The other lines still score: the same numbers as the clean file.
    await expectMetric(page, 'broken', 'norm/hmean', expected('ltbmini-mmocr', 'mmocr-1.0.1')['norm/hmean']);
  });

  test('a folder that is no benchmark says what each benchmark expects', async ({ page }) => {
    const dir = mkdtempSync(join(tmpdir(), 'benchlens-e2e-'));
    const folder = join(dir, 'holiday-photos');
    cpSync(join(LTB_MINI, 'anno/hard/images'), folder, { recursive: true });
    writeFileSync(join(folder, 'notes.txt'), 'nothing to score');
    await page.goto('/');
    await page.bringToFront();
    await page.getByTestId('dataset-folder-input').setInputFiles(folder);
    const alert = page.locator('.open-error');
    await expect(alert).toContainText('no recognisable benchmark in "holiday-photos"');
    await expect(alert).toContainText('LTB');
  });
});
