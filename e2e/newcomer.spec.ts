/**
 * A newcomer's first hour (issue #42, items 2–7, 9, 10, 14), in real Chromium at 1366×768 on the
 * served build (`npm run -s build && npx playwright test e2e/newcomer.spec.ts`): what a user who
 * opens the demos and the shared mini datasets meets, checked where it used to go wrong.
 * Screenshots to look at by eye: BENCHLENS_SHOTS=<dir> npx playwright test e2e/newcomer.spec.ts
 */
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { HAS_SHARED, shared } from '../test/shared';
import { dropPaths, openCase, showReport, showWorkspace } from './helpers';

test.use({ viewport: { width: 1366, height: 768 } });

const LTB_MINI = shared('data/ltb-mini');
const CHRONICLES_MINI = shared('data/chronicles-mini');
const LTB_OBJECT = shared('reference/ltb/ltbmini-object.json');
const TABENCH_RUN = shared('reference/tabench/qwen3vl-2b-sim.jsonl');
const GANSU_RUN = shared('reference/gansulishuzhi/glm4v-sim.jsonl');

const snap = async (page: Page, name: string) => {
  if (process.env.BENCHLENS_SHOTS) await page.screenshot({ path: join(process.env.BENCHLENS_SHOTS, `newcomer-${name}.png`) });
};

function emptyFile(): string {
  const f = join(mkdtempSync(join(tmpdir(), 'benchlens-newcomer-')), 'empty.jsonl');
  writeFileSync(f, '');
  return f;
}

async function openFolder(page: Page, dir: string, summary: string): Promise<void> {
  await page.getByTestId('dataset-folder-input').setInputFiles(dir);
  await expect(page.getByTestId('dataset-summary')).toContainText(summary, { timeout: 60_000 });
}

const notice = (page: Page) => page.getByRole('alert', { name: 'Prediction files not added' });

test.describe('a newcomer with the shared mini datasets', () => {
  test.skip(!HAS_SHARED, '*** ../shared is absent: skipping the newcomer browser test ***');

  test('item 3, 7, 14: every file of a selection is handled; each refusal shows above the workspace, verdict first, until dismissed', async ({ page }) => {
    await page.goto('/');
    await openFolder(page, LTB_MINI, 'LTB — 15 splits');
    // A good file chosen with an empty one: the good one is added, the empty one named.
    await page.getByTestId('prediction-files-input').setInputFiles([LTB_OBJECT, emptyFile()]);
    await expect(page.getByTestId('tab-workspace')).toHaveAttribute('aria-selected', 'true', { timeout: 60_000 });
    await expect(page.getByRole('checkbox', { name: /ltbmini-object/ })).toBeVisible();
    await expect(notice(page).getByRole('heading')).toHaveText('1 prediction file not added');
    await expect(notice(page).locator('li[data-file]')).toHaveText(['empty.jsonl: no prediction lines']);
    await expect(notice(page)).toContainText('Added from the same selection: ltbmini-object');
    await snap(page, 'good-and-empty');

    // Two files of other benchmarks, the workspace on screen: both named, each verdict first.
    await page.getByTestId('prediction-files-input').setInputFiles([TABENCH_RUN, GANSU_RUN]);
    await expect(notice(page).getByRole('heading')).toHaveText('2 prediction files not added');
    await expect(notice(page).locator('li[data-file] .verdict')).toHaveText([
      'Not LTB predictions: qwen3vl-2b-sim.jsonl is a TABench predictions file',
      'Not LTB predictions: glm4v-sim.jsonl is a gansulishuzhi run (figure boxes per page)',
    ]);
    // The reader's detail follows the verdict, on its own line.
    await expect(notice(page).locator('li[data-file="qwen3vl-2b-sim.jsonl"] .verdict-detail')).toHaveText(/^nothing to score — no record names an image of the dataset \(41 malformed/);
    await expect(notice(page)).toBeInViewport();
    await expect(page.getByTestId('tab-workspace')).toHaveAttribute('aria-selected', 'true');
    await snap(page, 'two-wrong-in-workspace');
    // The report's Models panel points to it; nothing was added or lost.
    await showReport(page);
    const models = page.getByRole('region', { name: 'Models' });
    await expect(models.getByRole('heading')).toHaveText('Models (1)');
    await expect(notice(page)).toBeVisible();
    await notice(page).getByRole('button', { name: 'Dismiss' }).click();
    await expect(notice(page)).toHaveCount(0);

    // A failed model change is said in the same place, seen from the workspace too.
    await page.getByTestId('prediction-files-input').setInputFiles(shared('reference/ltb/ltbmini-mmocr.jsonl'));
    await expect(models.getByRole('heading')).toHaveText('Models (2)', { timeout: 60_000 });
    await models.getByRole('button', { name: 'Rename ltbmini-mmocr' }).click();
    await models.getByRole('textbox', { name: 'New name for ltbmini-mmocr' }).fill('ltbmini-object');
    await models.getByRole('textbox', { name: 'New name for ltbmini-mmocr' }).press('Enter');
    const failed = page.getByRole('alert', { name: 'Models not changed' });
    await expect(failed.getByRole('heading')).toHaveText('The models were not changed');
    await expect(failed).toContainText('a model named "ltbmini-object" exists already');
    await showWorkspace(page);
    await expect(failed).toBeInViewport();
  });

  test('item 3: a drop of a folder and files is one selection: every file\'s outcome is listed', async ({ page }) => {
    await page.goto('/');
    await openFolder(page, LTB_MINI, 'LTB — 15 splits');
    // A prediction folder (ICDAR res_img_*.txt) and two files that are refused, dropped together.
    await dropPaths(page, [shared('reference/ltb/ltbmini-icdar'), emptyFile(), TABENCH_RUN]);
    await expect(notice(page).locator('li[data-file]')).toHaveCount(2, { timeout: 60_000 });
    await expect(notice(page).locator('li[data-file] .verdict')).toHaveText([
      'empty.jsonl: no prediction lines',
      'Not LTB predictions: qwen3vl-2b-sim.jsonl is a TABench predictions file',
    ]);
    await expect(notice(page)).toContainText('Added from the same selection: ltbmini-icdar');
    await expect(page.getByRole('checkbox', { name: /ltbmini-icdar/ })).toBeVisible();
  });

  test('item 14: a folder that is no benchmark says so in a heading, then lists the five layouts one per line', async ({ page }) => {
    const folder = join(mkdtempSync(join(tmpdir(), 'benchlens-newcomer-')), 'holiday-photos');
    cpSync(join(LTB_MINI, 'anno/hard/images'), folder, { recursive: true });
    await page.goto('/');
    await page.getByTestId('dataset-folder-input').setInputFiles(folder);
    const alert = page.locator('.open-error');
    await expect(alert.locator('.verdict')).toHaveText(/^no recognisable benchmark in "holiday-photos" \(\d+ files\)$/);
    await expect(alert.locator('ul.expected-layouts > li > b')).toHaveText(['LTB', 'Chronicles-OCR', 'TABench', 'gansulishuzhi', 'PulseBench-Select']);
    await snap(page, 'not-a-benchmark');

    // The same folder opened while another is open: said under the top bar, the open one kept.
    await openFolder(page, LTB_MINI, 'LTB — 15 splits');
    await page.getByTestId('dataset-folder-input').setInputFiles(folder);
    const notOpened = page.getByRole('alert', { name: 'Folder not opened' });
    await expect(notOpened.getByRole('heading')).toHaveText('The folder was not opened — ltb-mini is still open');
    await expect(notOpened.locator('ul.expected-layouts > li')).toHaveCount(5);
    await expect(page.getByTestId('dataset-summary')).toBeInViewport();
    await expect(page.getByTestId('dataset-label')).toHaveText('ltb-mini');
    await snap(page, 'not-a-benchmark-while-open');
    await notOpened.getByRole('button', { name: 'Dismiss' }).click();
    await expect(notOpened).toHaveCount(0);
  });

  test('item 2: Close leaves no trace of the closed view: no link banner on the next folder, no offer to reopen it after a reload', async ({ page }) => {
    await page.goto('/');
    await openFolder(page, LTB_MINI, 'LTB — 15 splits');
    await page.getByTestId('prediction-files-input').setInputFiles(LTB_OBJECT);
    await expect.poll(() => page.evaluate(() => location.hash), { timeout: 60_000 }).toContain('pf=ltbmini-object');
    // The URL is a link to this view: reloaded, the page says what it needs.
    await page.reload();
    await expect(page.getByTestId('link-needs')).toContainText('ltb-mini');
    await openFolder(page, LTB_MINI, 'LTB — 15 splits');
    await page.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByTestId('link-needs')).toHaveCount(0);
    expect(await page.evaluate(() => location.hash)).toBe('');
    await openFolder(page, CHRONICLES_MINI, 'Chronicles-OCR');
    await expect(page.getByTestId('tab-workspace')).toHaveAttribute('aria-selected', 'true', { timeout: 60_000 });
    await expect(page.getByTestId('link-needs')).toHaveCount(0);
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('ds=chronicles-mini');
    expect(await page.evaluate(() => location.hash)).not.toContain('ltbmini-object');
    await page.getByRole('button', { name: 'Close' }).click();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Your benchmark folder' })).toBeVisible();
    await expect(page.getByTestId('link-needs')).toHaveCount(0);
  });

  test('item 6: a Chronicles spotting case keeps room for the GT and prediction lists, and an error class is not cut', async ({ page }) => {
    await page.goto('/');
    await openFolder(page, CHRONICLES_MINI, 'Chronicles-OCR');
    await expect(page.getByTestId('tab-workspace')).toHaveAttribute('aria-selected', 'true', { timeout: 60_000 });
    await openCase(page, 'images/金文/br_001.png#spotting');
    const panel = (await page.getByTestId('details-panel').boundingBox())!;
    const list = (await page.getByTestId('instance-panel').boundingBox())!;
    const text = (await page.getByTestId('text-diff').boundingBox())!;
    expect(text.height).toBeLessThanOrEqual(panel.height / 3 + 1);
    expect(list.height).toBeGreaterThanOrEqual(150);
    const errors = page.locator('[data-testid="instance-panel"] [data-testid="row-error"]');
    await expect(errors.first()).toBeVisible();
    // Each error class fits its two lines (nothing clamped away).
    for (const fits of await errors.evaluateAll((els) => els.map((e) => e.scrollHeight <= e.clientHeight + 1))) expect(fits).toBe(true);
    await snap(page, 'chronicles-spotting');
  });
});

test.describe('a newcomer with the demos', () => {
  test('item 4: a Chronicles recognition case that passes shows GT = prediction and distance 0', async ({ page }) => {
    await page.goto('/#demo=chronicles');
    await expect(page.getByTestId('tab-workspace')).toHaveAttribute('aria-selected', 'true', { timeout: 60_000 });
    const ids = await page.locator('[data-testid="case-row"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-case-id')!));
    const rec = ids.find((id) => id.endsWith('#recognition'))!;
    await openCase(page, rec);
    // model-a passes the first recognition case of the demo.
    await expect(page.locator(`[data-testid="case-row"][data-case-id="${rec}"]`)).toContainText('pass');
    await expect(page.getByTestId('diff-metrics')).toContainText('edit distance 0 · CER 0 · NED 0');
    const gt = (await page.getByTestId('diff-gt').innerText()).replace(/^GT\s*/, '');
    const pred = (await page.getByTestId('diff-pred').innerText()).replace(/^pred\s*/, '');
    expect(gt).not.toBe('');
    expect(gt).toBe(pred);
    await snap(page, 'chronicles-recognition');
  });

  test('item 5: LTB\'s empty split is "no data" in the chart and said once in the table', async ({ page }) => {
    await page.goto('/#demo=ltb');
    await expect(page.getByTestId('tab-workspace')).toHaveAttribute('aria-selected', 'true', { timeout: 60_000 });
    await showReport(page);
    const empty = page.locator('section[aria-label="Report"] .report-body td[data-empty="true"]');
    await expect(empty).toHaveCount(1);
    await expect(empty).toHaveText('no data (gt 0, pred 0)');
    await expect(empty).toHaveAttribute('colspan', '8');
    const split = (await empty.getAttribute('data-key'))!.split('/')[0];
    // The row's name without the "n < 30" mark the intervals add beside small groups.
    const th = page.locator('section[aria-label="Report"] .report-body tr', { has: page.locator('td[data-empty="true"]') }).locator('th');
    const label = (
      await th.evaluate((el) => {
        const copy = el.cloneNode(true) as HTMLElement;
        copy.querySelectorAll('[data-testid="small-n"]').forEach((n) => n.remove());
        return copy.textContent ?? '';
      })
    ).trim();
    const chart = page.locator('figure.plot', { hasText: 'hmean per split' });
    // No bar for that split: a grey "no data" mark per model, and its label.
    await expect(chart.locator(`rect[aria-label$="· ${label}: no data (gt 0, pred 0)"]`)).toHaveCount(2);
    await expect(chart.locator(`rect.bar:not([data-no-data])[aria-label*="· ${label}:"]`)).toHaveCount(0);
    await expect(chart.locator('text.no-data')).toHaveText(['no data']);
    expect(split).not.toBe('');
    await chart.scrollIntoViewIfNeeded();
    await snap(page, 'ltb-split-chart');
  });

  test('item 9, 10: editing GT keeps the details panel, a new box\'s text field is labelled; the note boxes say whose they are', async ({ page }) => {
    await page.goto('/#demo=ltb');
    await expect(page.getByTestId('tab-workspace')).toHaveAttribute('aria-selected', 'true', { timeout: 60_000 });
    await showWorkspace(page);
    await openCase(page, 'img_1.png');
    await expect(page.getByTestId('case-note-caption')).toHaveText('Note on demo-dbnet’s answer (this model only)');
    await expect(page.getByTestId('gt-note-caption')).toHaveText('Note on the GT (every model)');
    await page.getByTestId('toggle-edit-gt').click();
    await expect(page.getByTestId('toggle-panel')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('details-panel')).toBeVisible();
    await expect(page.getByTestId('instance-panel')).toBeVisible();
    // Every GT outline of the editor has its dark halo (the white strokes alone vanished on light images).
    const halos = () =>
      page.evaluate(() => {
        type Node = { getChildren(): unknown[] };
        const stages = (window as unknown as { Konva: { stages: { findOne(sel: string): Node | undefined }[] } }).Konva.stages;
        const halo = stages.map((st) => st.findOne('.gt-halo')).find(Boolean);
        return halo ? halo.getChildren().length : -1;
      });
    await expect.poll(halos).toBeGreaterThan(0);
    // Draw a box on the image: it is selected at once, its text field labelled.
    await page.getByRole('button', { name: 'Add box' }).click();
    const frame = (await page.getByTestId('gt-edit-frame').boundingBox())!;
    const x = frame.x + frame.width * 0.3;
    const y = frame.y + frame.height * 0.45;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 80, y + 40, { steps: 5 });
    await page.mouse.up();
    await expect(page.getByTestId('gt-editor-selected')).toHaveText(/added GT/);
    const field = page.getByRole('textbox', { name: 'GT text' });
    await expect(field).toBeVisible();
    await expect(page.locator('label.gt-text-field')).toContainText('text');
    await field.fill('NEW');
    await field.press('Enter');
    await expect(page.getByTestId('gt-edit-status')).toHaveAttribute('data-corrections', '1');
    await snap(page, 'edit-gt');
  });
});
