/**
 * Uncertainty in the page (issue 41), in real Chromium against the real computation:
 * - the LTB demo: intervals arrive after the report, a hovered cell shows the exported block's
 *   interval, plots have whiskers, report.json's uncertainty block is the CLI's byte for byte;
 * - a long computation stays off the main thread (no script task over 50 ms while it runs) and
 *   a new score stops it;
 * - "Where do A and B differ": a TABench slice, Chronicles groups and an LTB split each open
 *   exactly their cases, with that pair as A and B (the expected ids derived in Node from the
 *   case lines' facets, and from the split file of the dataset).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ltbDemoOnDisk, runCli } from '../test/cliRun';
import { demoLines } from './demoLines';
import { showReport } from './helpers';

interface Block {
  groups: { id: string; units: number }[];
  intervals: Record<string, Record<string, [number, number]>>;
  pairs: { a: string; b: string; group: string; key: string; p_holm: number }[];
}

/**
 * Records the page's long animation frames (buffered from page start) with the script time in
 * each, in window.__frames. Script time, not the frame's length: on this shared 2-core machine
 * (load ~17) frames of 100–300 ms with no script at all show up at any moment — the renderer
 * descheduled, or collecting garbage — also while nothing of ours runs.
 */
async function watchFrames(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __frames: { start: number; duration: number; script: number }[] };
    w.__frames = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { scripts: { duration: number }[] })[]) {
        w.__frames.push({ start: e.startTime, duration: e.duration, script: Math.max(0, ...e.scripts.map((x) => x.duration)) });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  });
}

async function intervalsDone(page: Page): Promise<void> {
  await expect(page.getByTestId('intervals-status')).toHaveAttribute('data-state', 'done', { timeout: 90_000 });
}

async function exportedReport(page: Page): Promise<string> {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'report.json', exact: true }).click()]);
  return readFileSync((await dl.path())!, 'utf8');
}

/** The list holds exactly `expected`: its count, and every row it renders (it is virtualised). */
async function expectListed(page: Page, expected: string[]): Promise<void> {
  await expect(page.getByTestId('case-count')).toHaveAttribute('data-shown', String(expected.length));
  const ids = await page.getByTestId('case-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-case-id')!));
  expect(ids.length).toBeGreaterThan(0);
  for (const id of ids) expect(expected).toContain(id);
  if (expected.length <= 20) expect([...new Set(ids)].sort()).toEqual([...expected].sort());
}

const pct = (v: number) => (v * 100).toFixed(2);

test('LTB demo: intervals follow the report, show on hover and as whiskers, and report.json carries the CLI’s block byte for byte', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto('/#demo=ltb');
  await showReport(page);
  await intervalsDone(page);
  const text = await exportedReport(page);
  const block = JSON.parse(text).uncertainty as Block;
  expect(Object.keys(block.intervals)).toEqual(['demo-dbnet', 'demo-psenet']);

  // Hover: the popover holds this cell's interval from the exported block.
  const ci = block.intervals['demo-dbnet']['hard/hmean'];
  const cell = page.locator('section[aria-label="Report"] .report-body td[data-model="demo-dbnet"][data-key="hard/hmean"]').first();
  await cell.hover();
  await expect(page.getByTestId('ci-popover')).toContainText(`95 % interval ${pct(ci[0])} – ${pct(ci[1])}`);
  // A count (the threshold) has no interval: no popover, nothing made up.
  await page.locator('section[aria-label="Report"] .report-body td[data-model="demo-dbnet"][data-key="hard/threshold"]').first().hover();
  await expect(page.getByTestId('ci-popover')).toHaveCount(0);
  // Whiskers over the bars: one per bar with an interval, most of them with a length.
  const spans = await page.getByTestId('whisker').evaluateAll((els) => els.map((g) => g.getBoundingClientRect().height));
  expect(spans.length).toBeGreaterThan(10);
  expect(spans.filter((h) => h > 5).length).toBeGreaterThan(5);
  // Eight images: every split is flagged.
  await expect(page.getByTestId('small-n').first()).toHaveText('n < 30');

  const disk = await ltbDemoOnDisk();
  const out = mkdtempSync(join(tmpdir(), 'bl-unc-e2e-'));
  const cli = runCli(['score', '--dataset', disk.ds, '--pred', join(disk.preds, 'demo-dbnet.json'), '--pred', join(disk.preds, 'demo-psenet.jsonl'), '--out', out]);
  expect(cli.code, cli.stderr).toBe(0);
  const cliText = readFileSync(join(out, 'report.json'), 'utf8');
  const tail = (t: string) => t.slice(t.indexOf('  "uncertainty": {'));
  expect(tail(text).length).toBeGreaterThan(100);
  expect(tail(text)).toBe(tail(cliText));
  expect(text).toBe(cliText);
});

test('a long computation leaves the main thread free (no script over 50 ms); Stop and a new score stop it', async ({ page }) => {
  await watchFrames(page);
  await page.goto('/#demo=ltb');
  // The observer would be silent, not failing, in a browser without these entries.
  expect(await page.evaluate(() => PerformanceObserver.supportedEntryTypes.includes('long-animation-frame'))).toBe(true);
  await showReport(page);
  await intervalsDone(page);
  // Many replicates: seconds of work in the worker.
  const replicates = page.getByLabel('ci_replicates', { exact: true });
  await replicates.fill('200000');
  await replicates.press('Enter');
  const status = page.getByTestId('intervals-status');
  await expect(status).toHaveAttribute('data-state', 'computing', { timeout: 60_000 });
  await expect(status).toContainText(/Intervals: computing [1-9]\d* %/, { timeout: 60_000 });
  // From here the page only receives progress (the report and the case list are installed): the
  // worker computes. (The tasks that install a new report are the score's, measured elsewhere.)
  const from = await page.evaluate(() => performance.now());
  await page.waitForTimeout(3000);
  await expect(status).toHaveAttribute('data-state', 'computing');
  const frames = await page.evaluate((t) => (window as unknown as { __frames: { start: number; duration: number; script: number }[] }).__frames.filter((x) => x.start >= t), from);
  expect(frames.filter((x) => x.script > 50)).toEqual([]);

  // Stop: the report stays, the intervals say they were stopped and can be computed again.
  await status.getByRole('button', { name: 'Stop' }).click();
  await expect(status).toHaveAttribute('data-state', 'stopped', { timeout: 30_000 });
  await expect(status.getByRole('button', { name: 'Compute them' })).toBeVisible();
  await status.getByRole('button', { name: 'Compute them' }).click();
  await expect(status).toHaveAttribute('data-state', 'computing');
  // report.json holds the intervals: its export says it waits for them.
  await page.getByRole('button', { name: 'report.json', exact: true }).click();
  await expect(page.getByText('report.json waits for the intervals…')).toBeVisible();

  // A new score (intervals switched off) stops the long computation at once.
  await page.getByLabel('ci', { exact: true }).selectOption('off');
  await expect(status).toHaveAttribute('data-state', 'off', { timeout: 30_000 });
  await expect(page.getByText('report.json waits for the intervals…')).toHaveCount(0);
  await expect(page.getByRole('group', { name: 'Export' }).getByRole('alert')).toContainText('export stopped');
  await expect(page.getByTestId('comparison')).toHaveCount(0);
});

test('TABench demo: a slice of "Where do A and B differ" lists exactly its cases, with that pair as A and B', async ({ page }) => {
  const { lines, models } = await demoLines('tabench', (await import('../src/core/benchmarks/tabench/demo')).makeDemo);
  const [a, b] = models;

  await page.setViewportSize({ width: 1600, height: 1200 });
  await page.goto('/#demo=tabench');
  await showReport(page);
  await intervalsDone(page);
  const panel = page.getByTestId('where-differ');
  await expect(panel).toBeVisible();
  // Compare B with A (the reverse of model order): the list must follow the pair chosen here.
  const comparison = page.getByTestId('comparison');
  await comparison.getByLabel('Compare (A)', { exact: true }).selectOption(b);
  await expect(comparison.getByLabel('with (B)', { exact: true })).toHaveValue(a);
  const groups = await panel.getByTestId('differ-cases').evaluateAll((els) => els.map((e) => e.getAttribute('data-group')!));
  expect(groups).toContain('all');
  const slice = groups.find((g) => g.startsWith('source/')) ?? groups.find((g) => g !== 'all')!;
  const [kind, value] = [slice.slice(0, slice.indexOf('/')), slice.slice(slice.indexOf('/') + 1)];
  const facet = { category: 'category', source: 'source_dataset', level: 'annotation_level' }[kind]!;
  const expected = [...new Set(lines.filter((l) => l.model === b && String(l.facets[facet]) === value).map((l) => l.case_id))].sort();
  const all = [...new Set(lines.filter((l) => l.model === b).map((l) => l.case_id))];
  expect(expected.length).toBeGreaterThan(0);
  expect(expected.length).toBeLessThan(all.length);

  await panel.locator(`[data-testid="differ-cases"][data-group="${slice}"]`).click();
  await expect(page.getByTestId('tab-workspace')).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(new RegExp(`a=${encodeURIComponent(b)}`));
  await expect(page).toHaveURL(new RegExp(`b=${encodeURIComponent(a)}`));
  await expectListed(page, expected);

  // The whole dataset: every case.
  await showReport(page);
  await panel.locator('[data-testid="differ-cases"][data-group="all"]').click();
  await expectListed(page, all.sort());
});

test('LTB folder whose Blurred file lists 3 of 8 images: that split opens exactly those 3, and report.json is the CLI\'s', async ({ page }) => {
  // The demo on disk, its challenging_blurry.json cut to three images: the group has 3 units,
  // and in the case list (case_split=blurred) the other five are "skipped" for every model.
  const disk = await ltbDemoOnDisk();
  const file = join(disk.ds, 'anno/mmocr1.x_format/challenging_blurry.json');
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { data_list: { img_path: string }[] };
  doc.data_list = doc.data_list.slice(0, 3);
  writeFileSync(file, JSON.stringify(doc));
  const expected = doc.data_list.map((d) => d.img_path.split('/').at(-1)!).sort();
  const preds = [join(disk.preds, 'demo-dbnet.json'), join(disk.preds, 'demo-psenet.jsonl')];

  await page.setViewportSize({ width: 1600, height: 1200 });
  await page.goto('/');
  await page.getByTestId('dataset-folder-input').setInputFiles(disk.ds);
  await expect(page.getByTestId('dataset-summary')).toContainText('LTB');
  await showReport(page);
  await page.getByTestId('prediction-files-input').setInputFiles(preds);
  await intervalsDone(page);
  await expect(page.locator('[data-testid="where-differ"] tr[data-group="blurred"] td').first()).toContainText('3');

  const out = mkdtempSync(join(tmpdir(), 'bl-unc-e2e-'));
  const cli = runCli(['score', '--dataset', disk.ds, ...preds.flatMap((p) => ['--pred', p]), '--out', out]);
  expect(cli.code, cli.stderr).toBe(0);
  const page1 = JSON.parse(await exportedReport(page)) as { uncertainty: Block };
  expect(JSON.stringify(page1.uncertainty)).toBe(JSON.stringify((JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { uncertainty: Block }).uncertainty));
  expect(page1.uncertainty.groups.find((g) => g.id === 'blurred')?.units).toBe(3);

  await page.getByTestId('where-differ').locator('[data-testid="differ-cases"][data-group="blurred"]').click();
  await expect(page.getByTestId('tab-workspace')).toHaveAttribute('aria-selected', 'true', { timeout: 60_000 });
  await expectListed(page, expected);
  await showReport(page);
  await expect(page.getByTestId('report-protocol')).toContainText('case_split=blurred');
  // Only the shown cases changed: the block is reused, not recomputed.
  await intervalsDone(page);
});

test('Chronicles demo: a script group and the ancient scripts of "Where do A and B differ" list exactly their cases', async ({ page }) => {
  const { lines, models } = await demoLines('chronicles', (await import('../src/core/benchmarks/chronicles/demo')).makeDemo);
  const a = models[0];
  const casesWhere = (key: string, value: string) => [...new Set(lines.filter((l) => l.model === a && l.facets[key] === value).map((l) => l.case_id))].sort();

  await page.setViewportSize({ width: 1600, height: 1200 });
  await page.goto('/#demo=chronicles');
  await showReport(page);
  await intervalsDone(page);
  const panel = page.getByTestId('where-differ');
  // The per-script tasks are metrics of their own: the list compares one at a time.
  await expect(panel.getByLabel('Compared metric')).toHaveValue('average');
  for (const [group, key] of [
    ['ancient', 'group'],
    ['seal', 'script'],
  ] as const) {
    const expected = casesWhere(key, group);
    expect(expected.length).toBeGreaterThan(0);
    await panel.locator(`[data-testid="differ-cases"][data-group="${group}"]`).click();
    await expect(page.getByTestId('tab-workspace')).toHaveAttribute('aria-selected', 'true');
    await expectListed(page, expected);
    await showReport(page);
  }
});
