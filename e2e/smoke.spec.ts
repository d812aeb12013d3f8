import { expect, test } from '@playwright/test';

test('the page opens and names itself', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Benchlens' })).toBeVisible();
});
