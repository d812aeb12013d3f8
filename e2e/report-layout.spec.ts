/**
 * One report view for every benchmark: on each built-in demo the page renders the adapter's
 * report layout — its headline numbers exactly as BenchSession computes them in Node, its plots,
 * and the per-case score histogram, whose bins hold every scored case of each model.
 */
import { expect, test } from '@playwright/test';
import { ADAPTERS } from '../src/core/benchmarks/registry';
import { BenchSession } from '../src/core/session';
import { expectMetric, showReport } from './helpers';

for (const adapter of ADAPTERS) {
  test(`the ${adapter.id} demo report shows its layout's headline numbers and plots`, async ({ page }) => {
    const { makeDemo } = (await import(`../src/core/benchmarks/${adapter.id}/demo.ts`)) as typeof import('../src/core/benchmarks/ltb/demo');
    const bundle = await makeDemo();
    const session = await BenchSession.open(bundle.source, adapter.id);
    await session.addBundledPredictions();
    for (const p of bundle.predictions) await session.addPredictions(p);
    const protocol = session.resolveProtocol(undefined, {});
    const results = await session.score(protocol);
    const report = session.report(protocol, results);

    await page.setViewportSize({ width: 1600, height: 1400 });
    await page.goto(`/#demo=${adapter.id}`);
    await showReport(page); // picked before the score lands, the report stays on screen
    await expect(page.getByTestId('report-protocol')).toBeVisible({ timeout: 60_000 });
    const heads = adapter.reportLayout.headlines.filter((k) => Object.values(report.models).some((m) => k in m.metrics));
    expect(heads.length).toBeGreaterThan(0);
    for (const [m, r] of Object.entries(report.models)) for (const k of heads) if (k in r.metrics) await expectMetric(page, m, k, r.metrics[k]);

    const plots = page.locator('section[aria-label="Report"] figure.plot');
    expect(await plots.count()).toBeGreaterThanOrEqual(2);
    const hist = page.getByTestId('score-histogram');
    await expect(hist).toBeVisible();
    for (const r of results) {
      const scored = r.cases.filter((c) => c.score !== null).length;
      const counts = await hist.locator(`rect[data-model="${r.model}"]`).evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))));
      expect(counts.reduce((a, b) => a + b, 0), r.model).toBe(scored);
    }
    await expect(page.locator('section[aria-label="Report"] .legend').first()).toContainText(Object.keys(report.models)[0]);
  });
}
