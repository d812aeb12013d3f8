/**
 * The page end to end in real Chromium: a 20,000-image LTB-shaped set is generated inside the page
 * (origin-private file system), opened through the folder picker, a prediction file added, and we
 * print the time to a scored report and the longest main-thread task (PerformanceObserver
 * 'longtask') — the UI must stay responsive while the worker scores. Builds the current source
 * into a private folder (BENCH_DIST, default <tmp>/benchlens-bench-dist) so it never races other
 * builds of dist/; BENCH_NO_BUILD=1 reuses that folder as it is. BENCH_PROFILE=1 also prints the
 * main thread's heaviest functions during scoring (CDP Profiler).
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/chromium';
import { stubPickersToOpfs, writeLtbShapedToOpfs } from '../e2e/ltbShaped';
import { REPO_ROOT } from '../test/shared';

const IMAGES = 20_000;
const WORDS = 5;

export async function run(): Promise<void> {
  const outDir = resolve(process.env.BENCH_DIST ?? join(tmpdir(), 'benchlens-bench-dist'));
  if (process.env.BENCH_NO_BUILD !== '1' || !existsSync(join(outDir, 'index.html'))) {
    console.log(`building into ${outDir} …`);
    await build({ root: REPO_ROOT, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  }
  const server = await preview({
    root: REPO_ROOT,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 4311, strictPort: false, open: false },
  });
  const url = server.resolvedUrls?.local[0] ?? 'http://127.0.0.1:4311/';
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const names = { dataset: 'bench-ltb', predictions: 'bench-ltb-preds' };
    await page.addInitScript(...stubPickersToOpfs(names));
    // Source text, not a function: see inPage in e2e/ltbShaped.ts.
    await page.addInitScript({
      content: `window.__longest = 0;
        window.__resetLongest = () => { window.__longest = 0; };
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
        }).observe({ type: 'longtask', buffered: true });`,
    });
    await page.goto(url);
    let t = performance.now();
    const size = await writeLtbShapedToOpfs(page, { images: IMAGES, words: WORDS, ...names });
    console.log(
      `generated ${IMAGES} images × ${WORDS} words in the page: GT ${(size.gtBytes / 2 ** 20).toFixed(0)} MiB (15 files), predictions ${(size.predBytes / 2 ** 20).toFixed(0)} MiB, ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    await page.evaluate('window.__resetLongest()');

    t = performance.now();
    await page.getByRole('button', { name: 'Open folder…' }).click();
    await page.getByTestId('dataset-summary').filter({ hasText: 'LTB' }).waitFor({ timeout: 600_000 });
    const opened = (performance.now() - t) / 1000;
    const summary = await page.getByTestId('dataset-summary').textContent();
    const longestOpen = (await page.evaluate('window.__longest')) as number;
    await page.evaluate('window.__resetLongest()');

    const profiling = process.env.BENCH_PROFILE === '1';
    const cdp = profiling ? await page.context().newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    t = performance.now();
    await page.getByRole('button', { name: 'Add prediction files…' }).click();
    await page.getByTestId('report-protocol').waitFor({ timeout: 900_000 });
    await page.getByTestId('case-count').waitFor({ timeout: 120_000 }).catch(() => undefined);
    const scored = (performance.now() - t) / 1000;
    // Long tasks can still be queued behind the first paint of the list: give them a moment.
    await page.waitForTimeout(500);
    const longest = (await page.evaluate('window.__longest')) as number;
    if (cdp) {
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
      printHeaviest(profile);
    }
    const hmean = await page.locator('td[data-key="norm/hmean"]').first().getAttribute('title');
    console.log(`opened (detect + read GT): ${opened.toFixed(2)} s — ${summary}`);
    console.log(`time to scored report (read predictions + score 15 splits + case table): ${scored.toFixed(2)} s (${hmean})`);
    console.log(`longest main-thread task: ${longestOpen.toFixed(0)} ms while opening, ${longest.toFixed(0)} ms while scoring and showing the report + case list`);
  } finally {
    await browser.close();
    await new Promise<void>((r) => server.httpServer.close(() => r()));
  }
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** The main thread's functions by self time (sampled), for finding what blocks it. */
function printHeaviest(profile: CpuProfile, top = 20): void {
  const frame = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, k) => {
    const f = frame.get(id)!;
    const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').at(-1)}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[k] ?? 0) / 1000);
  });
  console.log('main thread, heaviest self time during scoring:');
  for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${name}`);
}
