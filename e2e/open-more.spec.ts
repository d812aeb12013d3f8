/**
 * More ways in, in real Chromium (`npx vite build && npx playwright test e2e/open-more.spec.ts`):
 * a picked folder comes back from the landing page's recent-folders list after a reload (its
 * directory handle kept in IndexedDB, no picker), and prediction files plus a prediction folder
 * dropped together on the page score with the official numbers (read from shared/reference).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { HAS_SHARED, shared } from '../test/shared';
import { dropPaths, expectMetric, fillOpfs, metricCell, pickerCalls, showReport, stubCountingPicker } from './helpers';

const LTB_MINI = shared('data/ltb-mini');
const LTB_REF = shared('reference/ltb');
const expected = (set: string, variant: string) =>
  (JSON.parse(readFileSync(join(LTB_REF, `expected-${set}-${variant}.json`), 'utf8')) as { models: Record<string, { metrics: Record<string, number> }> }).models[set]
    .metrics;

test.describe('more ways to open a real LTB folder', () => {
  test.skip(!HAS_SHARED, '*** ../shared is absent: skipping the recent-folder and prediction-drop tests ***');

  test('a picked folder is listed under recent folders after a reload and reopens from there without the picker', async ({ page }) => {
    // The picker hands back the origin-private copy and counts its calls, so the test can
    // tell whether a reopen went through it.
    await stubCountingPicker(page, 'ltb-mini');
    await page.goto('/');
    await fillOpfs(page, LTB_MINI, 'ltb-mini');
    // The folder is recorded (IndexedDB) just after it opens; leaving the page before that
    // write ends would abort it, so wait for the page's own "recorded" event.
    const recorded = page.evaluate(() => new Promise<void>((resolve) => window.addEventListener('benchlens:recent-changed', () => resolve(), { once: true })));
    await page.getByRole('button', { name: 'Open folder…' }).click();
    const summary = page.getByTestId('dataset-summary');
    await expect(summary).toContainText('LTB — 15 splits');
    expect(await pickerCalls(page)).toBe(1);
    await recorded;

    await page.goto('/');
    await page.reload();
    await expect(summary).toHaveCount(0);
    const recent = page.getByRole('region', { name: 'Recent folders' });
    const entry = recent.getByRole('button', { name: 'ltb-mini', exact: true });
    await expect(entry).toBeEnabled();
    await expect(recent).toContainText('ltb');
    await entry.click();
    await expect(summary).toContainText('LTB — 15 splits');
    await expect(summary).toContainText('ltb-mini');
    // The fresh page's picker stub was never called: the folder came from the stored handle.
    expect(await pickerCalls(page)).toBe(0);
  });

  test('a prediction file and a prediction folder dropped together both score with the official numbers', async ({ page }) => {
    await page.goto('/');
    await page.bringToFront();
    await page.getByTestId('dataset-folder-input').setInputFiles(LTB_MINI);
    await expect(page.getByTestId('dataset-summary')).toContainText('LTB — 15 splits');
    await showReport(page);
    await dropPaths(page, [join(LTB_REF, 'ltbmini-object.json'), join(LTB_REF, 'ltbmini-icdar')]);
    await expect(metricCell(page, 'ltbmini-object', 'hard/hmean')).toBeVisible();
    await expect(metricCell(page, 'ltbmini-icdar', 'hard/hmean')).toBeVisible();
    await expect(page.getByTestId('report-protocol')).toContainText('Protocol mmocr-1.0.1');
    // The dataset stays open: a drop of predictions is not taken for a new dataset.
    await expect(page.getByTestId('dataset-summary')).toContainText('LTB — 15 splits');
    for (const set of ['ltbmini-object', 'ltbmini-icdar']) {
      const want = expected(set, 'mmocr-1.0.1');
      await expectMetric(page, set, 'hard/hmean', want['hard/hmean']);
      await expectMetric(page, set, 'norm/hmean', want['norm/hmean']);
    }
  });
});
