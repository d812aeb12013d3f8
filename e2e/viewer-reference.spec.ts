/**
 * The case viewer in the real app, on the shared reference cases: what is drawn (counted by
 * state) and what hovering explains must be exactly what the CLI writes to case_analysis.jsonl
 * for the same case. Nothing here is typed in: the expected counts, the case and the reason
 * sentences all come from running the CLI (`cli/main.ts score`) on the same folder and files.
 * Run: `npx vite build && npx playwright test e2e/viewer-reference.spec.ts`.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { HAS_SHARED, shared } from '../test/shared';
import { countsByState, openCase, viewer, type CaseLine, type LineInstance, type Shape } from './helpers';
import { runCli } from '../test/cli';

/** Runs the CLI the way CI does and reads back its case_analysis.jsonl. */
function cliCaseLines(dataset: string, preds: string[]): CaseLine[] {
  const out = mkdtempSync(join(tmpdir(), 'benchlens-viewer-ref-'));
  const args = ['score', '--dataset', dataset, ...preds.flatMap((p) => ['--pred', p]), '--out', out];
  const r = runCli(args);
  if (r.status !== 0) throw new Error(`CLI exit ${r.status}: ${r.stderr}`);
  return readFileSync(join(out, 'case_analysis.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as CaseLine);
}

const has = (line: CaseLine, side: 'gt' | 'pred', state: string) => line[side].some((i) => i.state === state && i.shape);

/** The outline of a case-line shape as [x, y] image points. */
function outline(shape: Shape | undefined): [number, number][] {
  if (shape && shape.type === 'polygon' && 'points' in shape) {
    const pts: [number, number][] = [];
    for (let i = 0; i + 1 < shape.points.length; i += 2) pts.push([shape.points[i], shape.points[i + 1]]);
    return pts;
  }
  if (shape && shape.type === 'box' && 'box' in shape) {
    const [x1, y1, x2, y2] = shape.box;
    return [
      [x1, y1],
      [x2, y1],
      [x2, y2],
      [x1, y2],
    ];
  }
  throw new Error(`no outline for shape ${JSON.stringify(shape)}`);
}

function inside(pts: [number, number][], x: number, y: number): boolean {
  let c = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const [xi, yi] = pts[i];
    const [xj, yj] = pts[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

/** Image points inside the outline on a grid, nearest to its centre first. */
function interiorPoints(pts: [number, number][]): [number, number][] {
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  const out: [number, number][] = [];
  for (let i = 1; i < 12; i++) for (let j = 1; j < 12; j++) out.push([x0 + ((x1 - x0) * i) / 12, y0 + ((y1 - y0) * j) / 12]);
  return out.filter(([x, y]) => inside(pts, x, y)).sort((a, b) => Math.hypot(a[0] - cx, a[1] - cy) - Math.hypot(b[0] - cx, b[1] - cy));
}

/** The drawn counts must be the case line's: in the scene, and on the canvas (a new case opens at "fit", all on screen). */
async function expectDrawnAsLine(page: Page, line: CaseLine): Promise<void> {
  const expected = countsByState(line);
  await expect.poll(() => viewer(page, 'sceneCounts', 0)).toEqual(expected);
  await expect.poll(() => viewer(page, 'drawnCounts', 0)).toEqual(expected);
}

/**
 * Moves the pointer onto an instance: its outline mapped to the screen with the viewer's
 * transform and the pane's position, at the first interior point that the viewer attributes to
 * that instance (other shapes may overlap part of it), and checks the tooltip explains it.
 */
async function hoverAndExpectReason(page: Page, line: CaseLine, side: 'gt' | 'pred', inst: LineInstance): Promise<string> {
  const t = await viewer<{ scale: number; x: number; y: number }>(page, 'transform');
  const pane = (await page.getByTestId('viewer-pane-0').boundingBox())!;
  let hit: [number, number] | null = null;
  for (const [ix, iy] of interiorPoints(outline(inst.shape))) {
    const cx = pane.x + t.x + ix * t.scale;
    const cy = pane.y + t.y + iy * t.scale;
    if (cx < pane.x || cy < pane.y || cx >= pane.x + pane.width || cy >= pane.y + pane.height) continue;
    const at = await viewer<{ side: string; id: number; state: string } | null>(page, 'instanceAt', cx, cy);
    if (at && at.side === side && at.id === inst.id) {
      expect(at.state).toBe(inst.state);
      hit = [cx, cy];
      break;
    }
  }
  expect(hit, `no point of ${side} ${inst.id} (${inst.state}) of ${line.case_id} is hit on screen`).not.toBeNull();
  await page.mouse.move(hit![0], hit![1]);
  const tip = page.getByTestId('viewer-tooltip');
  await expect(tip).toBeVisible();
  await expect(tip).toContainText(`${side === 'gt' ? 'GT' : 'prediction'} ${inst.id} ·`);
  expect(inst.reason, `${side} ${inst.id} of ${line.case_id} has a reason in the case line`).toBeTruthy();
  // The label carries the exact text; on screen, characters without a font show as code points.
  await expect.poll(async () => (await tip.getAttribute('aria-label')) ?? '').toContain(inst.reason!);
  return inst.reason!;
}

test.describe('the case viewer on reference cases (real app)', () => {
  test.skip(!HAS_SHARED, '*** ../shared is absent: skipping the viewer tests on reference cases ***');

  test('ltb-mini + ltbmini-object.json: shapes by state match case_analysis.jsonl; the FP and a don\'t-care-swallowed prediction explain themselves', async ({ page }) => {
    const dataset = shared('data/ltb-mini');
    const predFile = shared('reference/ltb/ltbmini-object.json');
    const lines = cliCaseLines(dataset, [predFile]);
    // A case with every kind of outcome on it; the CLI's default case split (hard) is the app's too.
    const line = lines.find(
      (l) => has(l, 'gt', 'tp') && has(l, 'gt', 'fn') && has(l, 'pred', 'fp') && l.pred.some((p) => p.state === 'ignored' && p.attrs?.dontcare_gt !== undefined && p.shape),
    );
    expect(line, 'a case with TP, FN, FP and a prediction swallowed by a don\'t-care region').toBeDefined();
    test.info().annotations.push({ type: 'case', description: `${line!.model} ${line!.case_id}` });

    await page.goto('/');
    await page.bringToFront();
    await page.getByTestId('dataset-folder-input').setInputFiles(dataset);
    await expect(page.getByTestId('dataset-summary')).toContainText('LTB', { timeout: 60_000 });
    await page.getByTestId('prediction-files-input').setInputFiles(predFile);
    await expect(page.getByTestId('case-row').first()).toBeVisible({ timeout: 60_000 });
    await openCase(page, line!.case_id);

    await expectDrawnAsLine(page, line!);

    const fp = line!.pred.find((p) => p.state === 'fp' && p.shape)!;
    // These reasons are plain ASCII, so the tooltip shows them verbatim too.
    await expect(page.getByTestId('viewer-tooltip')).toContainText(await hoverAndExpectReason(page, line!, 'pred', fp));
    await expect(page.getByTestId('viewer-tooltip')).toContainText('false positive');

    const swallowed = line!.pred.find((p) => p.state === 'ignored' && p.attrs?.dontcare_gt !== undefined && p.shape)!;
    await expect(page.getByTestId('viewer-tooltip')).toContainText(await hoverAndExpectReason(page, line!, 'pred', swallowed));
    await expect(page.getByTestId('viewer-tooltip')).toContainText(`don't-care GT ${String(swallowed.attrs!.dontcare_gt)}`);
  });

  test('chronicles-mini with its bundled results: a spotting case draws the case line\'s TP / FP / FN', async ({ page }) => {
    const dataset = shared('data/chronicles-mini');
    const lines = cliCaseLines(dataset, []);
    const line = lines.find((l) => l.task === 'spotting' && has(l, 'gt', 'tp') && has(l, 'gt', 'fn') && has(l, 'pred', 'fp'));
    expect(line, 'a spotting case with TP, FN and FP').toBeDefined();
    test.info().annotations.push({ type: 'case', description: `${line!.model} ${line!.case_id}` });

    await page.goto('/');
    await page.bringToFront();
    await page.getByTestId('dataset-folder-input').setInputFiles(dataset);
    await expect(page.getByTestId('case-row').first()).toBeVisible({ timeout: 60_000 });
    await page.getByLabel('Model A').selectOption(line!.model);
    await openCase(page, line!.case_id);

    await expectDrawnAsLine(page, line!);
    const counts = countsByState(line!);
    for (const k of ['gt:tp', 'gt:fn', 'pred:tp', 'pred:fp']) expect(counts[k], k).toBeGreaterThan(0);

    const fp = line!.pred.find((p) => p.state === 'fp' && p.shape)!;
    await hoverAndExpectReason(page, line!, 'pred', fp);
    await expect(page.getByTestId('viewer-tooltip')).toContainText('false positive');
    // The miss lies under the wrong-character prediction; hiding predictions uncovers it.
    await page.getByTestId('layer-pred').uncheck();
    const gtOnly = Object.fromEntries(Object.entries(counts).filter(([k]) => k.startsWith('gt:')));
    await expect.poll(() => viewer(page, 'drawnCounts', 0)).toEqual(gtOnly);
    const fn = line!.gt.find((g) => g.state === 'fn' && g.shape)!;
    await hoverAndExpectReason(page, line!, 'gt', fn);
    await expect(page.getByTestId('viewer-tooltip')).toContainText('missed (FN)');
  });
});
