import { expect, test } from '@playwright/test';

test('the page opens and names itself', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Benchlens' })).toBeVisible();
});

test('opening and scoring a demo makes no request beyond the page’s own origin', async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const foreign: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (!['blob:', 'data:'].includes(u.protocol) && u.origin !== origin) foreign.push(r.url());
  });
  await page.goto('/#demo=tabench');
  // Scored: the report is in its tab (in the page, not on screen), the workspace is on screen.
  await expect(page.getByTestId('report-protocol')).toBeAttached({ timeout: 60_000 });
  // Open a case too: images, thumbnails and the viewer load through the worker, never the network.
  await page.getByTestId('case-row').first().click();
  await expect(page.locator('.case-viewer [data-testid="viewer-screen-0"]')).toBeVisible();
  await page.getByRole('button', { name: 'Grid' }).click();
  await expect(page.getByTestId('case-tile').first()).toBeVisible();
  await page.waitForTimeout(1000);
  expect(foreign).toEqual([]);
});
