/**
 * The error taxonomy on the page (shared/specs/errors.md), on the LTB demo (`/#demo=ltb`, made by
 * src/core/benchmarks/ltb/demo.ts, whose model demo-dbnet cuts one word of img_1 in three):
 * - every class bar of the report lists exactly the cases whose case lines (as BenchSession
 *   writes them in Node) carry that class on an FN or FP, and shows the report's counts;
 * - the split FN, opened in the viewer, names its parts, and the per-case score histogram's bins
 *   list exactly their cases;
 * - the GT suspects queue walks the report's suspects in rank order (key s) and files one under
 *   the review states;
 * - a point of the threshold curve opens the cases of that split.
 */
import { expect, test, type Page } from '@playwright/test';
import type { Report } from '../src/core/report';
import { BenchSession } from '../src/core/session';
import { showReport } from './helpers';

interface Line {
  case_id: string;
  facets?: Record<string, unknown>;
  model: string;
  score: number | null;
  gt: { id: number; state: string; error?: string; error_with?: { gt?: number[]; pred?: number[] } }[];
  pred: { id: number; state: string; error?: string }[];
}

/** A demo scored in Node: the report and every case line, parsed. */
async function nodeDemo(benchmark = 'ltb'): Promise<{ report: Report; lines: Line[] }> {
  const { makeDemo } = (await import(`../src/core/benchmarks/${benchmark}/demo.ts`)) as typeof import('../src/core/benchmarks/ltb/demo');
  const bundle = await makeDemo();
  const session = await BenchSession.open(bundle.source, benchmark as never);
  await session.addBundledPredictions();
  for (const p of bundle.predictions) await session.addPredictions(p);
  const protocol = session.resolveProtocol(undefined, {});
  const results = await session.score(protocol);
  return { report: session.report(protocol, results), lines: [...session.eachCaseLine(results)].map((l) => JSON.parse(l) as Line) };
}

/** The sorted ids of `model`'s cases with an FN or FP of class `cls`, from Node's case lines. */
function casesWithClass(lines: readonly Line[], model: string, cls: string): string[] {
  return lines
    .filter((l) => l.model === model && [...l.gt, ...l.pred].some((x) => (x.state === 'fn' || x.state === 'fp') && x.error === cls))
    .map((l) => l.case_id)
    .sort();
}

/** The case ids the case list shows (the demo's 8 cases fit on screen: no virtual scrolling). */
async function listedCases(page: Page): Promise<string[]> {
  const count = page.getByTestId('case-count');
  const shown = Number(await count.getAttribute('data-shown'));
  const rows = page.getByTestId('case-row');
  await expect(rows).toHaveCount(shown);
  return (await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-case-id')!))).sort();
}

test.describe('the error taxonomy on the LTB demo', () => {
  test('each class bar lists exactly the cases with that class, with the report’s counts', async ({ page }) => {
    const node = await nodeDemo();
    await page.goto('/#demo=ltb');
    await showReport(page); // picked before the score lands, the report stays on screen
    const bars = page.getByTestId('error-bars');
    await expect(bars).toBeVisible({ timeout: 60_000 });
    await expect(bars).toHaveAttribute('data-unit', 'hard'); // the case split, where the cases' classes are
    const buttons = bars.locator('button.error-bar:not([disabled])');
    const n = await buttons.count();
    expect(n).toBeGreaterThanOrEqual(5);
    const seen = new Set<string>();
    for (let i = 0; i < n; i++) {
      const b = buttons.nth(i);
      const model = (await b.getAttribute('data-model'))!;
      const cls = (await b.getAttribute('data-class'))!;
      seen.add(cls);
      const want = node.report.models[model].diagnostics!.errors.hard;
      const fn = (want.fn as Record<string, number>)[cls] ?? 0;
      const fp = (want.fp as Record<string, number>)[cls] ?? 0;
      await expect(b, `${model} ${cls}`).toHaveAttribute('data-fn', String(fn));
      await expect(b, `${model} ${cls}`).toHaveAttribute('data-fp', String(fp));
      await showReport(page); // a bar click opened the workspace on its cases
      await b.click();
      const expected = casesWithClass(node.lines, model, cls);
      expect(expected.length, `${model} ${cls} has cases in Node`).toBeGreaterThan(0);
      await expect(page).toHaveURL(new RegExp(`a=${encodeURIComponent(model)}`));
      await expect.poll(() => listedCases(page), { message: `${model} · ${cls}` }).toEqual(expected);
    }
    expect([...seen]).toEqual(expect.arrayContaining(['split', 'missed', 'background', 'dontcare']));
  });

  test('the split FN names its parts, in the instance panel and on hover', async ({ page }) => {
    const node = await nodeDemo();
    const line = node.lines.find((l) => l.model === 'demo-dbnet' && l.gt.some((g) => g.error === 'split'))!;
    const g = line.gt.find((x) => x.error === 'split')!;
    const parts = g.error_with!.pred!;
    expect(parts.length).toBe(3);
    await page.setViewportSize({ width: 2000, height: 1200 });
    await page.goto(`/#demo=ltb&a=demo-dbnet&case=${encodeURIComponent(line.case_id)}`);
    const row = page.locator(`[data-testid="instance-panel"] [data-key="0:gt:${g.id}"]`);
    await expect(row).toBeVisible({ timeout: 60_000 });
    await expect(row).toHaveAttribute('data-error', 'split');
    await expect(row).toContainText(`error: split: parts ${parts.map((p) => `pred ${p}`).join(', ')}`);
    // The parts are FPs of class split, each naming the GT it is a part of.
    for (const p of parts) {
      const pr = page.locator(`[data-testid="instance-panel"] [data-key="0:pred:${p}"]`);
      await expect(pr).toHaveAttribute('data-error', 'split');
      await expect(pr).toContainText(`split: a part of GT ${g.id}`);
    }
    // Selected, the GT's tooltip carries the same sentence.
    await row.click();
    await expect(page.getByTestId('case-viewer')).toContainText(`split: parts ${parts.map((p) => `pred ${p}`).join(', ')}`);
  });

  test('a bin of the per-case score histogram lists exactly its cases', async ({ page }) => {
    const node = await nodeDemo();
    await page.goto('/#demo=ltb');
    await showReport(page);
    const hist = page.getByTestId('score-histogram');
    await expect(hist).toBeVisible({ timeout: 60_000 });
    const model = 'demo-psenet';
    const bins = hist.locator(`rect[data-model="${model}"]:not([data-count="0"])`);
    const n = await bins.count();
    expect(n).toBeGreaterThan(0);
    let total = 0;
    for (let i = 0; i < n; i++) {
      const bin = bins.nth(i);
      const k = Number(await bin.getAttribute('data-bin'));
      const count = Number(await bin.getAttribute('data-count'));
      total += count;
      await showReport(page); // a bin click opened the workspace on its cases
      await bin.click({ force: true }); // a short bar sits under the grid lines
      // Bin k of 10 over [0, 1]: [k/10, (k+1)/10), the last one closed.
      const expected = node.lines
        .filter((l) => l.model === model && l.score !== null && l.score >= k / 10 && (k === 9 ? l.score <= 1 : l.score < (k + 1) / 10))
        .map((l) => l.case_id)
        .sort();
      await expect.poll(() => listedCases(page), { message: `bin ${k}` }).toEqual(expected);
      expect(expected.length).toBe(count);
    }
    expect(total).toBe(node.lines.filter((l) => l.model === model && l.score !== null).length);
  });
});

test.describe('the GT suspects and the threshold curve on the LTB demo', () => {
  test('"next suspect" walks the ranked suspects and files one as GT wrong in the review of model A', async ({ page }) => {
    const node = await nodeDemo();
    const suspects = node.report.diagnostics!.suspects;
    expect(suspects.length).toBeGreaterThanOrEqual(2);
    await page.setViewportSize({ width: 2000, height: 1200 });
    await page.goto('/#demo=ltb');
    const queue = page.getByTestId('suspect-queue');
    await expect(queue).toBeVisible({ timeout: 60_000 });
    await expect(queue.locator('h3 .cb-count')).toHaveText(String(suspects.length));
    await page.locator('body').press('s');
    const current = page.getByTestId('current-suspect');
    await expect(current).toHaveAttribute('data-case-id', suspects[0].case_id);
    await expect(current).toHaveAttribute('data-kind', suspects[0].kind);
    await expect(page).toHaveURL(new RegExp(`case=${encodeURIComponent(suspects[0].case_id).replace('.', '\\.')}`));
    await current.getByRole('button', { name: suspects[0].kind === 'wrong_gt' ? 'GT wrong' : 'GT missing' }).click();
    const status = suspects[0].kind === 'wrong_gt' ? 'gt_wrong' : 'gt_missing';
    await expect(page.getByRole('group', { name: 'Case status' }).locator(`[data-status="${status}"]`)).toHaveAttribute('aria-pressed', 'true');
    // The review facet of the case list counts it.
    await expect(page.locator(`[data-testid="facet-review"] input[data-review-status="${status}"] ~ [data-testid="review-count"]`)).toHaveText('1');
    await queue.getByTestId('next-suspect').click();
    await expect(current).toHaveAttribute('data-case-id', suspects[1].case_id);
  });

  test('a point of the threshold curve opens the cases of its split at that threshold; a class bar puts them back at the best one', async ({ page }) => {
    // Node: the norm split's cases at 0.7 (neither model's best threshold).
    const bundle = await (await import('../src/core/benchmarks/ltb/demo')).makeDemo();
    const session = await BenchSession.open(bundle.source, 'ltb');
    for (const p of bundle.predictions) await session.addPredictions(p);
    const at = session.resolveProtocol(undefined, { case_split: 'norm', case_threshold: '0.7' });
    const psenet = (await session.score(at)).find((r) => r.model === 'demo-psenet')!;
    const scores = psenet.cases.map((c) => c.score).filter((v): v is number => v !== null);

    await page.goto('/#demo=ltb');
    await showReport(page);
    await expect(page.getByTestId('error-bars')).toBeVisible({ timeout: 60_000 });
    await page.getByLabel('Report unit').selectOption('norm');
    await expect(page.getByTestId('error-bars')).toHaveAttribute('data-unit', 'norm');
    await page.locator('circle.point.clickable[data-series="demo-psenet"][data-x^="0.7"]').click();
    // Options that change no metric: the case view's split and threshold, with the model as A.
    const protocolLine = page.getByTestId('report-protocol');
    await expect(protocolLine).toContainText('case_split=norm', { timeout: 60_000 });
    await expect(protocolLine).toContainText('case_threshold=0.7');
    await expect(page).toHaveURL(/a=demo-psenet/);
    // The cases on the page are Node's at 0.7: the histogram holds their per-image hmean.
    const counts = await page.locator('[data-testid="score-histogram"] rect[data-model="demo-psenet"]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))));
    const want = Array.from({ length: 10 }, (_, k) => scores.filter((v) => v >= k / 10 && (k === 9 ? v <= 1 : v < (k + 1) / 10)).length);
    expect(counts).toEqual(want);
    // A class bar counts the classes at each model's best threshold: clicking one unpins the threshold.
    await showReport(page); // the point click opened the workspace on its cases
    await page.locator('[data-testid="error-bars"] button.error-bar:not([disabled])').first().click();
    await expect(protocolLine).not.toContainText('case_threshold', { timeout: 60_000 });
    await expect(protocolLine).toContainText('case_split=norm');
  });
});

/** The same class bars, fed by the same `diagnostics`, on the other benchmarks with a taxonomy. */
for (const [benchmark, unit] of [
  ['gansulishuzhi', 'iou0.5'],
  ['tabench', 't2r'],
  ['chronicles', 'all/spotting'],
] as const) {
  test(`on the ${benchmark} demo each class bar of ${unit} lists exactly the cases with that class`, async ({ page }) => {
    const node = await nodeDemo(benchmark);
    await page.setViewportSize({ width: 1600, height: 2400 });
    await page.goto(`/#demo=${benchmark}`);
    await showReport(page);
    const bars = page.getByTestId('error-bars');
    await expect(bars).toBeVisible({ timeout: 60_000 });
    await expect(bars).toHaveAttribute('data-unit', unit);
    const buttons = bars.locator('button.error-bar:not([disabled])');
    const n = await buttons.count();
    expect(n).toBeGreaterThan(0);
    for (let i = 0; i < n; i++) {
      const b = buttons.nth(i);
      const model = (await b.getAttribute('data-model'))!;
      const cls = (await b.getAttribute('data-class'))!;
      const want = node.report.models[model].diagnostics!.errors[unit];
      await expect(b).toHaveAttribute('data-fn', String((want.fn as Record<string, number>)[cls] ?? 0));
      await expect(b).toHaveAttribute('data-fp', String((want.fp as Record<string, number>)[cls] ?? 0));
      await showReport(page); // a bar click opened the workspace on its cases
      await b.click();
      const expected = casesWithClass(node.lines, model, cls);
      expect(expected.length, `${model} ${cls} has cases in Node`).toBeGreaterThan(0);
      await expect.poll(() => listedCases(page), { message: `${benchmark} ${model} · ${cls}` }).toEqual(expected);
    }
  });
}

test('on the chronicles demo a class bar of one script lists that script’s cases with the class', async ({ page }) => {
  const node = await nodeDemo('chronicles');
  await page.setViewportSize({ width: 1600, height: 2400 });
  await page.goto('/#demo=chronicles');
  await showReport(page);
  await expect(page.getByTestId('error-bars')).toBeVisible({ timeout: 60_000 });
  const unit = 'oracle_bone/spotting';
  await page.getByLabel('Report unit').selectOption(unit);
  const bars = page.locator(`[data-testid="error-bars"][data-unit="${unit}"] button.error-bar:not([disabled])`);
  expect(await bars.count()).toBeGreaterThan(0);
  const b = bars.first();
  const model = (await b.getAttribute('data-model'))!;
  const cls = (await b.getAttribute('data-class'))!;
  await b.click();
  const expected = casesWithClass(
    node.lines.filter((l) => l.facets?.script === 'oracle_bone'),
    model,
    cls,
  );
  expect(expected.length).toBeGreaterThan(0);
  await expect.poll(() => listedCases(page)).toEqual(expected);
});
