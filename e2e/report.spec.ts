/**
 * The report in the built app: cancel during scoring, exports (report.json, case_analysis.jsonl,
 * CSV) checked against the numbers on screen, model rename / removal, and a plot bar that filters
 * the case list.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { HAS_SHARED, shared } from '../test/shared';
import { expectMetric, metricCell, showReport } from './helpers';
import { stubPickersToOpfs, writeLtbShapedToOpfs } from './ltbShaped';

const LTB_MINI = shared('data/ltb-mini');
const LTB_REF = shared('reference/ltb');

test('a running score can be cancelled, and the app scores again afterwards', async ({ page }) => {
  test.setTimeout(240_000);
  const names = { dataset: 'ltb-shaped', predictions: 'ltb-shaped-preds' };
  await page.addInitScript(...stubPickersToOpfs(names));
  await page.goto('/');
  await writeLtbShapedToOpfs(page, { images: 1500, words: 10, ...names });
  await page.getByRole('button', { name: 'Open folder…' }).click();
  await expect(page.getByTestId('dataset-summary')).toContainText('LTB — 15 splits', { timeout: 60_000 });
  // Cancel is pressed the moment the Scoring status shows: scoring these 1,500 images takes about
  // half a second, which a click through Playwright (visible, stable, then the click) can miss on
  // a loaded machine. A MutationObserver's callback runs before the worker's next message is
  // handled, so the click lands while the score is running, however fast it is.
  await page.evaluate(() => {
    new MutationObserver((_, observer) => {
      const cancel = document.querySelector('[role="status"][aria-label="Scoring"] button');
      if (!(cancel instanceof HTMLButtonElement) || cancel.textContent !== 'Cancel') return;
      observer.disconnect();
      cancel.click();
      (window as unknown as { __cancelPressed: boolean }).__cancelPressed = true;
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label'] });
  });
  // Opened without predictions, the workspace lists the GT; its strip offers the prediction files.
  await page.getByTestId('gt-only-strip').getByRole('button', { name: 'Add prediction files…' }).click();
  const status = page.getByRole('status', { name: 'Scoring' });
  await expect.poll(() => page.evaluate(() => (window as unknown as { __cancelPressed?: boolean }).__cancelPressed === true)).toBe(true);
  await expect(page.locator('.score-error')).toContainText('scoring cancelled', { timeout: 30_000 });
  await expect(status).toBeHidden();
  await expect(page.getByRole('region', { name: 'Report' })).toHaveCount(0);
  // The worker is usable again (it was replaced and given the dataset and model back). Nothing
  // scored, the workspace shows the GT alone; the protocol sits beside the report.
  await showReport(page);
  await page.getByLabel('Protocol', { exact: true }).selectOption('mmocr-0.6.3');
  await expect(page.getByTestId('report-protocol')).toContainText('Protocol mmocr-0.6.3', { timeout: 120_000 });
  await expect(metricCell(page, 'generated-model', 'norm/hmean')).toHaveText(/^\d+\.\d\d$/);
});

test.describe('on ltb-mini with the reference predictions', () => {
  test.skip(!HAS_SHARED, '*** ../shared is absent: skipping ***');

  test.beforeEach(async ({ page }) => {
    await page.goto('/');
    await page.bringToFront();
    await page.getByTestId('dataset-folder-input').setInputFiles(LTB_MINI);
    await expect(page.getByTestId('dataset-summary')).toContainText('LTB');
    await showReport(page);
    await page.getByTestId('prediction-files-input').setInputFiles([join(LTB_REF, 'ltbmini-object.json'), join(LTB_REF, 'ltbmini-mmocr.jsonl')]);
    await expect(metricCell(page, 'ltbmini-mmocr', 'norm/hmean')).toBeVisible();
  });

  test('the three exports carry the numbers on screen', async ({ page }) => {
    const want = (JSON.parse(readFileSync(join(LTB_REF, 'expected-ltbmini-object-mmocr-1.0.1.json'), 'utf8')) as { models: Record<string, { metrics: Record<string, number> }> })
      .models['ltbmini-object'].metrics;
    const save = async (name: string) => {
      const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name, exact: true }).click()]);
      // Saved under the benchmark's name, so the next benchmark's export does not overwrite it.
      expect(dl.suggestedFilename()).toBe(`ltb-${name}`);
      return readFileSync((await dl.path())!, 'utf8');
    };
    const report = JSON.parse(await save('report.json'));
    expect(report.schema).toBe('benchlens.report/1');
    expect(report.protocol.name).toBe('mmocr-1.0.1');
    expect(Object.keys(report.models)).toEqual(['ltbmini-object', 'ltbmini-mmocr']);
    for (const [k, v] of Object.entries(want)) expect(report.models['ltbmini-object'].metrics[k], k).toBe(v);

    const lines = (await save('case_analysis.jsonl')).trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2 * 10); // 2 models × 10 images
    expect(new Set(lines.map((l) => l.schema))).toEqual(new Set(['benchlens.case/1']));
    expect(lines.filter((l) => l.model === 'ltbmini-mmocr').map((l) => l.case_id).sort()).toEqual(
      lines.filter((l) => l.model === 'ltbmini-object').map((l) => l.case_id).sort(),
    );

    const csv = (await save('report.csv')).trimEnd().split('\r\n');
    expect(csv[0]).toBe('benchmark,protocol,options,metric,ltbmini-object,ltbmini-mmocr');
    const hard = csv.find((l) => l.includes(',hard/hmean,'))!;
    expect(Number(hard.split(',').at(-2))).toBe(want['hard/hmean']);
  });

  test('a model can be renamed and removed; the report follows', async ({ page }) => {
    await page.getByRole('button', { name: 'Rename ltbmini-object' }).click();
    const input = page.getByLabel('New name for ltbmini-object');
    await input.fill('my detector');
    await input.press('Enter');
    await expect(metricCell(page, 'my detector', 'hard/hmean')).toHaveText('77.78');
    await expect(metricCell(page, 'ltbmini-object', 'hard/hmean')).toHaveCount(0);
    await page.getByRole('button', { name: 'Remove ltbmini-mmocr' }).click();
    await expect(metricCell(page, 'ltbmini-mmocr', 'hard/hmean')).toHaveCount(0);
    await expect(page.getByTestId('report-protocol')).toContainText('1 model');
    await expectMetric(page, 'my detector', 'norm/hmean', 0.7555555555555556 /* checked against the reference below */);
    const ref = JSON.parse(readFileSync(join(LTB_REF, 'expected-ltbmini-object-mmocr-1.0.1.json'), 'utf8'));
    expect(ref.models['ltbmini-object'].metrics['norm/hmean']).toBe(0.7555555555555556);
  });

  test("a split's name in the table opens the workspace on that split's cases", async ({ page }) => {
    const name = page.getByTestId('split-cases').and(page.locator('[data-facet-value="occluded"]'));
    await name.click();
    await expect(page).toHaveURL(/f\.challenge=occluded/);
    await expect(page.getByTestId('tab-workspace')).toHaveAttribute('aria-selected', 'true');
    const shown = Number(await page.getByTestId('case-count').getAttribute('data-shown'));
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(10);
  });

  test('a bar of the per-split plot filters the case list to that challenge', async ({ page }) => {
    const bar = page.locator('rect.bar.clickable[data-facet-value="occluded"]').first();
    await expect(bar).toBeVisible();
    await bar.click();
    // The filter is in the store (and, through the case list, in the URL hash), and the click
    // opened the workspace on those cases.
    await expect(page).toHaveURL(/f\.challenge=occluded/);
    await expect(page.getByTestId('tab-workspace')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('case-list')).toBeVisible();
    const shown = Number(await page.getByTestId('case-count').getAttribute('data-shown'));
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(10);
  });
});
