/**
 * The edge of the page, in real Chromium (`npx vite build && npx playwright test e2e/edge.spec.ts`):
 * a zip bomb added as predictions is refused with a message and the tab goes on working; dataset
 * strings with bidi controls (U+202E) are isolated where they are shown.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { makeDemo } from '../src/core/benchmarks/ltb/demo';
import { zipBomb } from '../test/zipFixtures';
import { showReport, showWorkspace } from './helpers';

test.describe('a zip bomb in the page', () => {
  for (const [kind, bytes] of [
    ['honest ZIP64 sizes', () => zipBomb(4096)],
    ['lying sizes', () => zipBomb(4096, 1024)],
  ] as const) {
    test(`a 4 GiB bomb (${kind}) is refused with a message; the tab still scores what is added next`, async ({ page }) => {
      const dir = mkdtempSync(join(tmpdir(), 'benchlens-e2e-'));
      const bomb = join(dir, 'submit.zip');
      writeFileSync(bomb, bytes());
      await page.goto('/#demo=ltb');
      await expect(page.getByTestId('dataset-summary')).toContainText('LTB');
      await showReport(page); // the Models panel sits beside the report
      const models = page.getByRole('region', { name: 'Models' });
      await expect(models.locator('.model-name')).toHaveCount(2);
      await page.getByTestId('prediction-files-input').setInputFiles(bomb);
      // Refusals show in a notice above both views (ModelNotice).
      const alert = page.getByRole('alert', { name: 'Prediction files not added' });
      await expect(alert).toContainText(kind === 'lying sizes' ? 'a zip bomb, refused' : 'more than the 256 MiB an entry may hold');
      await expect(alert).toContainText('submit.zip');
      // No model was added, and the page answers: it still evaluates, and the demo's scores are there.
      await expect(models.locator('.model-name')).toHaveCount(2);
      expect(await page.evaluate(() => 6 * 7)).toBe(42);
      await expect(page.locator('section[aria-label="Report"] .report-body td.num:not([data-empty])').first()).toHaveText(/^\d+(\.\d+)?$/);
      // The worker survived too: a good file added afterwards is scored.
      const demo = await makeDemo();
      const good = join(dir, 'again.json');
      writeFileSync(good, await demo.predictions[0].source.read(demo.predictions[0].path));
      await page.getByTestId('prediction-files-input').setInputFiles(good);
      await expect(models.locator('.model-name')).toHaveCount(3);
      await expect(alert).toHaveCount(0);
    });
  }
});

test.describe('bidi controls in dataset strings', () => {
  test('a case id, a model name and a folder name holding U+202E are isolated; a warning shows the control as a code point', async ({ page }) => {
    const RLO = '\u202e';
    const dir = mkdtempSync(join(tmpdir(), 'benchlens-e2e-'));
    const root = join(dir, `chron${RLO}icles`);
    mkdirSync(join(root, 'data'), { recursive: true });
    const rows = [
      { image_path: `images/楷书/evil${RLO}gnp.exe.png`, font_type: '楷书', annotation: '九成宫' },
      { image_path: 'images/楷书/plain.png', font_type: '楷书', annotation: '醴泉' },
    ];
    writeFileSync(join(root, 'data', 'Chronicles_OCR.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const preds = join(dir, `model${RLO}a.jsonl`);
    const ans = (r: (typeof rows)[number]) => ({ image_path: r.image_path, infer_results: { 字体分类: { answer: '楷书', extract: { category: '楷书' } } } });
    // A malformed last line gives the model a warning list, whose heading starts with its name.
    writeFileSync(preds, rows.map((r) => JSON.stringify(ans(r))).join('\n') + '\n{broken\n');

    await page.goto('/');
    await page.bringToFront();
    await page.getByTestId('dataset-folder-input').setInputFiles(root);
    await expect(page.getByTestId('dataset-summary')).toContainText('Chronicles');
    await showReport(page); // the Models and Warnings panels sit beside the report
    await page.getByTestId('prediction-files-input').setInputFiles(preds);
    const model = page.getByRole('region', { name: 'Models' }).locator('.model-name');
    await expect(model).toHaveText(`model${RLO}a`);

    const bidi = (loc: ReturnType<typeof page.locator>) => loc.evaluate((el) => getComputedStyle(el).unicodeBidi);
    expect(await bidi(model)).toBe('isolate');
    expect(await bidi(page.getByTestId('dataset-label'))).toBe('isolate');
    await showWorkspace(page); // the case list
    // (the shown name may be shortened in the middle; the row's data-case-id is the whole id)
    const id = page.locator('[data-testid="case-row"][data-case-id*="evil"] .cb-id').first();
    await expect(id).toBeVisible();
    expect(await id.evaluate((el) => el.tagName)).toBe('BDI');
    expect(await bidi(id)).toBe('isolate');
    await showReport(page); // the Warnings panel
    // Isolation keeps the page's own text in order after the name: in the model's warnings
    // heading "<name>: 1 warning", the ':' sits right after the name. Without isolation the
    // override runs on past the name and moves the ":" away from it (checked below by
    // switching isolation off).
    const heading = page.getByRole('region', { name: 'Warnings' }).locator('summary', { hasText: 'warning' }).filter({ has: page.locator('bdi') }).last();
    const colonGap = () =>
      heading.evaluate((el) => {
        const name = el.querySelector('bdi')!;
        const range = document.createRange();
        range.setStart(name.nextSibling!, 0);
        range.setEnd(name.nextSibling!, 1);
        return range.getBoundingClientRect().left - name.getBoundingClientRect().right;
      });
    await expect(heading).toContainText(': 1 warning');
    expect(Math.abs(await colonGap())).toBeLessThan(3);
    await page.addStyleTag({ content: 'bdi { unicode-bidi: normal !important; }' });
    expect(Math.abs(await colonGap())).toBeGreaterThan(6);
    await page.addStyleTag({ content: 'bdi { unicode-bidi: isolate !important; }' });
    // The missing image's warning names it with the control made visible.
    await expect(page.getByRole('region', { name: 'Warnings' })).toContainText('evil⟨U+202E⟩gnp.exe.png');
  });
});
