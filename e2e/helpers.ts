/** Shared steps of the shell's browser tests (opening folders the three ways, reading cells). */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, type BrowserContext, type Page } from '@playwright/test';
import type { CaseViewerHandle } from '../src/app/canvas/CaseViewer';

/** Every file under `dir` (relative '/'-paths), hidden ones included (the app must skip them). */
export function walk(dir: string): string[] {
  const out: string[] = [];
  const rec = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) rec(p);
      else out.push(relative(dir, p).split('\\').join('/'));
    }
  };
  rec(dir);
  return out.sort();
}

/** Drops a real folder (or files) on the page through the DevTools protocol, as a user's drag would. */
export async function dropPaths(page: Page, paths: string[]): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  for (const type of ['dragEnter', 'dragOver', 'drop'] as const) {
    await cdp.send('Input.dispatchDragEvent', { type, x: 300, y: 300, data: { items: [], files: paths, dragOperationsMask: 1 } });
  }
  await cdp.detach();
}

/**
 * The report is its own view (tab, key r); once cases are scored the workspace is shown instead.
 * Choosing the report tab keeps it on screen while more predictions are added and scored.
 */
export async function showReport(page: Page): Promise<void> {
  await page.getByTestId('tab-report').click();
  await expect(page.getByTestId('tab-report')).toHaveAttribute('aria-selected', 'true');
}

/** Brings the workspace (case list, canvas, details) on screen: tab, key w. */
export async function showWorkspace(page: Page): Promise<void> {
  await page.getByTestId('tab-workspace').click();
  await expect(page.getByTestId('tab-workspace')).toHaveAttribute('aria-selected', 'true');
}

/** A narrow case list (the workspace below 1500 px) folds its filters behind a button: opens them. */
export async function openFilters(page: Page): Promise<void> {
  const toggle = page.getByTestId('toggle-filters');
  await expect(page.getByTestId('case-list')).toBeVisible({ timeout: 60_000 });
  if ((await toggle.count()) > 0 && (await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(page.getByRole('complementary', { name: 'Case filters' })).toBeVisible();
}

/** The cell of one metric of one model in the report (its title holds the exact value). */
export function metricCell(page: Page, model: string, key: string) {
  return page.locator(`section[aria-label="Report"] .report-body > table td[data-model="${model}"][data-key="${key}"]`).first();
}

export async function expectMetric(page: Page, model: string, key: string, exact: number): Promise<void> {
  const cell = metricCell(page, model, key);
  await expect(cell).toHaveAttribute('title', `${key} = ${String(exact)}`);
}

/** Fills the origin-private file system with a copy of `dir` (under `name`) from inside the page. */
export async function fillOpfs(page: Page, dir: string, name: string): Promise<void> {
  const files = walk(dir).map((p) => ({ path: p, b64: readFileSync(join(dir, p)).toString('base64') }));
  await page.evaluate(
    async ({ files, name }) => {
      const root = await navigator.storage.getDirectory();
      await root.removeEntry(name, { recursive: true }).catch(() => undefined);
      const top = await root.getDirectoryHandle(name, { create: true });
      for (const f of files) {
        const parts = f.path.split('/');
        let d = top;
        for (const seg of parts.slice(0, -1)) d = await d.getDirectoryHandle(seg, { create: true });
        const fh = await d.getFileHandle(parts.at(-1)!, { create: true });
        const w = await fh.createWritable();
        await w.write(Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0)));
        await w.close();
      }
    },
    { files, name },
  );
}

// ---------------------------------------------------------------- case lines and the viewer

export type Shape = { type: 'polygon'; points: number[] } | { type: 'box'; box: [number, number, number, number] } | { type: string };
export interface LineInstance {
  id: number;
  state: string;
  reason?: string;
  shape?: Shape;
  attrs?: Record<string, unknown>;
}
export interface CaseLine {
  model: string;
  case_id: string;
  task?: string;
  gt: LineInstance[];
  pred: LineInstance[];
}

/** "side:state" → count over the instances that have a shape (what the viewer can draw). */
export function countsByState(line: CaseLine): Record<string, number> {
  const out: Record<string, number> = {};
  for (const side of ['gt', 'pred'] as const) {
    for (const inst of line[side]) {
      if (!inst.shape) continue;
      const k = `${side}:${inst.state}`;
      out[k] = (out[k] ?? 0) + 1;
    }
  }
  return out;
}

/** Calls a method of the app's viewer handle (window.__caseViewer) in the page. */
export const viewer = <T>(page: Page, fn: keyof CaseViewerHandle, ...args: unknown[]) =>
  page.evaluate(
    ([f, a]) => {
      const h = window.__caseViewer as unknown as Record<string, (...x: unknown[]) => unknown> | null | undefined;
      if (!h) throw new Error('no case viewer on the page');
      return h[f as string](...(a as unknown[]));
    },
    [fn, args] as const,
  ) as Promise<T>;

/** Opens the case through the list's search box and waits until the viewer shows it. */
export async function openCase(page: Page, caseId: string): Promise<void> {
  // The case list lives in the workspace tab (the report may be the one on screen).
  const tab = page.getByTestId('tab-workspace');
  if ((await tab.count()) > 0 && (await tab.getAttribute('aria-selected')) !== 'true') await showWorkspace(page);
  await page.getByLabel('Search cases').fill(caseId);
  const row = page.locator(`[data-testid="case-row"][data-case-id="${caseId}"]`);
  await row.click();
  await expect(row).toHaveAttribute('aria-selected', 'true');
  await page.waitForFunction(() => {
    const h = window.__caseViewer;
    return !!h && Object.keys(h.sceneCounts(0)).length > 0;
  });
}


/**
 * Every page of `target` gets a directory picker that hands back the origin-private folder
 * `folder` (see fillOpfs) and counts its calls, so a test can tell whether a reopen went through
 * the picker (pickerCalls) or through a stored handle.
 */
export async function stubCountingPicker(target: Page | BrowserContext, folder: string): Promise<void> {
  await target.addInitScript((name: string) => {
    const w = window as unknown as { __pickerCalls: number };
    w.__pickerCalls = 0;
    Object.assign(window, {
      showDirectoryPicker: async () => {
        w.__pickerCalls++;
        return (await navigator.storage.getDirectory()).getDirectoryHandle(name);
      },
    });
  }, folder);
}

export const pickerCalls = (page: Page) => page.evaluate(() => (window as unknown as { __pickerCalls: number }).__pickerCalls);

/** A left-button drag from (x, y) in `steps` mouse moves of (dx, dy) each. */
export async function drag(page: Page, x: number, y: number, steps: number, dx: number, dy: number): Promise<void> {
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= steps; i++) await page.mouse.move(x + i * dx, y + i * dy);
  await page.mouse.up();
}

/**
 * One animation frame of pane 0's stage (the wrapper the compositor moves): how many animations
 * run on it, the first one's current time, its computed CSS matrix (null: none), and the view
 * its drawing was made at (the matrix's basis).
 */
export interface StageFrame {
  anims: number;
  time: number | null;
  m: number[] | null;
  d: { scale: number; x: number; y: number } | null;
}

/**
 * Records pane 0's stage at every animation frame from the next wheel event to `ms` after the
 * last one. The listener is in place when this resolves (turn the wheel after it); the function
 * it returns gives the frames once the recording is over. The computed transform holds a
 * compositor animation's value too, sampled on the main thread.
 */
export async function recordStage(page: Page, ms = 150): Promise<() => Promise<StageFrame[]>> {
  await page.evaluate((ms) => {
    const el = document.querySelector<HTMLElement>('[data-testid="viewer-stage-0"]')!;
    (window as unknown as { __stage: Promise<StageFrame[]> }).__stage = new Promise((resolve) => {
      const out: StageFrame[] = [];
      let last = -1;
      const tick = () => {
        const a = el.getAnimations();
        const css = getComputedStyle(el).transform;
        out.push({ anims: a.length, time: a.length ? Number(a[0].currentTime) : null, m: css === 'none' ? null : css.match(/-?[\d.e]+/g)!.map(Number), d: window.__caseViewer?.paneTransforms()[0] ?? null });
        if (performance.now() - last < ms) requestAnimationFrame(tick);
        else {
          window.removeEventListener('wheel', onWheel, { capture: true });
          resolve(out);
        }
      };
      const onWheel = () => {
        if (last < 0) requestAnimationFrame(tick);
        last = performance.now();
      };
      window.addEventListener('wheel', onWheel, { capture: true });
    });
  }, ms);
  return () => page.evaluate(() => (window as unknown as { __stage: Promise<StageFrame[]> }).__stage);
}
