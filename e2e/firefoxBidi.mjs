/**
 * `node --experimental-websocket e2e/firefoxBidi.mjs <benchlens.html> <dataset dir> <pred file>…`:
 * opens the single-file page from file:// in the Debian Firefox (firefox-esr, driven over
 * WebDriver BiDi directly: Playwright's Firefox is a patched build that cannot be downloaded
 * here, and its BiDi mode asks this Firefox for commands it lacks), scores the LTB demo, opens a
 * case, then opens the demo's folder and prediction files through the page's inputs, and prints
 * what it saw as one JSON object (e2e/firefox.spec.ts checks it).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [page, dataset, ...preds] = process.argv.slice(2);
const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
const profile = mkdtempSync(join(tmpdir(), 'benchlens-firefox-'));
const ff = spawn(FIREFOX, ['--headless', '--remote-debugging-port', '0', '--profile', profile, '--no-remote'], { stdio: ['ignore', 'ignore', 'pipe'] });
const wsUrl = await new Promise((resolve, reject) => {
  let err = '';
  ff.stderr.on('data', (d) => {
    err += d;
    const m = /WebDriver BiDi listening on (ws:\/\/\S+)/.exec(err);
    if (m) resolve(m[1]);
  });
  ff.on('exit', (code) => reject(new Error(`firefox exited ${code}: ${err.slice(-500)}`)));
});
const ws = new WebSocket(`${wsUrl}/session`);
await new Promise((r) => ws.addEventListener('open', r));
let nextId = 0;
const waiting = new Map();
const errors = [];
ws.addEventListener('message', (e) => {
  const m = JSON.parse(e.data);
  if (m.id && waiting.has(m.id)) {
    waiting.get(m.id)(m);
    waiting.delete(m.id);
  } else if (m.method === 'log.entryAdded' && m.params.level === 'error') errors.push(m.params.text);
});
const send = (method, params) =>
  new Promise((resolve, reject) => {
    const id = ++nextId;
    waiting.set(id, (m) => (m.type === 'error' ? reject(new Error(`${method}: ${m.error} ${m.message}`)) : resolve(m.result)));
    ws.send(JSON.stringify({ id, method, params }));
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const out = { errors };
try {
  await send('session.new', { capabilities: {} });
  await send('session.subscribe', { events: ['log.entryAdded'] });
  const context = (await send('browsingContext.getTree', {})).contexts[0].context;
  const evaluate = async (expression) => {
    const r = await send('script.evaluate', { expression, target: { context }, awaitPromise: true });
    if (r.type === 'exception') throw new Error(`${expression.slice(0, 80)}: ${r.exceptionDetails.text}`);
    return r.result.value;
  };
  /** Polls an expression until it gives a non-null value (30 s). */
  const until = async (expression) => {
    for (let i = 0; i < 150; i++) {
      const v = await evaluate(expression);
      if (v !== null && v !== undefined && v !== false) return v;
      await sleep(200);
    }
    return null;
  };
  const METRICS = `(() => {
    const cells = [...document.querySelectorAll('section[aria-label="Report"] .report-body > table td[data-key="norm/hmean"]')];
    return cells.length ? Object.fromEntries(cells.map((c) => [c.dataset.model, c.getAttribute('title')])) : null;
  })()`;

  await send('browsingContext.navigate', { context, url: `${pathToFileURL(page).href}#demo=ltb`, wait: 'complete' });
  out.demo = await until(METRICS);
  // The case list arrives a moment after the report.
  out.caseRow = await until(`!!document.querySelector('[data-testid="case-row"]')`);
  if (out.caseRow) await evaluate(`document.querySelector('[data-testid="case-row"]').click()`);
  out.viewer = await until(`!!document.querySelector('.case-viewer canvas')`);
  // A zoom step on the case: once the view is still, the full-detail drawing of the new zoom
  // comes from the raster workers (inlined in this file), not main-thread slices.
  if (out.viewer) {
    // Drawn, and with its image (decoded after the shapes are drawn), so the zoom step below is
    // the only change from here.
    await until(`(!document.querySelector('[data-testid="image-status"]') && document.querySelectorAll('[data-testid="viewer-pane-0"] canvas')[1]?.dataset.drawnBy) || null`);
    out.drawnAfterZoom = await evaluate(`new Promise((resolve) => {
      const screen = document.querySelector('[data-testid="viewer-screen-0"]');
      const r = screen.getBoundingClientRect();
      screen.dispatchEvent(new WheelEvent('wheel', { deltaY: -100, clientX: r.x + r.width / 2, clientY: r.y + r.height / 2, bubbles: true, cancelable: true }));
      const t0 = performance.now();
      const poll = () => {
        const by = document.querySelectorAll('[data-testid="viewer-pane-0"] canvas')[1]?.dataset.drawnBy;
        if ((by && by !== 'at once') || performance.now() - t0 > 20000) resolve(by ?? null);
        else setTimeout(poll, 50);
      };
      poll();
    })`);
    // How the workers' parts came: snapshots of their canvases, or transferred (their fallback).
    out.partsVia = await evaluate(`document.querySelectorAll('[data-testid="viewer-pane-0"] canvas')[1]?.dataset.partsVia ?? null`);
  }

  // A folder through the page's folder input (webkitdirectory), then the prediction files.
  await send('browsingContext.navigate', { context, url: pathToFileURL(page).href, wait: 'complete' });
  const element = async (selector) => {
    const r = await send('script.evaluate', { expression: `document.querySelector('${selector}')`, target: { context }, awaitPromise: false, resultOwnership: 'root' });
    return { sharedId: r.result.sharedId };
  };
  const walk = (d) => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]));
  try {
    await send('input.setFiles', { context, element: await element('[data-testid="dataset-folder-input"]'), files: [dataset] });
  } catch (e) {
    out.folderInput = `directory refused (${e.message}); files instead`;
    await send('input.setFiles', { context, element: await element('[data-testid="dataset-folder-input"]'), files: walk(dataset) });
  }
  out.summary = await until(`document.querySelector('[data-testid="dataset-summary"]')?.textContent ?? null`);
  await send('input.setFiles', { context, element: await element('[data-testid="prediction-files-input"]'), files: preds });
  out.opened = await until(METRICS);
  out.indexedDB = await evaluate(`new Promise((r) => { const q = indexedDB.open('benchlens-probe'); q.onsuccess = () => r(true); q.onerror = () => r(false); })`);
  out.directoryPicker = await evaluate(`typeof window.showDirectoryPicker === 'function'`);
  await send('session.end', {}).catch(() => undefined);
} catch (e) {
  out.failure = String(e?.message ?? e);
} finally {
  ff.kill();
  rmSync(profile, { recursive: true, force: true });
}
console.log(JSON.stringify(out));
process.exit(0);
