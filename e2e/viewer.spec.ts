/**
 * The case viewer in real Chromium, on the harness page (harness/viewer.html) with hand-made
 * records: what is drawn, in which colour, what hovering explains, the keyboard, and the linked
 * comparison view. Run: `npx vite build && npx playwright test e2e/viewer.spec.ts`.
 */
import { expect, test, type Page } from '@playwright/test';
import { DENSE, LTB_FP, LTB_SWALLOWED } from '../harness/fixtures';
import type {} from '../harness/hooks';

type Side = 'gt' | 'pred';

async function open(page: Page, hash: string) {
  await page.goto(`/harness/viewer.html#${hash}`);
  await page.waitForFunction(() => {
    const v = window.__viewer;
    if (!v?.ready || !v.handle) return false;
    const drawn = v.handle.drawnCounts(0);
    return Object.keys(drawn).length > 0;
  });
}

const handle = <T>(page: Page, fn: string, ...args: unknown[]) =>
  page.evaluate(([f, a]) => (window.__viewer!.handle as unknown as Record<string, (...x: unknown[]) => unknown>)[f as string](...(a as unknown[])), [fn, args] as const) as Promise<T>;

/** Client point of an image point in a pane. */
const at = (page: Page, pane: number, ix: number, iy: number) => handle<[number, number]>(page, 'clientPoint', pane, ix, iy);

/** The shapes layer's pixel at an image point, nudged `dx` screen pixels along the edge. */
async function pixel(page: Page, ix: number, iy: number, dx = 0, dy = 0) {
  const [x, y] = await at(page, 0, ix, iy);
  return handle<[number, number, number, number]>(page, 'shapePixel', x + dx, y + dy);
}

function expectColour(px: [number, number, number, number] | null, hex: string) {
  expect(px).not.toBeNull();
  const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const [r, g, b, a] = px!;
  expect(a).toBeGreaterThan(150);
  // Premultiplied edges blend a little; the hue must still be unmistakable.
  for (let i = 0; i < 3; i++) expect(Math.abs([r, g, b][i] - want[i]), `channel ${i} of rgb(${r},${g},${b}) vs ${hex}`).toBeLessThan(40);
}

test.describe('case viewer', () => {
  test('draws all 5,000 polygons of the dense case, counted by state', async ({ page }) => {
    await open(page, 'case=dense5000');
    const expected: Record<string, number> = {};
    for (const [s, n] of Object.entries(DENSE.gt)) expected[`gt:${s}`] = n;
    for (const [s, n] of Object.entries(DENSE.pred)) expected[`pred:${s}`] = n;
    expect(await handle(page, 'sceneCounts', 0)).toEqual(expected);
    // At "fit" the whole image is on screen, so every shape was drawn.
    await expect.poll(() => handle(page, 'drawnCounts', 0)).toEqual(expected);
  });

  test('colours TP, FN and FP shapes distinctly on the canvas', async ({ page }) => {
    await open(page, 'case=ltb');
    // FP: vermillion, on the top edge 1 px right of its corner (inside the first dash).
    expectColour(await pixel(page, LTB_FP.box[0], LTB_FP.box[1], 1, 0), '#D55E00');
    // TP prediction 0: blue, solid.
    expectColour(await pixel(page, 110, 184, 20, 0), '#0072B2');
    // FN GT 1 (a curved polygon): orange, 3 px along its first edge (toward (180, 360)).
    const len = Math.hypot(60, -40);
    expectColour(await pixel(page, 120, 400, (3 * 60) / len, (3 * -40) / len), '#E69F00');
    // The inside of the FP box is not painted (no fill for predictions).
    const inside = await pixel(page, 1000, 155);
    expect(inside![3]).toBe(0);
  });

  test('explains a known FP and a prediction swallowed by a don\'t-care region on hover', async ({ page }) => {
    await open(page, 'case=ltb');
    const tip = page.getByTestId('viewer-tooltip');
    let [x, y] = await at(page, 0, 1000, 155);
    await page.mouse.move(x, y);
    await expect(tip).toContainText('prediction 2 · false positive (FP)');
    await expect(tip).toContainText('score: 0.9');
    await expect(tip).toContainText('best IoU: 0.12 (GT 2)');
    await expect(tip).toContainText(LTB_FP.reason);
    expect(await handle(page, 'instanceAt', x, y)).toMatchObject({ side: 'pred', id: LTB_FP.id, state: 'fp' });

    // Inside the don't-care region the smaller, swallowed prediction is what the pointer hits.
    [x, y] = await at(page, 0, 720, 290);
    await page.mouse.move(x, y);
    await expect(tip).toContainText(`prediction ${LTB_SWALLOWED.id} · ignored`);
    await expect(tip).toContainText(LTB_SWALLOWED.reason);
    // Clicking selects it and the panel row follows.
    await page.mouse.click(x, y);
    await expect(page.locator(`[data-key="0:pred:${LTB_SWALLOWED.id}"]`)).toHaveAttribute('aria-selected', 'true');
  });

  test('zooms to a small shape when its panel row is clicked, after scrolling the dense list', async ({ page }) => {
    await open(page, 'case=dense5000');
    const fit = await handle<{ scale: number }>(page, 'transform');
    const panel = page.getByTestId('instance-panel');
    // Only a window of the 5,000 rows exists in the DOM.
    expect(await panel.locator('[data-key]').count()).toBeLessThan(80);
    await panel.evaluate((el) => (el.scrollTop = 54 * 1200));
    const row = panel.locator('[data-key="0:gt:1203"]');
    await row.click();
    expect(await handle(page, 'selected')).toEqual({ view: 0, side: 'gt', id: 1203 });
    expect((await handle<{ scale: number }>(page, 'transform')).scale).toBeGreaterThan(fit.scale * 2);
    await expect(page.getByTestId('viewer-tooltip')).toContainText('GT 1203');
  });

  test('a panel row click selects and zooms to its shape', async ({ page }) => {
    await open(page, 'case=ltb');
    const before = await handle<{ scale: number }>(page, 'transform');
    await page.locator('[data-key="0:gt:1"]').click();
    expect(await handle(page, 'selected')).toEqual({ view: 0, side: 'gt', id: 1 });
    const after = await handle<{ scale: number }>(page, 'transform');
    // A large shape: no zooming out past the fit.
    expect(after.scale).toBeGreaterThanOrEqual(before.scale);
    // The curved GT's centre is now at the pane's centre.
    const [cx, cy] = await at(page, 0, 340, 387.5);
    const box = (await page.getByTestId('viewer-pane-0').boundingBox())!;
    expect(Math.abs(cx - (box.x + box.width / 2))).toBeLessThan(2);
    expect(Math.abs(cy - (box.y + box.height / 2))).toBeLessThan(2);
  });

  test('walks the errors in reading order with e / E and zooms to each', async ({ page }) => {
    await open(page, 'case=ltb');
    const fit = await handle<{ scale: number }>(page, 'transform');
    const order: { side: Side; id: number }[] = [
      { side: 'pred', id: 2 },
      { side: 'gt', id: 1 },
      { side: 'pred', id: 1 },
    ];
    expect(await handle(page, 'errorOrder', 0)).toEqual(order);
    for (const want of order) {
      await page.keyboard.press('e');
      expect(await handle(page, 'selected')).toEqual({ view: 0, ...want });
    }
    await page.keyboard.press('e'); // wraps around
    expect(await handle(page, 'selected')).toEqual({ view: 0, ...order[0] });
    await page.keyboard.press('E');
    expect(await handle(page, 'selected')).toEqual({ view: 0, ...order[2] });
    expect((await handle<{ scale: number }>(page, 'transform')).scale).toBeGreaterThan(fit.scale);
    await expect(page.getByTestId('viewer-tooltip')).toContainText('prediction 1 · false positive (FP)');
    await page.keyboard.press('f');
    expect(await handle(page, 'transform')).toEqual(fit);
    const belowThreshold = async () => (await handle<Record<string, number>>(page, 'drawnCounts', 0))['pred:below_threshold'];
    await expect.poll(belowThreshold).toBe(1);
    await page.keyboard.press('1');
    expect((await handle<{ scale: number }>(page, 'transform')).scale).toBe(1);
    // Once the motion settles the layer is drawn again in full, culled to the view: zoomed in a
    // little more, the below-threshold box at x 1150–1250 is off screen.
    await page.keyboard.press('+');
    expect((await handle<{ scale: number }>(page, 'transform')).scale).toBeCloseTo(1.25, 9);
    await expect.poll(belowThreshold).toBeUndefined();
  });

  test('toggles layers with g, p, d, l; shows help with ?; ignores keys typed into a field', async ({ page }) => {
    await open(page, 'case=ltb');
    const drawn = () => handle<Record<string, number>>(page, 'drawnCounts', 0);
    const all = await drawn();
    expect(all).toMatchObject({ 'gt:tp': 2, 'gt:fn': 1, 'gt:dontcare': 1, 'pred:fp': 2 });

    await page.keyboard.press('g');
    await expect.poll(drawn).toEqual({ 'gt:dontcare': 1, 'pred:tp': 2, 'pred:fp': 2, 'pred:ignored': 1, 'pred:below_threshold': 1 });
    await page.keyboard.press('g');
    await page.keyboard.press('p');
    await expect.poll(drawn).toEqual({ 'gt:tp': 2, 'gt:fn': 1, 'gt:dontcare': 1 });
    await page.keyboard.press('p');
    await page.keyboard.press('d');
    await expect.poll(async () => (await drawn())['gt:dontcare']).toBeUndefined();
    await page.keyboard.press('d');
    await expect.poll(drawn).toEqual(all);
    await page.keyboard.press('l');
    await expect(page.getByTestId('layer-labels')).not.toBeChecked();

    await page.keyboard.press('?');
    const help = page.getByTestId('viewer-help');
    await expect(help).toBeVisible();
    await expect(help).toContainText('next error (FN / FP) in this case');
    await page.keyboard.press('Escape');
    await expect(help).toBeHidden();

    await page.evaluate(() => {
      const input = document.createElement('input');
      input.id = 'typing';
      document.body.prepend(input);
    });
    await page.locator('#typing').fill('');
    await page.locator('#typing').press('g');
    await expect(page.locator('#typing')).toHaveValue('g');
    expect(await drawn()).toEqual(all);
  });

  test('moves to the next and previous case with the arrow keys', async ({ page }) => {
    await open(page, 'case=ltb');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('case=chronicles');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('case=ltb');
    expect(await page.evaluate(() => window.__viewer!.caseMoves)).toEqual([1, -1]);
  });

  test('links zoom and pan of two models side by side', async ({ page }) => {
    await open(page, 'case=ltb&compare=2');
    const panes = () => handle<{ scale: number; x: number; y: number }[]>(page, 'paneTransforms');
    const start = await panes();
    expect(start).toHaveLength(2);
    expect(start[1]).toEqual(start[0]);

    const b0 = (await page.getByTestId('viewer-pane-0').boundingBox())!;
    await page.mouse.move(b0.x + b0.width * 0.3, b0.y + b0.height * 0.5);
    await page.mouse.wheel(0, -400);
    await expect.poll(async () => (await panes())[0].scale).toBeGreaterThan(start[0].scale * 1.5);
    const zoomed = await panes();
    expect(zoomed[1]).toEqual(zoomed[0]);

    const b1 = (await page.getByTestId('viewer-pane-1').boundingBox())!;
    await page.mouse.move(b1.x + 200, b1.y + 200);
    await page.mouse.down();
    await page.mouse.move(b1.x + 260, b1.y + 170, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => (await panes())[0].x).toBeCloseTo(zoomed[0].x + 60, 5);
    const panned = await panes();
    expect(panned[1]).toEqual(panned[0]);
    expect(panned[0].y).toBeCloseTo(zoomed[0].y - 30, 5);
    // Each pane draws its own model: model-b has 2 FPs and 2 misses... of its own.
    expect(await handle(page, 'sceneCounts', 1)).toMatchObject({ 'gt:fn': 1, 'pred:fp': 2, 'pred:tp': 2 });
  });

  test('lists both models\' predictions side by side; a row of the second selects in pane 1', async ({ page }) => {
    await open(page, 'case=ltb&compare=2');
    const panel = page.getByTestId('instance-panel');
    await expect(panel.locator('h4')).toHaveText(['Ground truth (4) — states vs model-a', 'Predictions — model-a (6)', 'Predictions — model-b (5)']);
    const counts = await handle<Record<string, number>>(page, 'sceneCounts', 1);
    expect(await panel.locator('[data-key^="1:pred:"]').count()).toBe(Object.entries(counts).filter(([k]) => k.startsWith('pred:')).reduce((n, [, c]) => n + c, 0));
    expect(await panel.locator('[data-key^="0:pred:"]').count()).toBe(6);
    // Reasons are text: model-b's ignored prediction keeps its sentence.
    await expect(panel.locator('[data-key="1:pred:1"]')).toContainText(LTB_SWALLOWED.reason);

    const before = await handle<{ scale: number }[]>(page, 'paneTransforms');
    await panel.locator('[data-key="1:pred:3"]').click();
    expect(await handle(page, 'selected')).toEqual({ view: 1, side: 'pred', id: 3 });
    await expect(panel.locator('[data-key="1:pred:3"]')).toHaveAttribute('aria-selected', 'true');
    await expect.poll(async () => (await handle<{ scale: number }[]>(page, 'paneTransforms'))[1].scale).toBeGreaterThan(before[1].scale * 2);
    // Zoomed onto model-b's FP (1000, 640)–(1200, 700): its centre sits at pane 1's centre,
    // and the explanation appears over pane 1, not pane 0.
    const [cx, cy] = await at(page, 1, 1100, 670);
    const box = (await page.getByTestId('viewer-pane-1').boundingBox())!;
    expect(Math.abs(cx - (box.x + box.width / 2))).toBeLessThan(2);
    expect(Math.abs(cy - (box.y + box.height / 2))).toBeLessThan(2);
    await expect(page.getByTestId('viewer-pane-1').locator('..').getByTestId('viewer-tooltip')).toBeVisible();
    await expect(page.getByTestId('viewer-tooltip')).toHaveCount(1);
  });

  test('overlays two models in one pane with a colour each', async ({ page }) => {
    await open(page, 'case=ltb&compare=overlay');
    await expect(page.getByTestId('model-legend')).toHaveText(['■ model-a', '■ model-b']);
    const counts = await handle<Record<string, number>>(page, 'sceneCounts', 0);
    expect(counts['pred:fp']).toBe(4);
    // model-b's FP at (1000, 640) in its overlay colour (vermillion is model-b's).
    expectColour(await pixel(page, 1000, 640, 1, 0), '#D55E00');
    // model-a's matched prediction 0 in model-a's blue (its left edge, clear of any label).
    expectColour(await pixel(page, 110, 150), '#0072B2');
  });

  test('shows characters without a font as code points, and the text side of a case', async ({ page }) => {
    await open(page, 'case=chronicles');
    await expect(page.locator('[data-key="0:gt:2"]')).toContainText('U+3134A');
    await expect(page.getByTestId('extraction-rule')).toContainText('stored extract (official)');
    await expect(page.getByTestId('raw-answer').locator('details')).not.toHaveAttribute('open', '');

    await open(page, 'case=tabench');
    await expect(page.getByTestId('case-query')).toContainText('What text is in the box?');
    await expect(page.getByTestId('diff-metrics')).toContainText('CER 0.0909');
    await expect(page.getByTestId('diff-pred').locator('[data-op="replace"]')).toHaveText(',');
    await expect(page.getByTestId('raw-answer')).toContainText('"TOTAL 12,50"');
    await expect(page.getByTestId('raw-answer').locator('summary')).toContainText('thinking');
    expect(await handle(page, 'sceneCounts', 0)).toEqual({ 'gt:info': 1 });
  });

  test('toggles the dataset overlay image and reports a missing image without losing the shapes', async ({ page }) => {
    await open(page, 'case=gansu');
    await page.keyboard.press('o');
    await expect(page.getByTestId('overlay-image')).toBeChecked();

    await open(page, 'case=ltb&image=missing');
    await expect(page.getByTestId('image-status')).toHaveText('image not found: img_12.jpg');
    expect(await handle<Record<string, number>>(page, 'drawnCounts', 0)).toMatchObject({ 'pred:fp': 2 });
  });

  test('draws a zoomed-out image from its 1/2 copy: made for it in a worker, or by the viewer for an image that came without copies', async ({ page }) => {
    // The width of the bitmap pane 0's image layer drew last (Pane.tsx drawImageLayer; Konva puts itself on window).
    const drawnWidth = () => page.evaluate(() => Number((window as unknown as { Konva: { stages: { getLayers(): { getCanvas(): { _canvas: HTMLCanvasElement } }[] }[] } }).Konva.stages[0].getLayers()[0].getCanvas()._canvas.dataset.imageWidth));
    // dense5000's image is 4000×3000; at the fit zoom (under 1/2) the 1/2 copy has a pixel per screen pixel.
    await open(page, 'case=dense5000');
    expect(await page.evaluate(() => window.__viewer!.handle!.transform().scale)).toBeLessThan(0.5);
    expect(await page.evaluate(() => window.__viewer!.workerLevels())).toBe(3); // 1/2, 1/4, 1/8
    await expect.poll(drawnWidth).toBe(2000);
    await open(page, 'case=dense5000&image=canvas');
    expect(await page.evaluate(() => window.__viewer!.workerLevels())).toBeNull();
    await expect.poll(drawnWidth).toBe(2000);
    // Zoomed in past 1/2, the whole image.
    await page.evaluate(() => window.__viewer!.handle!.setTransform({ scale: 0.8, x: 0, y: 0 }));
    await expect.poll(drawnWidth).toBe(4000);
  });

  test('asks the worker for an image’s copies only while a pane shows it: leaving the case stops them', async ({ page }) => {
    const work = () => page.evaluate(() => window.__viewer!.mipWork());
    await page.goto('/harness/viewer.html#case=dense5000');
    // The 4000×3000 image is on show and its copies asked for (a decode and three resizes in the
    // worker: hundreds of ms); the user moves to the previous case at once.
    await page.waitForFunction(() => window.__viewer?.mipWork().asked === 1, undefined, { polling: 'raf' });
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => window.__viewer?.fixture.name === 'gansu' && window.__viewer.ready);
    // gansu's own image (1395×2037) gets its copies; dense5000's request was cancelled, and the
    // worker sent nothing for it — not even by the time its copies would long have come.
    await expect.poll(async () => (await work()).made).toBe(1);
    await page.waitForTimeout(2000);
    expect(await work()).toEqual({ asked: 2, cancelled: 1, made: 1, late: 0 });
    expect(await page.evaluate(() => window.__viewer!.workerLevels())).toBe(2); // 1/2, 1/4
    // Back at dense5000 (a new image, decoded again): asked anew, and its copies come; gansu's,
    // made already, are nothing to cancel.
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => window.__viewer?.fixture.name === 'dense5000' && window.__viewer.ready);
    await expect.poll(async () => (await work()).made).toBe(2);
    expect(await work()).toEqual({ asked: 3, cancelled: 1, made: 2, late: 0 });
    expect(await page.evaluate(() => window.__viewer!.workerLevels())).toBe(3);
  });
});
