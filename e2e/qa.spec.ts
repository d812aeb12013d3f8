/**
 * Reviews in real Chromium, against the built pages (`npx vite build && npx playwright test
 * e2e/qa.spec.ts`):
 * - the harness page (dist/harness/qa.html): the real ReviewPanel, case counts, import/export,
 *   ConflictDialog and GT editor over six generated cases, on the page's real IndexedDB;
 * - a persistent Chromium profile killed with SIGKILL right after a burst of confirmed edits, then
 *   started again on the same profile: every confirmed edit must be there;
 * - the app on the LTB demo (`/#demo=ltb`): a review survives a reload.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './chromium';

const BASE = 'http://127.0.0.1:4173';
const HARNESS = '/harness/qa.html';
const STATUSES = ['unreviewed', 'ok', 'model_error', 'gt_wrong', 'gt_missing', 'ambiguous'] as const;

function caseStatus(page: Page, status: string) {
  return page.getByRole('group', { name: 'Case status' }).locator(`[data-status="${status}"]`);
}

function caseButton(page: Page, id: string) {
  return page.locator(`nav [data-case="${id}"]`);
}

async function openCase(page: Page, id: string) {
  await caseButton(page, id).click();
  await expect(page.getByTestId('current-case')).toHaveText(id);
}

async function exportFile(page: Page): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('qa-export').click()]);
  const path = await download.path();
  return readFileSync(path, 'utf8');
}

async function importFile(page: Page, text: string) {
  await page.getByTestId('qa-import-file').setInputFiles({ name: 'case_analysis.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(text, 'utf8') });
}

function qaFields(jsonl: string): string[] {
  // The raw `"qa":{…}` text of every line that has one, as written (byte comparison).
  return jsonl
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const o = JSON.parse(l) as { model: string; case_id: string; qa?: unknown };
      const i = l.indexOf('"qa":');
      return i < 0 ? '' : `${o.model}/${o.case_id} ${l.slice(i)}`;
    })
    .filter(Boolean);
}

test.describe('review panel (harness)', () => {
  test('a review is stored at once and is there after a reload', async ({ page }) => {
    await page.goto(`${HARNESS}#fp=e2e-reload`);
    await openCase(page, 'case-2');
    await caseStatus(page, 'gt_wrong').click();
    await expect(caseStatus(page, 'gt_wrong')).toHaveAttribute('aria-pressed', 'true');
    await page.getByLabel('Case tag').fill('crop');
    await page.getByLabel('Case tag').press('Enter');
    await expect(page.getByTestId('case-tags').locator('[data-tag="crop"]')).toBeVisible();
    await page.getByLabel('Case note').fill('GT box misses the last word — 𠀀');
    await expect(page.getByTestId('case-note-state')).toHaveAttribute('data-state', 'saved'); // debounce, no blur
    await page.locator('[data-select="pred-0"]').click();
    await page.getByRole('group', { name: 'Instance status' }).locator('[data-status="model_error"]').click();
    await expect(page.getByRole('group', { name: 'Instance status' }).locator('[data-status="model_error"]')).toHaveAttribute('aria-pressed', 'true');
    await expect(caseButton(page, 'case-2')).toHaveAttribute('data-status', 'gt_wrong');
    await expect(page.getByTestId('counts').locator('[data-count="gt_wrong"]')).toHaveText(/: 1$/);

    await page.reload();
    await openCase(page, 'case-2');
    await expect(caseStatus(page, 'gt_wrong')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByLabel('Case note')).toHaveValue('GT box misses the last word — 𠀀');
    await expect(page.getByTestId('case-tags').locator('[data-tag="crop"]')).toBeVisible();
    await page.locator('[data-select="pred-0"]').click();
    await expect(page.getByRole('group', { name: 'Instance status' }).locator('[data-status="model_error"]')).toHaveAttribute('aria-pressed', 'true');
  });

  test('keyboard: Shift+digit sets the status, n goes to the next unreviewed case, Ctrl+Z undoes after a reload', async ({ page }) => {
    await page.goto(`${HARNESS}#fp=e2e-keys`);
    await openCase(page, 'case-1');
    await page.locator('body').click({ position: { x: 5, y: 890 } }); // focus out of any field
    await page.keyboard.press('Shift+Digit2');
    await expect(caseButton(page, 'case-1')).toHaveAttribute('data-status', 'ok');
    await page.keyboard.press('n');
    await expect(page.getByTestId('current-case')).toHaveText('case-2');
    await page.keyboard.press('Shift+Digit5');
    await expect(caseButton(page, 'case-2')).toHaveAttribute('data-status', 'gt_missing');
    await page.reload();
    await expect(caseButton(page, 'case-2')).toHaveAttribute('data-status', 'gt_missing');
    await page.keyboard.press('Control+z');
    await expect(caseButton(page, 'case-2')).toHaveAttribute('data-status', 'unreviewed');
    await expect(caseButton(page, 'case-1')).toHaveAttribute('data-status', 'ok');
    await page.keyboard.press('Control+Shift+z');
    await expect(caseButton(page, 'case-2')).toHaveAttribute('data-status', 'gt_missing');
  });

  test('a note typed just before moving to another case is saved on the case it was typed on', async ({ page }) => {
    await page.goto(`${HARNESS}#fp=e2e-leave`);
    await openCase(page, 'case-4');
    await page.getByLabel('Case note').fill('typed, then left at once');
    await openCase(page, 'case-5'); // within the 400 ms debounce
    await expect(page.getByLabel('Case note')).toHaveValue('');
    await expect(caseButton(page, 'case-4')).toHaveAttribute('data-status', 'unreviewed');
    await openCase(page, 'case-4');
    await expect(page.getByLabel('Case note')).toHaveValue('typed, then left at once');
    await page.reload();
    await openCase(page, 'case-4');
    await expect(page.getByLabel('Case note')).toHaveValue('typed, then left at once');
    await openCase(page, 'case-5');
    await expect(page.getByLabel('Case note')).toHaveValue('');
  });

  test('a second tab on the same dataset sees the changes', async ({ page, context }) => {
    await page.goto(`${HARNESS}#fp=e2e-tabs`);
    const other = await context.newPage();
    await other.goto(`${HARNESS}#fp=e2e-tabs`);
    await openCase(page, 'case-3');
    await caseStatus(page, 'ambiguous').click();
    await expect(caseButton(other, 'case-3')).toHaveAttribute('data-status', 'ambiguous');
    await openCase(other, 'case-3');
    await expect(caseStatus(other, 'ambiguous')).toHaveAttribute('aria-pressed', 'true');
    await other.close();
  });

  test('export → clear → import gives back the same reviews, byte for byte; a different review is a conflict', async ({ page }) => {
    await page.goto(`${HARNESS}#fp=e2e-io`);
    const plan: [string, (typeof STATUSES)[number]][] = [
      ['case-1', 'gt_wrong'],
      ['case-3', 'ok'],
      ['case-5', 'ambiguous'],
    ];
    for (const [id, s] of plan) {
      await openCase(page, id);
      await caseStatus(page, s).click();
      await expect(caseButton(page, id)).toHaveAttribute('data-status', s);
    }
    await openCase(page, 'case-1');
    await page.getByLabel('Case note').fill('accent é and a "quote"');
    await page.getByLabel('Case note').press('Enter');
    await expect(page.getByTestId('case-note-state')).toHaveAttribute('data-state', 'saved');
    // A GT correction rides along: mark GT 1 (the box) don't-care.
    await page.mouse.click(await xOf(page, 130), await yOf(page, 185));
    await expect(page.getByTestId('gt-editor-selected')).toHaveText(/GT 1/);
    await page.getByTestId('gt-editor-toolbar').getByLabel("don't care").click(); // stored first, then shown checked
    await expect(page.getByTestId('corrections')).toContainText('"care":false');

    const first = await exportFile(page);
    expect(qaFields(first).length).toBe(4); // 3 reviews, case-1 also has the correction
    expect(first).toContain('"corrections":[{');

    await page.getByTestId('clear').click();
    await expect(page.getByTestId('counts').locator('[data-count="unreviewed"]')).toHaveText(/: 6$/);
    await expect(page.getByTestId('corrections')).toHaveText('[]');

    await importFile(page, first);
    await expect(page.getByTestId('qa-io-message')).toContainText('Imported 3 review(s) and 1 correction(s)');
    for (const [id, s] of plan) await expect(caseButton(page, id)).toHaveAttribute('data-status', s);
    await expect(page.getByTestId('corrections')).toContainText('"care":false');
    const second = await exportFile(page);
    expect(second).toBe(first);

    // Same file again: identical reviews are no-ops (no dialog).
    await importFile(page, first);
    await expect(page.getByTestId('qa-io-message')).toContainText('4 already here');
    await expect(page.getByTestId('conflict-dialog')).toHaveCount(0);

    // Change one review here, import the old file: a conflict, shown, nothing overwritten yet.
    await openCase(page, 'case-3');
    await caseStatus(page, 'model_error').click();
    await expect(caseButton(page, 'case-3')).toHaveAttribute('data-status', 'model_error');
    await importFile(page, first);
    const dialog = page.getByTestId('conflict-dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId('conflict')).toHaveCount(1);
    await expect(dialog.getByTestId('conflict')).toContainText('case-3');
    await expect(caseButton(page, 'case-3')).toHaveAttribute('data-status', 'model_error');
    await dialog.getByLabel('take theirs').check();
    await dialog.getByTestId('conflict-apply').click();
    await expect(dialog).toHaveCount(0);
    await expect(caseButton(page, 'case-3')).toHaveAttribute('data-status', 'ok');
  });
});

/** Screen position of an image point in the harness editor (scale 1, stage at the editor's origin). */
async function xOf(page: Page, x: number): Promise<number> {
  const b = (await page.getByTestId('gt-editor').boundingBox())!;
  return b.x + x;
}
async function yOf(page: Page, y: number): Promise<number> {
  const b = (await page.getByTestId('gt-editor').boundingBox())!;
  return b.y + y;
}

test.describe('GT editor (harness)', () => {
  test('dragging a polygon vertex stores a correction beside the original GT, and it survives a reload', async ({ page }) => {
    await page.goto(`${HARNESS}#fp=e2e-gt`);
    await openCase(page, 'case-1');
    const original = await page.getByTestId('original-gt').textContent();
    // case-1's GT 0 is the polygon (50,50)-(170,100).
    await page.mouse.click(await xOf(page, 110), await yOf(page, 75));
    await expect(page.getByTestId('gt-editor-selected')).toHaveText(/GT 0/);
    await page.mouse.move(await xOf(page, 170), await yOf(page, 100));
    await page.mouse.down();
    await page.mouse.move(await xOf(page, 185), await yOf(page, 120), { steps: 5 });
    await page.mouse.move(await xOf(page, 200), await yOf(page, 130), { steps: 5 });
    await page.mouse.up();
    await expect(page.getByTestId('corrections')).toHaveText('[{"case_id":"case-1","gt_id":0,"shape":{"type":"polygon","points":[50,50,170,50,200,130,50,100]}}]');
    await expect(page.getByTestId('original-gt')).toHaveText(original!);

    // Add a box by click-dragging in "Add box" mode.
    await page.getByTestId('gt-editor-toolbar').locator('[data-mode="addBox"]').click();
    await page.mouse.move(await xOf(page, 250), await yOf(page, 220));
    await page.mouse.down();
    await page.mouse.move(await xOf(page, 300), await yOf(page, 260), { steps: 4 });
    await page.mouse.up();
    await expect(page.getByTestId('corrections')).toContainText('{"case_id":"case-1","gt_id":null,"shape":{"type":"box","box":[250,220,300,260]},"care":true}');

    await page.reload();
    await openCase(page, 'case-1');
    await expect(page.getByTestId('corrections')).toContainText('"points":[50,50,170,50,200,130,50,100]');
    await expect(page.getByTestId('corrections')).toContainText('"box":[250,220,300,260]');
    // Undo (Ctrl+Z) takes back the added box, then the vertex move.
    await page.locator('body').click({ position: { x: 5, y: 890 } });
    await page.keyboard.press('Control+z');
    await expect(page.getByTestId('corrections')).not.toContainText('"box":[250,220,300,260]');
    await page.keyboard.press('Control+z');
    await expect(page.getByTestId('corrections')).toHaveText('[]');
  });
});

/** The main browser process of a persistent profile (the one without --type=), by its command line. */
function browserPid(userDataDir: string): number | null {
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    let cmd: string;
    try {
      cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    const args = cmd.split('\0');
    if (args.some((a) => a === `--user-data-dir=${userDataDir}`) && !args.some((a) => a.startsWith('--type='))) return Number(d);
  }
  return null;
}

test.describe('crash safety', () => {
  test.skip(!existsSync('/proc/self/cmdline'), 'needs /proc to find the browser process to kill');

  test('every confirmed edit survives the browser being killed in the middle of a burst', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'benchlens-profile-'));
    const launch = () => chromium.launchPersistentContext(dir, { executablePath: chromiumPath(), args: CHROMIUM_ARGS, viewport: { width: 1400, height: 900 } });
    try {
      let ctx = await launch();
      let page = ctx.pages()[0] ?? (await ctx.newPage());
      await page.goto(`${BASE}${HARNESS}#fp=e2e-crash`);
      await page.locator('body').click({ position: { x: 5, y: 890 } });

      // A burst: six cases, a status each by keyboard, as fast as the page takes them.
      const expected = new Map<string, string>();
      for (let i = 1; i <= 6; i++) {
        const id = `case-${i}`;
        await caseButton(page, id).click();
        const s = STATUSES[1 + ((i * 7) % 5)];
        await page.keyboard.press(`Shift+Digit${STATUSES.indexOf(s) + 1}`);
        expected.set(id, s);
      }
      // Then a note typed and confirmed ("saved"), and one left mid-debounce (not confirmed).
      await page.getByLabel('Case note').fill('confirmed note');
      await page.getByLabel('Case note').press('Enter');
      await expect(page.getByTestId('case-note-state')).toHaveAttribute('data-state', 'saved');
      // Confirmed = shown from the database by the case list.
      for (const [id, s] of expected) await expect(caseButton(page, id)).toHaveAttribute('data-status', s);
      await page.getByLabel('Case note').fill('confirmed note + typing…');

      const pid = browserPid(dir);
      expect(pid, 'the browser process of the persistent profile').not.toBeNull();
      process.kill(pid!, 'SIGKILL');
      await ctx.close().catch(() => undefined);

      ctx = await launch();
      page = ctx.pages()[0] ?? (await ctx.newPage());
      await page.goto(`${BASE}${HARNESS}#fp=e2e-crash`);
      for (const [id, s] of expected) await expect(caseButton(page, id)).toHaveAttribute('data-status', s);
      await openCase(page, 'case-6');
      await expect(page.getByLabel('Case note')).toHaveValue(/^confirmed note/);
      await ctx.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test.describe('reviews in the app (LTB demo)', () => {
  // BENCHLENS_QA_DEMO=tabench runs the same test on another demo (while LTB's is not built).
  const demo = process.env.BENCHLENS_QA_DEMO ?? 'ltb';
  test(`a review left on a demo case is there after a reload (${demo})`, async ({ page }) => {
    await page.goto(`/#demo=${demo}`);
    const row = page.getByTestId('case-row').nth(1);
    await expect(row).toBeVisible({ timeout: 60_000 });
    const id = (await row.getAttribute('data-case-id'))!;
    await row.click();
    const panel = page.getByTestId('review-panel');
    await expect(panel).toBeVisible();
    await expect(panel).toHaveAttribute('data-loading', 'false');
    await caseStatus(page, 'gt_missing').click();
    await expect(caseStatus(page, 'gt_missing')).toHaveAttribute('aria-pressed', 'true');
    await page.getByLabel('Case note').fill('two words unlabelled');
    await page.getByLabel('Case note').press('Enter');
    await expect(page.getByTestId('case-note-state')).toHaveAttribute('data-state', 'saved');

    await page.reload();
    await expect(page.locator(`[data-testid="case-row"][data-case-id="${id}"]`)).toHaveAttribute('aria-selected', 'true', { timeout: 60_000 });
    await expect(caseStatus(page, 'gt_missing')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByLabel('Case note')).toHaveValue('two words unlabelled');
  });

  // Needs the shell to mount GtEditorOverlay in the viewer and to show the corrected-GT numbers
  // (worker scoreCorrected) beside the official ones; neither is wired yet. The harness test
  // above covers the editor and the stored correction.
  test.fixme('editing a GT polygon changes the corrected number, never the official one', async () => {});
});
