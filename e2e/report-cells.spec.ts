/**
 * A number in a report table opens the workspace on its own cases (issue 13): on the Chronicles
 * demo a per-script × task cell lists exactly the cases of that script and task, with that
 * model as A; every case of each listed id exists in Node's case lines with those facets.
 */
import { expect, test, type Page } from '@playwright/test';
import { demoLines } from './demoLines';
import { showReport } from './helpers';

/** The list holds exactly `expected`: its count, and every row it renders (it is virtualised). */
async function expectListed(page: Page, expected: string[]): Promise<void> {
  await expect(page.getByTestId('case-count')).toHaveAttribute('data-shown', String(expected.length));
  const ids = await page.getByTestId('case-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-case-id')!));
  expect(ids.length).toBeGreaterThan(0);
  for (const id of ids) expect(expected).toContain(id);
}

/** Opens the demo's report and clicks `model`'s cell of metric `key`: the workspace opens. */
async function clickCell(page: Page, demo: string, model: string, key: string): Promise<void> {
  await page.setViewportSize({ width: 1600, height: 1200 });
  await page.goto(`/#demo=${demo}`);
  await showReport(page);
  const cell = page.locator(`table.cells-link td[data-model="${model}"][data-key="${key}"]`);
  await expect(cell).toBeVisible({ timeout: 60_000 });
  await cell.click();
  await expect(page.getByTestId('tab-workspace')).toHaveAttribute('aria-selected', 'true');
}

test('a per-script × task cell of the Chronicles demo lists exactly its cases in the workspace, its model as A', async ({ page }) => {
  const { lines, models } = await demoLines('chronicles', (await import('../src/core/benchmarks/chronicles/demo')).makeDemo);
  const model = models[models.length - 1];
  const expected = [...new Set(lines.filter((l) => l.model === model && l.facets.script === 'oracle_bone' && l.facets.task === 'recognition').map((l) => l.case_id))].sort();
  expect(expected.length).toBeGreaterThan(0);

  await clickCell(page, 'chronicles', model, 'oracle_bone/recognition');
  await expect(page).toHaveURL(new RegExp(`a=${encodeURIComponent(model)}`));
  await expectListed(page, expected);
});

test('a per-category T2R cell of the TABench demo lists exactly that category’s T2R queries, its model as A', async ({ page }) => {
  const { lines, models } = await demoLines('tabench', (await import('../src/core/benchmarks/tabench/demo')).makeDemo);
  const model = models[0];
  const category = String(lines.find((l) => l.model === model && l.facets.task === 'T2R')!.facets.category);
  const expected = lines.filter((l) => l.model === model && l.facets.category === category && l.facets.task === 'T2R').map((l) => l.case_id).sort();
  expect(expected.length).toBeGreaterThan(0);

  await clickCell(page, 'tabench', model, `category/${category}/t2r/f1`);
  await expectListed(page, expected);
});
