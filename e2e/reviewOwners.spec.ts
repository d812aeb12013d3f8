/**
 * Reviews belong to what they are about, in real Chromium (`npx vite build && npx playwright test
 * e2e/reviewOwners.spec.ts`):
 * - two tabs on one dataset: a note confirmed in one tab is never overwritten by a stale draft in
 *   the other; the other tab shows the newer value; a real conflict shows both versions, kept;
 * - storage full (CDP Storage.overrideQuotaForOrigin with a 1-byte quota): the review stays on
 *   screen, is marked unsaved, is in the export, and is written once space returns;
 * - the app on the shared ltb-mini with a reference prediction file: a review of a prediction
 *   survives renaming the model, removing it and adding the same file under another name; a GT
 *   review survives changing which models are loaded, and the prediction review does not leak to
 *   another file;
 * - a database written as version 1 of the app (reviews keyed by model name) upgraded in place on
 *   the LTB demo: GT parts on the dataset, the rest on the file loaded under that name.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { makeDemo } from '../src/core/benchmarks/ltb/demo';
import { BenchSession } from '../src/core/session';
import { HAS_SHARED, shared } from '../test/shared';
import { showReport, showWorkspace } from './helpers';

const HARNESS = '/harness/qa.html';

function caseStatus(page: Page, status: string) {
  return page.getByRole('group', { name: 'Case status' }).locator(`[data-status="${status}"]`);
}

async function openCase(page: Page, id: string) {
  await page.locator(`nav [data-case="${id}"]`).click();
  await expect(page.getByTestId('current-case')).toHaveText(id);
}

async function exportText(page: Page): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('qa-export').click()]);
  return readFileSync(await download.path(), 'utf8');
}

/** The stored rows of the page's IndexedDB (raw API, no app code). */
async function storedReviews(page: Page): Promise<{ subject: string; case_id: string; status: string; note?: string }[]> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('benchlens');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const req = open.result.transaction('subjectReviews').objectStore('subjectReviews').getAll();
          req.onerror = () => reject(req.error);
          req.onsuccess = () => {
            open.result.close();
            resolve(req.result);
          };
        };
      }),
  );
}

test.describe('two tabs on one dataset', () => {
  test('a confirmed note is never overwritten by a stale draft; the other tab shows it; a conflict keeps both', async ({ page, context }) => {
    const url = `${HARNESS}#fp=e2e-owners-tabs`;
    await page.goto(url);
    const tabB = await context.newPage();
    // Tab B's timers are under the test's control: its draft is not saved until we let time run.
    await tabB.clock.install();
    await tabB.goto(url);
    await openCase(page, 'case-2');
    await openCase(tabB, 'case-2');

    await page.getByLabel('Case note').fill('base');
    await page.getByLabel('Case note').press('Enter');
    await expect(page.getByTestId('case-note-state')).toHaveAttribute('data-state', 'saved');
    // B has no draft: it follows A.
    await expect(tabB.getByLabel('Case note')).toHaveValue('base');

    // B starts a draft from "base"; before its debounce fires, A confirms another note.
    await tabB.getByLabel('Case note').fill('draft typed in B');
    await expect(tabB.getByTestId('case-note-state')).toHaveAttribute('data-state', 'dirty');
    await page.getByLabel('Case note').fill('confirmed in A');
    await page.getByLabel('Case note').press('Enter');
    await expect(page.getByTestId('case-note-state')).toHaveAttribute('data-state', 'saved');

    // B's save (based on "base") comes too late: refused, both shown, nothing overwritten.
    await tabB.clock.runFor(1000);
    const conflict = tabB.getByTestId('case-note-conflict');
    await expect(conflict).toBeVisible();
    await expect(tabB.getByTestId('case-note-theirs')).toHaveText('confirmed in A');
    await expect(tabB.getByTestId('case-note-mine')).toHaveText('draft typed in B');
    await expect(tabB.getByLabel('Case note')).toHaveValue('draft typed in B'); // the draft is kept
    const mid = await storedReviews(page);
    expect(mid.filter((r) => r.case_id === 'case-2').map((r) => r.note)).toEqual(['confirmed in A']);
    await page.reload();
    await openCase(page, 'case-2');
    await expect(page.getByLabel('Case note')).toHaveValue('confirmed in A');

    // B keeps both: written on top of A's, and A shows it live.
    await tabB.getByTestId('case-note-keep-both').click();
    await tabB.clock.runFor(1000);
    await expect(tabB.getByTestId('case-note-state')).toHaveAttribute('data-state', 'saved');
    await expect(page.getByLabel('Case note')).toHaveValue('confirmed in A\n---\ndraft typed in B');

    // A status confirmed in A shows in B at once (B had no edit of its own in flight).
    await caseStatus(page, 'ok').click();
    await expect(caseStatus(page, 'ok')).toHaveAttribute('aria-pressed', 'true');
    await expect(caseStatus(tabB, 'ok')).toHaveAttribute('aria-pressed', 'true'); // B shows A's value
    await tabB.close();
  });
});

test.describe('two tabs, one of them deaf to change notices', () => {
  test('a status picked on a stale view is refused and both are shown; "use mine" then writes it', async ({ page, context }) => {
    const url = `${HARNESS}#fp=e2e-owners-stale-status`;
    const tabB = await context.newPage();
    // B never hears of A's edits (as if the notice were lost): its view of case-6 goes stale.
    await tabB.addInitScript(() => {
      class Deaf {
        constructor(readonly name: string) {}
        postMessage() {}
        addEventListener() {}
        removeEventListener() {}
        close() {}
      }
      (globalThis as { BroadcastChannel: unknown }).BroadcastChannel = Deaf;
    });
    await page.goto(url);
    await tabB.goto(url);
    await openCase(page, 'case-6');
    await openCase(tabB, 'case-6');
    await expect(tabB.getByTestId('review-panel')).toHaveAttribute('data-loading', 'false');

    await caseStatus(page, 'gt_missing').click();
    await expect(caseStatus(page, 'gt_missing')).toHaveAttribute('aria-pressed', 'true');
    await expect(caseStatus(tabB, 'unreviewed')).toHaveAttribute('aria-pressed', 'true'); // stale

    await caseStatus(tabB, 'ok').click();
    await expect(tabB.getByTestId('review-conflict')).toBeVisible();
    await expect(tabB.getByTestId('review-conflict-theirs')).toHaveText('gt_missing');
    await expect(tabB.getByTestId('review-conflict-mine')).toHaveText('ok');
    await expect(caseStatus(tabB, 'gt_missing')).toHaveAttribute('aria-pressed', 'true'); // B now shows what is stored
    expect((await storedReviews(page)).filter((r) => r.case_id === 'case-6').map((r) => `${r.subject}:${r.status}`)).toEqual(['gt:gt_missing']);

    await tabB.getByTestId('review-conflict-use-mine').click();
    await expect(tabB.getByTestId('review-conflict')).toHaveCount(0);
    await expect(caseStatus(tabB, 'ok')).toHaveAttribute('aria-pressed', 'true');
    // "ok" is the model's own status; the GT review A made stays (shown for the other models).
    expect((await storedReviews(page)).filter((r) => r.case_id === 'case-6').map((r) => `${r.subject.replace(/:.*/, '')}:${r.status}`).sort()).toEqual(['gt:gt_missing', 'pred:ok']);
    await tabB.close();
  });
});

test.describe('storage full', () => {
  test('the review stays on screen marked unsaved, is exported, and is saved once space returns', async ({ page, context }) => {
    const url = `${HARNESS}#fp=e2e-owners-quota`;
    await page.goto(url);
    await openCase(page, 'case-4');
    await expect(page.getByTestId('review-panel')).toHaveAttribute('data-loading', 'false');
    const origin = new URL(page.url()).origin;
    const cdp = await context.newCDPSession(page);
    await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 1 });
    try {
      await caseStatus(page, 'model_error').click();
      await page.getByLabel('Case note').fill('written while the disk was full');
      await page.getByLabel('Case note').press('Enter');
      // Shown, never reverted, marked unsaved; the storage error is said.
      await expect(page.getByTestId('storage-error')).toContainText('storage is full');
      await expect(page.getByTestId('review-unsaved')).toBeVisible();
      await expect(page.getByTestId('review-panel')).toHaveAttribute('data-unsaved', 'true');
      await expect(caseStatus(page, 'model_error')).toHaveAttribute('aria-pressed', 'true');
      await expect(page.getByLabel('Case note')).toHaveValue('written while the disk was full');
      await expect(page.getByTestId('case-note-state')).toHaveAttribute('data-state', 'unsaved'); // not "saved"
      await expect(page.locator('nav [data-case="case-4"]')).toHaveAttribute('data-status', 'model_error');
      expect((await storedReviews(page)).filter((r) => r.case_id === 'case-4')).toEqual([]); // not on disk
      // Moving away and back keeps it (memory, not the component).
      await openCase(page, 'case-5');
      await openCase(page, 'case-4');
      await expect(page.getByLabel('Case note')).toHaveValue('written while the disk was full');
      // The export includes it.
      const file = await exportText(page);
      const line = file.split('\n').find((l) => l.includes('"case_id":"case-4"') && l.includes('"model":"model-a"'))!;
      expect(JSON.parse(line).qa).toMatchObject({ status: 'model_error', note: 'written while the disk was full' });
      // A retry while still full changes nothing.
      await page.getByTestId('retry-save').click();
      await expect(page.getByTestId('review-unsaved')).toBeVisible();
    } finally {
      await cdp.send('Storage.overrideQuotaForOrigin', { origin });
    }
    // Space is back: the backoff retry writes it without any click.
    await expect(page.getByTestId('review-unsaved')).toHaveCount(0, { timeout: 20_000 });
    await expect(page.getByTestId('review-panel')).toHaveAttribute('data-unsaved', 'false');
    await expect(page.getByTestId('case-note-state')).not.toHaveAttribute('data-state', 'unsaved');
    const rows = (await storedReviews(page)).filter((r) => r.case_id === 'case-4');
    expect(rows.map((r) => [r.status, r.note])).toEqual([['model_error', 'written while the disk was full']]);
    await page.reload();
    await openCase(page, 'case-4');
    await expect(caseStatus(page, 'model_error')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByLabel('Case note')).toHaveValue('written while the disk was full');
  });
});

test.describe('reviews in the app follow the data, not the names', () => {
  test.skip(!HAS_SHARED, 'needs ../shared (ltb-mini and the LTB reference predictions)');

  // Cases are in the workspace tab, the Models panel beside the report.
  async function selectCase(page: Page, id: string) {
    await showWorkspace(page);
    const row = page.locator(`[data-testid="case-row"][data-case-id="${id}"]`);
    await row.click();
    await expect(row).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('review-panel')).toHaveAttribute('data-loading', 'false');
  }

  async function addFile(page: Page, name: string, path: string, model: string) {
    await showReport(page);
    await page.getByTestId('prediction-files-input').setInputFiles({ name, mimeType: 'application/octet-stream', buffer: readFileSync(path) });
    await expect(page.getByRole('button', { name: `Remove ${model}`, exact: true })).toBeVisible({ timeout: 60_000 });
  }

  test('rename, remove and re-add under another file name keeps a prediction review; GT reviews stay whatever models are loaded', async ({ page }) => {
    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.goto('/');
    await page.getByTestId('dataset-folder-input').setInputFiles(shared('data/ltb-mini'));
    await expect(page.getByTestId('dataset-summary')).toBeVisible({ timeout: 60_000 });
    const object = shared('reference/ltb/ltbmini-object.json');
    await addFile(page, 'ltbmini-object.json', object, 'ltbmini-object');
    await showWorkspace(page);
    await expect(page.getByTestId('case-row').nth(2)).toBeVisible({ timeout: 60_000 });
    const [predCase, gtCase] = await Promise.all([1, 2].map((i) => page.getByTestId('case-row').nth(i).getAttribute('data-case-id')));

    // A review of the prediction (model error + note) and a review of the GT (GT missing).
    await selectCase(page, predCase!);
    await caseStatus(page, 'model_error').click();
    await expect(caseStatus(page, 'model_error')).toHaveAttribute('aria-pressed', 'true');
    await page.getByLabel('Case note').fill('misses the rotated word');
    await page.getByLabel('Case note').press('Enter');
    await expect(page.getByTestId('case-note-state')).toHaveAttribute('data-state', 'saved');
    await selectCase(page, gtCase!);
    await caseStatus(page, 'gt_missing').click();
    await expect(caseStatus(page, 'gt_missing')).toHaveAttribute('aria-pressed', 'true');
    const content = await page.getByTestId('review-panel').getAttribute('data-prediction');
    expect(content).toMatch(/^[0-9a-f]{16}$/);

    // Rename the model (the Models panel sits beside the report).
    await showReport(page);
    await page.getByRole('button', { name: 'Rename ltbmini-object', exact: true }).click();
    await page.getByLabel('New name for ltbmini-object').fill('my detector');
    await page.getByLabel('New name for ltbmini-object').press('Enter');
    await expect(page.getByRole('button', { name: 'Remove my detector', exact: true })).toBeVisible();
    await selectCase(page, predCase!);
    await expect(caseStatus(page, 'model_error')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByLabel('Case note')).toHaveValue('misses the rotated word');

    // Remove it, then add the same bytes under another file name.
    await showReport(page);
    await page.getByRole('button', { name: 'Remove my detector', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Remove my detector', exact: true })).toHaveCount(0);
    await addFile(page, 'run-2026-final.json', object, 'run-2026-final');
    await selectCase(page, predCase!);
    await expect(page.getByTestId('review-panel')).toHaveAttribute('data-prediction', content!);
    await expect(caseStatus(page, 'model_error')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByLabel('Case note')).toHaveValue('misses the rotated word');
    await selectCase(page, gtCase!);
    await expect(caseStatus(page, 'gt_missing')).toHaveAttribute('aria-pressed', 'true');

    // Another prediction file alone: the GT review is there, the other file's review is not.
    await addFile(page, 'ltbmini-mmocr.jsonl', shared('reference/ltb/ltbmini-mmocr.jsonl'), 'ltbmini-mmocr');
    await showReport(page);
    await page.getByRole('button', { name: 'Remove run-2026-final', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Remove run-2026-final', exact: true })).toHaveCount(0);
    await selectCase(page, gtCase!);
    await expect(page.getByTestId('review-panel')).not.toHaveAttribute('data-prediction', content!);
    await expect(caseStatus(page, 'gt_missing')).toHaveAttribute('aria-pressed', 'true');
    await selectCase(page, predCase!);
    await expect(caseStatus(page, 'unreviewed')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByLabel('Case note')).toHaveValue('');

    // What IndexedDB holds says the same: one GT review, one review of that file's content, none
    // keyed by a model or file name.
    const rows = await storedReviews(page);
    expect(rows.map((r) => r.subject).sort()).toEqual(['gt', `pred:${content}`]);
  });
});

test.describe('a browser holding version-1 reviews (keyed by model name)', () => {
  test('upgrades in place: the GT part goes to the dataset, the rest to the file loaded under that name', async ({ page }) => {
    // The LTB demo as the app will open it: its dataset key, its first model (A), two case ids.
    const demo = await makeDemo();
    const session = await BenchSession.open(demo.source, 'ltb');
    for (const p of demo.predictions) await session.addPredictions(p);
    const fp = session.info.fingerprint;
    const [modelA, modelB] = session.modelNames;
    const results = await session.score(session.resolveProtocol());
    const [gtCase, predCase] = results[0].cases.slice(1, 3).map((c) => c.case_id);

    // A page of the app's origin that runs no app code writes the database exactly as version 1
    // of the app declared it (Dexie version(1) = IndexedDB version 10).
    await page.route('**/v1-writer.html', (r) => r.fulfill({ contentType: 'text/html', body: '<!doctype html><title>v1</title>' }));
    await page.goto('/v1-writer.html');
    const t = '2025-06-01T00:00:00.000Z';
    const v1Rows = [
      { fingerprint: fp, model: modelA, case_id: gtCase, status: 'gt_wrong', note: 'v1: the GT box is too small', updated_at: t },
      { fingerprint: fp, model: modelA, case_id: predCase, status: 'model_error', note: 'v1: misses a word', updated_at: t },
      { fingerprint: fp, model: modelB, case_id: predCase, status: 'ok', updated_at: t },
    ];
    await page.evaluate(
      (rows) =>
        new Promise<void>((resolve, reject) => {
          const req = indexedDB.open('benchlens', 10);
          req.onupgradeneeded = () => {
            const db = req.result;
            const reviews = db.createObjectStore('reviews', { keyPath: ['fingerprint', 'model', 'case_id'] });
            reviews.createIndex('fingerprint', 'fingerprint');
            reviews.createIndex('[fingerprint+status]', ['fingerprint', 'status']);
            reviews.createIndex('[fingerprint+case_id]', ['fingerprint', 'case_id']);
            reviews.createIndex('updated_at', 'updated_at');
            const corrections = db.createObjectStore('corrections', { keyPath: 'id' });
            corrections.createIndex('fingerprint', 'fingerprint');
            corrections.createIndex('[fingerprint+case_id]', ['fingerprint', 'case_id']);
            db.createObjectStore('history', { keyPath: 'seq', autoIncrement: true }).createIndex('[fingerprint+undone+seq]', ['fingerprint', 'undone', 'seq']);
            db.createObjectStore('recentFolders', { keyPath: 'id', autoIncrement: true }).createIndex('lastOpened', 'lastOpened');
            db.createObjectStore('meta', { keyPath: 'key' });
          };
          req.onerror = () => reject(req.error);
          req.onsuccess = () => {
            const tx = req.result.transaction('reviews', 'readwrite');
            for (const r of rows) tx.objectStore('reviews').put(r);
            tx.oncomplete = () => {
              req.result.close();
              resolve();
            };
            tx.onerror = () => reject(tx.error);
          };
        }),
      v1Rows,
    );

    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.goto(`/#demo=ltb&case=${encodeURIComponent(predCase)}`);
    const panel = page.getByTestId('review-panel');
    await expect(panel).toHaveAttribute('data-loading', 'false', { timeout: 60_000 });
    await expect(caseStatus(page, 'model_error')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByLabel('Case note')).toHaveValue('v1: misses a word');
    await expect(page.getByTestId('status-owner')).toContainText(modelA);
    const row = page.locator(`[data-testid="case-row"][data-case-id="${gtCase}"]`);
    await row.click();
    await expect(caseStatus(page, 'gt_wrong')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByLabel('GT note (every model)')).toHaveValue('v1: the GT box is too small');

    // Stored: no name keys left once both models are loaded; every v1 fact is there.
    const contentA = await panel.getAttribute('data-prediction');
    await expect
      .poll(async () => (await storedReviews(page)).map((r) => `${r.subject === 'gt' ? 'gt' : r.subject === `pred:${contentA}` ? 'A' : r.subject.startsWith('pred:') ? 'B' : r.subject}|${r.case_id}|${r.status}|${r.note ?? ''}`).sort())
      .toEqual(
        [`gt|${gtCase}|gt_wrong|v1: the GT box is too small`, `A|${predCase}|model_error|v1: misses a word`, `B|${predCase}|ok|`].sort(),
      );
  });
});
