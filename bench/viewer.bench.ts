/**
 * Case viewer frame times: the harness's dense case (one 4000×3000 image, 5,000 polygons in
 * mixed states) in Debian Chromium, panned and zoomed with the mouse for a few seconds while the
 * page records requestAnimationFrame intervals. Prints fps from the median frame and the p95
 * frame time; the target is ≥ 30 fps. Builds dist/ first when dist/harness is missing.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/chromium';
import type {} from '../harness/hooks';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};

export async function run(): Promise<void> {
  if (!existsSync(join(root, 'dist/harness/viewer.html'))) {
    console.log('building dist/ (dist/harness/viewer.html is missing)…');
    await build({ root, logLevel: 'warn' });
  }
  const server = await preview({ root, logLevel: 'warn', preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } });
  const port = (server.httpServer.address() as AddressInfo).port;
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS.filter((a) => a !== '--disable-quic') });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const t0 = performance.now();
    await page.goto(`http://127.0.0.1:${port}/harness/viewer.html#case=dense5000`);
    await page.waitForFunction(
      () => {
        const v = window.__viewer;
        if (!v?.ready || !v.handle) return false;
        return Object.values(v.handle.drawnCounts(0)).reduce((a, b) => a + b, 0) >= 5000;
      },
      undefined,
      { timeout: 120_000 },
    );
    console.log(`dense5000 first full draw: ${((performance.now() - t0) / 1000).toFixed(2)} s after navigation (incl. generating the 12 MP test image)`);

    const pane = (await page.getByTestId('viewer-pane-0').boundingBox())!;
    const cx = pane.x + pane.width / 2;
    const cy = pane.y + pane.height / 2;

    // Record every animation frame while the mouse works. A string, not a function: tsx would
    // wrap a named arrow function in a helper the page does not have.
    await page.evaluate(`(() => {
      window.__frames = [];
      window.__stop = false;
      const tick = (t) => {
        window.__frames.push(t);
        if (!window.__stop) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    })()`);

    const seconds = 5;
    const end = Date.now() + seconds * 1000;
    let step = 0;
    let wheels = 0;
    let drags = 0;
    while (Date.now() < end) {
      // Alternate: zoom in at a wandering cursor, pan by dragging, zoom back out.
      const px = cx + Math.sin(step / 7) * pane.width * 0.3;
      const py = cy + Math.cos(step / 5) * pane.height * 0.3;
      await page.mouse.move(px, py);
      for (let i = 0; i < 4; i++, wheels++) await page.mouse.wheel(0, step % 2 === 0 ? -120 : 120);
      await page.mouse.down();
      for (let i = 1; i <= 8; i++, drags++) await page.mouse.move(px + i * 12 * (step % 2 ? -1 : 1), py + i * 6);
      await page.mouse.up();
      step++;
    }
    const frames = (await page.evaluate('(window.__stop = true, window.__frames)')) as number[];
    // The full redraw once the motion pauses (the frames above mostly re-blit the last drawing).
    await page.evaluate(`(() => { window.__frames = []; window.__stop = false;
      const tick = (t) => { window.__frames.push(t); if (!window.__stop) requestAnimationFrame(tick); };
      requestAnimationFrame(tick); })()`);
    await page.waitForTimeout(1500);
    const after = (await page.evaluate('(window.__stop = true, window.__frames)')) as number[];
    const settleMax = Math.max(...after.slice(1).map((t, i) => t - after[i]));
    const deltas = frames.slice(1).map((t, i) => t - frames[i]);
    const median = quantile(deltas, 0.5);
    const p95 = quantile(deltas, 0.95);
    const span = (frames[frames.length - 1] - frames[0]) / 1000;
    const t = await page.evaluate(() => window.__viewer!.handle!.transform());
    console.log(
      `dense5000 pan + zoom (${wheels} wheel steps, ${drags} drag moves, ${seconds} s): ${deltas.length} frames, ` +
        `median ${median.toFixed(1)} ms (${(1000 / median).toFixed(0)} fps), p95 ${p95.toFixed(1)} ms, ` +
        `average ${(deltas.length / span).toFixed(1)} fps; final zoom ${(t.scale * 100).toFixed(0)}% — target ≥ 30 fps`,
    );
    console.log(`dense5000 full redraw after the motion stops: longest frame ${settleMax.toFixed(0)} ms`);
  } finally {
    await browser.close();
    await server.close();
  }
}
