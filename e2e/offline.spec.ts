/**
 * Zero install, served: after one visit the service worker (vite-plugin-pwa, precaching the
 * built app) lets the page open and score with the network off.
 */
import { expect, test } from '@playwright/test';
import { expectMetric } from './helpers';
import { KEY, ltbDemoNumbers } from './demoNumbers';

test('after one visit the app reloads and scores the LTB demo with the network off', async ({ page, context }) => {
  const node = await ltbDemoNumbers();
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Benchlens' })).toBeVisible();
  // Installed and in control: every precached file is in the cache once the worker is active.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((r) => navigator.serviceWorker.addEventListener('controllerchange', () => r(), { once: true }));
    }
  });

  await context.setOffline(true);
  // The network really is gone: a URL the worker has not precached fails.
  const probe = await page.evaluate(() => fetch(`./index.html?probe=${Math.random()}`).then(() => 'answered', () => 'failed'));
  expect(probe).toBe('failed');

  await page.goto('/#demo=ltb');
  await page.reload();
  await expect(page.getByTestId('report-protocol')).toContainText('Protocol', { timeout: 60_000 });
  for (const m of node.models) await expectMetric(page, m, KEY, node.metric[m]);
  // A case opens on the image too (images come from the worker, not the network).
  await page.getByTestId('case-row').first().click();
  await expect(page.locator('.case-viewer [data-testid="viewer-screen-0"]')).toBeVisible();
  await context.setOffline(false);
});
