/**
 * Makes docs/screenshot.png (the README's picture): the built-in demo, scored, with a case open
 * in the viewer. Run `npx vite build && npx playwright test e2e/screenshot.spec.ts` and commit it.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { REPO_ROOT } from '../test/shared';

const PREFERRED = ['ltb', 'tabench', 'chronicles', 'gansulishuzhi', 'pulsebench-select'];
const demo = PREFERRED.find((id) => existsSync(resolve(REPO_ROOT, 'src/core/benchmarks', id, 'demo.ts')));
if (demo !== 'ltb') console.warn(`\n*** e2e/screenshot.spec.ts: no LTB demo yet — the screenshot shows the ${demo ?? 'no'} demo ***\n`);

test.use({ viewport: { width: 1600, height: 1000 } });

test('docs/screenshot.png: the demo, scored, with a case open', async ({ page }) => {
  test.skip(!demo, '*** no demo in this tree ***');
  await page.goto(`/#demo=${demo}`);
  await expect(page.locator('section[aria-label="Report"] td.num').first()).toHaveText(/\d/);
  // Open a case that is neither a clean pass nor empty, so the picture shows matches and misses.
  const rows = page.getByTestId('case-row');
  await expect(rows.first()).toBeVisible();
  const n = await rows.count();
  let pick = rows.first();
  for (let i = 0; i < n; i++) {
    if (/partial/i.test((await rows.nth(i).textContent()) ?? '')) {
      pick = rows.nth(i);
      break;
    }
  }
  await pick.click();
  await expect(page.getByTestId('case-viewer')).toBeVisible();
  await expect(page.locator('[data-testid="case-viewer"] [data-testid="viewer-screen-0"]')).toBeVisible();
  await page.waitForTimeout(800); // let the image decode and the canvas settle
  await page.screenshot({ path: resolve(REPO_ROOT, 'docs/screenshot.png'), fullPage: true });
});
