import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import Dexie from 'dexie';
import { BenchlensDB } from './schema';
import { claimLegacyReviews, deleteReview, getLiveReview, getReview, listByDataset, listLive, putInstanceReview, putReview, redo, ReviewConflictError, setCaseStatus, statusRev, undo, undoDepth } from './reviewsRepo';
import { isUnsaved, resetUnsaved, retryUnsaved, unsavedCount } from './pendingReviews';
import { GT_SUBJECT } from './subjects';
import { addCorrection, deleteCorrection, listCorrections, updateCorrection } from './correctionsRepo';
import { setClock, setHistoryLimit } from './history';
import { closeChannel, onChange, type ChangeNotice } from './changes';
import { onStorageError, StorageError, isQuotaError } from './storageErrors';

const FP = 'ltb:3:0123456789abcdef';
/** Subjects of two prediction files (by content) — what used to be models m1 and m2. */
const m1 = 'pred:1111111111111111';
const m2 = 'pred:2222222222222222';
let dbName: string;
let db: BenchlensDB;
let tick = 0;

beforeEach(async () => {
  dbName = `benchlens-test-${Math.random().toString(36).slice(2)}`;
  db = new BenchlensDB(dbName);
  tick = 0;
  setClock(() => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)).toISOString());
});
afterEach(async () => {
  db.close();
  await Dexie.delete(dbName);
});
afterAll(() => closeChannel());

describe('reviews repository', () => {
  it('stores a review the moment it is made and reads it back', async () => {
    await putReview(FP, m1, 'img_1', { status: 'gt_wrong' }, db);
    const r = await getReview(FP, m1, 'img_1', db);
    expect(r?.status).toBe('gt_wrong');
    expect(r?.updated_at).toMatch(/^2026-01-01T/);
    await putReview(FP, m1, 'img_1', { note: 'box misses the last word', tags: ['crop', ' crop ', ''] }, db);
    const r2 = await getReview(FP, m1, 'img_1', db);
    expect(r2).toMatchObject({ status: 'gt_wrong', note: 'box misses the last word', tags: ['crop'] });
  });

  it('keys reviews by dataset fingerprint, subject and case', async () => {
    await putReview(FP, m1, 'a', { status: 'ok' }, db);
    await putReview(FP, m2, 'a', { status: 'model_error' }, db);
    await putReview('other:1:ffff', m1, 'a', { status: 'ambiguous' }, db);
    expect((await listByDataset(FP, db)).map((r) => `${r.subject}/${r.status}`).sort()).toEqual([`${m1}/ok`, `${m2}/model_error`]);
  });

  it('stores a GT status on the dataset (for every model) and any other status on the prediction file', async () => {
    await setCaseStatus(FP, m1, 'a', 'model_error', db);
    await setCaseStatus(FP, m1, 'a', 'gt_wrong', db);
    // The GT status is the dataset's; m1's own status was cleared so the choice shows.
    expect((await getReview(FP, GT_SUBJECT, 'a', db))?.status).toBe('gt_wrong');
    expect(await getReview(FP, m1, 'a', db)).toBeUndefined();
    // Model 2 sets its own status: the GT review stays for model 1.
    await setCaseStatus(FP, m2, 'a', 'ok', db);
    expect((await getReview(FP, GT_SUBJECT, 'a', db))?.status).toBe('gt_wrong');
    expect((await getReview(FP, m2, 'a', db))?.status).toBe('ok');
    // "Unreviewed" clears what is shown: m2's own status first, then (m1 has none) the GT status.
    await setCaseStatus(FP, m2, 'a', 'unreviewed', db);
    expect(await getReview(FP, m2, 'a', db)).toBeUndefined();
    expect((await getReview(FP, GT_SUBJECT, 'a', db))?.status).toBe('gt_wrong');
    await setCaseStatus(FP, m1, 'a', 'unreviewed', db);
    expect(await getReview(FP, GT_SUBJECT, 'a', db)).toBeUndefined();
    // A status that moved between the two rows is one undo step.
    await setCaseStatus(FP, m1, 'b', 'ambiguous', db);
    await setCaseStatus(FP, m1, 'b', 'gt_missing', db);
    await undo(FP, db);
    expect((await getReview(FP, m1, 'b', db))?.status).toBe('ambiguous');
    expect(await getReview(FP, GT_SUBJECT, 'b', db)).toBeUndefined();
  });

  it('does not store a review that says nothing', async () => {
    await putReview(FP, m1, 'a', { status: 'ok' }, db);
    await putReview(FP, m1, 'a', { status: 'unreviewed' }, db);
    expect(await getReview(FP, m1, 'a', db)).toBeUndefined();
  });

  it('stores a GT instance review on the dataset and a prediction review on the prediction file', async () => {
    await putInstanceReview(FP, m1, 'a', { side: 'pred', id: 4, status: 'model_error' }, db);
    await putInstanceReview(FP, m1, 'a', { side: 'gt', id: 2, status: 'gt_wrong', note: 'should be "EXIT"' }, db);
    await putInstanceReview(FP, m1, 'a', { side: 'gt', id: 1, status: 'ok' }, db);
    expect((await getReview(FP, m1, 'a', db))?.instances).toEqual([{ side: 'pred', id: 4, status: 'model_error' }]);
    expect((await getReview(FP, GT_SUBJECT, 'a', db))?.instances).toEqual([
      { side: 'gt', id: 1, status: 'ok' },
      { side: 'gt', id: 2, status: 'gt_wrong', note: 'should be "EXIT"' },
    ]);
    await putInstanceReview(FP, m1, 'a', { side: 'pred', id: 4, status: 'unreviewed' }, db);
    expect(await getReview(FP, m1, 'a', db)).toBeUndefined();
  });

  it('undoes and redoes every edit, in order', async () => {
    await putReview(FP, m1, 'a', { status: 'ok' }, db);
    await putReview(FP, m1, 'a', { status: 'gt_wrong' }, db);
    await putReview(FP, m1, 'b', { status: 'ambiguous' }, db);
    expect(await undoDepth(FP, db)).toEqual({ undo: 3, redo: 0 });

    await undo(FP, db);
    expect(await getReview(FP, m1, 'b', db)).toBeUndefined();
    await undo(FP, db);
    expect((await getReview(FP, m1, 'a', db))?.status).toBe('ok');
    await redo(FP, db);
    expect((await getReview(FP, m1, 'a', db))?.status).toBe('gt_wrong');
    expect(await undoDepth(FP, db)).toEqual({ undo: 2, redo: 1 });

    // A new edit drops the redo stack.
    await putReview(FP, m1, 'c', { status: 'ok' }, db);
    expect(await undoDepth(FP, db)).toEqual({ undo: 3, redo: 0 });
    expect(await redo(FP, db)).toEqual([]);
  });

  it('folds a note typed in several saves into one undo step', async () => {
    await putReview(FP, m1, 'a', { status: 'gt_wrong' }, db);
    await putReview(FP, m1, 'a', { note: 'bo' }, db);
    await putReview(FP, m1, 'a', { note: 'box too' }, db);
    await putReview(FP, m1, 'a', { note: 'box too small' }, db);
    expect((await undoDepth(FP, db)).undo).toBe(2);
    await undo(FP, db);
    const r = await getReview(FP, m1, 'a', db);
    expect(r?.status).toBe('gt_wrong');
    expect(r?.note).toBeUndefined();
  });

  it('keeps reviews and the undo log across a reload (a new database connection)', async () => {
    await putReview(FP, m1, 'a', { status: 'gt_missing', note: 'two words unlabelled' }, db);
    await putReview(FP, m1, 'a', { status: 'gt_wrong' }, db);
    db.close();
    const reopened = new BenchlensDB(dbName);
    expect(await getReview(FP, m1, 'a', reopened)).toMatchObject({ status: 'gt_wrong', note: 'two words unlabelled' });
    await undo(FP, reopened);
    expect((await getReview(FP, m1, 'a', reopened))?.status).toBe('gt_missing');
    reopened.close();
  });

  it('keeps only the most recent edits in the undo log', async () => {
    setHistoryLimit(3);
    try {
      for (const s of ['ok', 'gt_wrong', 'gt_missing', 'ambiguous', 'model_error'] as const) await putReview(FP, m1, 'a', { status: s }, db);
      expect((await undoDepth(FP, db)).undo).toBe(3);
      for (let i = 0; i < 5; i++) await undo(FP, db);
      expect((await getReview(FP, m1, 'a', db))?.status).toBe('gt_wrong'); // the two oldest steps are gone
    } finally {
      setHistoryLimit(5000);
    }
  });

  it('a no-op edit writes nothing and leaves no undo step', async () => {
    await putReview(FP, m1, 'a', { status: 'ok' }, db);
    await putReview(FP, m1, 'a', { status: 'ok' }, db);
    expect((await undoDepth(FP, db)).undo).toBe(1);
  });

  it('deletes a review, undoably', async () => {
    await putReview(FP, m1, 'a', { status: 'ok', tags: ['x'] }, db);
    await deleteReview(FP, m1, 'a', db);
    expect(await getReview(FP, m1, 'a', db)).toBeUndefined();
    await undo(FP, db);
    expect((await getReview(FP, m1, 'a', db))?.tags).toEqual(['x']);
  });

  it('announces each committed change with what changed', async () => {
    const seen: ChangeNotice[] = [];
    const off = onChange((n) => seen.push(n));
    await putReview(FP, m1, 'a', { status: 'ok' }, db);
    await undo(FP, db);
    off();
    expect(seen).toEqual([
      { fingerprint: FP, table: 'reviews', keys: [{ subject: m1, case_id: 'a' }] },
      { fingerprint: FP, table: 'reviews', keys: [{ subject: m1, case_id: 'a' }] },
    ]);
  });
});

describe('two tabs: the base-revision check', () => {
  it('refuses a stale draft: a note confirmed in one tab is never overwritten from the same base', async () => {
    const tabB = new BenchlensDB(dbName); // a second connection, as a second tab has
    try {
      const first = await putReview(FP, m1, 'a', { note: 'first' }, db);
      // Both tabs show "first"; B starts typing from it; A confirms another note.
      const base = { rev: first!.rev!, value: 'first' };
      await putReview(FP, m1, 'a', { note: 'confirmed in A' }, db, { base });
      const err = await putReview(FP, m1, 'a', { note: 'stale draft in B' }, tabB, { base }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ReviewConflictError);
      expect(err).toMatchObject({ field: 'note', theirs: 'confirmed in A', mine: 'stale draft in B' });
      expect((await getReview(FP, m1, 'a', tabB))?.note).toBe('confirmed in A');
      // Once B chooses (here: its own text, based on what it now saw), it is written.
      const now = await getReview(FP, m1, 'a', tabB);
      await putReview(FP, m1, 'a', { note: 'B after seeing A' }, tabB, { base: { rev: now!.rev!, value: now!.note } });
      expect((await getReview(FP, m1, 'a', db))?.note).toBe('B after seeing A');
    } finally {
      tabB.close();
    }
  });

  it('lets an edit through when the other tab changed another field, or the same value', async () => {
    const r0 = await putReview(FP, m1, 'a', { status: 'ok', note: 'n' }, db);
    const base = { rev: r0!.rev!, value: 'n' };
    await putReview(FP, m1, 'a', { tags: ['x'] }, db); // another field changed: rev moved on
    await putReview(FP, m1, 'a', { note: 'n2' }, db, { base });
    const r = await getReview(FP, m1, 'a', db);
    expect([r?.note, r?.tags]).toEqual(['n2', ['x']]);
    // Same value from both tabs is not a conflict.
    await putReview(FP, m1, 'a', { note: 'n2' }, db, { base });
  });

  it('refuses a status picked on a stale view, for GT and model statuses alike', async () => {
    const gt0 = await getReview(FP, GT_SUBJECT, 'a', db);
    const p0 = await getReview(FP, m1, 'a', db);
    const base = { rev: statusRev(gt0, p0), value: 'unreviewed' };
    await setCaseStatus(FP, m1, 'a', 'gt_missing', db, { base });
    const err = await setCaseStatus(FP, m1, 'a', 'ok', db, { base }).catch((e: unknown) => e);
    expect(err).toMatchObject({ field: 'status', theirs: 'gt_missing', mine: 'ok' });
    expect((await getReview(FP, GT_SUBJECT, 'a', db))?.status).toBe('gt_missing');
    expect(await getReview(FP, m1, 'a', db)).toBeUndefined();
  });

  it('checks an instance note against its own base', async () => {
    const r = await putInstanceReview(FP, m1, 'a', { side: 'pred', id: 0, note: 'mine' }, db);
    const base = { rev: r!.rev!, value: 'mine' };
    await putInstanceReview(FP, m1, 'a', { side: 'pred', id: 0, note: 'other tab' }, db);
    await expect(putInstanceReview(FP, m1, 'a', { side: 'pred', id: 0, note: 'stale' }, db, { base })).rejects.toBeInstanceOf(ReviewConflictError);
    expect((await getReview(FP, m1, 'a', db))?.instances?.[0].note).toBe('other tab');
  });
});

describe('reviews of version-1 model names', () => {
  it('move to the content of the file loaded under that name, merged with what is there', async () => {
    await db.subjectReviews.put({ fingerprint: FP, subject: 'name:ocr-v2', case_id: 'a', status: 'model_error', note: 'old', updated_at: '2025-01-01T00:00:00.000Z' });
    await db.subjectReviews.put({ fingerprint: FP, subject: 'name:ocr-v2', case_id: 'b', status: 'ok', updated_at: '2025-01-01T00:00:00.000Z' });
    await db.subjectReviews.put({ fingerprint: FP, subject: 'name:other', case_id: 'a', status: 'ok', updated_at: '2025-01-01T00:00:00.000Z' });
    await putReview(FP, m1, 'a', { note: 'new' }, db);
    expect(await claimLegacyReviews(FP, 'ocr-v2', m1, db)).toBe(2);
    expect(await claimLegacyReviews(FP, 'ocr-v2', m1, db)).toBe(0);
    const a = await getReview(FP, m1, 'a', db);
    expect([a?.status, a?.note]).toEqual(['model_error', 'old\n---\nnew']);
    expect((await getReview(FP, m1, 'b', db))?.status).toBe('ok');
    expect((await listByDataset(FP, db)).map((r) => r.subject).sort()).toEqual(['name:other', m1, m1]);
  });
});

describe('GT corrections repository', () => {
  it('stores corrections beside the GT, one row per instance, undoably', async () => {
    const id = await addCorrection(FP, { case_id: 'a', gt_id: 3, shape: { type: 'polygon', points: [0, 0, 10, 0, 10, 10] } }, db);
    const again = await addCorrection(FP, { case_id: 'a', gt_id: 3, text: 'EXIT' }, db);
    expect(again).toBe(id);
    const added = await addCorrection(FP, { case_id: 'a', gt_id: null, shape: { type: 'box', box: [1, 2, 3, 4] }, text: 'new' }, db);
    const rows = await listCorrections(FP, 'a', db);
    expect(rows.map((r) => r.correction)).toEqual([
      { case_id: 'a', gt_id: 3, shape: { type: 'polygon', points: [0, 0, 10, 0, 10, 10] }, text: 'EXIT' },
      { case_id: 'a', gt_id: null, shape: { type: 'box', box: [1, 2, 3, 4] }, text: 'new' },
    ]);
    await updateCorrection(added, { case_id: 'zzz', gt_id: 7, care: false }, db);
    expect((await listCorrections(FP, 'a', db))[1].correction).toEqual({ case_id: 'a', gt_id: null, care: false });
    await deleteCorrection(id, db);
    expect(await listCorrections(FP, 'a', db)).toHaveLength(1);
    await undo(FP, db); // the delete
    await undo(FP, db); // the update
    expect((await listCorrections(FP, 'a', db)).map((r) => r.correction.text)).toEqual(['EXIT', 'new']);
    await undo(FP, db); // the add
    await undo(FP, db); // the merge into GT 3 (text)
    expect((await listCorrections(FP, undefined, db)).map((r) => r.correction)).toEqual([
      { case_id: 'a', gt_id: 3, shape: { type: 'polygon', points: [0, 0, 10, 0, 10, 10] } },
    ]);
  });
});

describe('storage failures', () => {
  it('recognises quota errors however they are wrapped', () => {
    expect(isQuotaError(new DOMException('full', 'QuotaExceededError'))).toBe(true);
    expect(isQuotaError({ name: 'AbortError', inner: { name: 'QuotaExceededError' } })).toBe(true);
    expect(isQuotaError(new Dexie.AbortError('aborted', new Dexie.QuotaExceededError('full')))).toBe(true);
    expect(isQuotaError(new Dexie.AbortError('aborted'))).toBe(false);
  });

  /** A database whose writes fail with QuotaExceededError while `disk.full` is true. */
  function fillable(name: string) {
    const disk = { full: true };
    const full = new BenchlensDB(name);
    full.use({
      stack: 'dbcore',
      name: 'fill-the-disk',
      create: (down) => ({
        ...down,
        table: (t) => {
          const table = down.table(t);
          return { ...table, mutate: (req) => (disk.full ? Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError')) : table.mutate(req)) };
        },
      }),
    });
    return { full, disk };
  }

  it('tells the page when the disk is full, keeps the review in memory (unsaved), and writes it once space returns', async () => {
    const name = `${dbName}-quota`;
    const { full, disk } = fillable(name);
    const errors: StorageError[] = [];
    const off = onStorageError((e) => errors.push(e));
    try {
      const shown = await putReview(FP, m1, 'a', { status: 'ok', note: 'kept' }, full);
      expect(shown).toMatchObject({ status: 'ok', note: 'kept' }); // the edit is not reverted
      expect(errors[0].kind).toBe('quota');
      expect(errors[0].message).toMatch(/storage is full/);
      expect(isUnsaved(full, FP, m1, 'a')).toBe(true);
      expect(await getReview(FP, m1, 'a', full)).toBeUndefined(); // nothing on disk yet
      expect((await getLiveReview(FP, m1, 'a', full))?.note).toBe('kept');
      // A later edit queues behind it and is shown on top of it.
      await setCaseStatus(FP, m1, 'a', 'gt_wrong', full);
      expect((await listLive(FP, full)).map((r) => `${r.subject}:${r.status}:${r.note ?? ''}`).sort()).toEqual([`gt:gt_wrong:`, `${m1}:unreviewed:kept`]);
      expect(unsavedCount()).toBe(2);
      await retryUnsaved(); // still full: still unsaved, nothing lost
      expect(unsavedCount()).toBe(2);
      disk.full = false;
      await retryUnsaved();
      expect(unsavedCount()).toBe(0);
      expect(isUnsaved(full, FP, m1, 'a')).toBe(false);
      expect((await getReview(FP, m1, 'a', full))?.note).toBe('kept');
      expect((await getReview(FP, GT_SUBJECT, 'a', full))?.status).toBe('gt_wrong');
      // Written in order, as two undo steps.
      expect((await undoDepth(FP, full)).undo).toBe(3);
    } finally {
      off();
      resetUnsaved();
      full.close();
      await Dexie.delete(name);
    }
  });

  it('retries on its own, with backoff', async () => {
    const name = `${dbName}-quota2`;
    const { full, disk } = fillable(name);
    const off = onStorageError(() => undefined);
    try {
      await putReview(FP, m1, 'a', { note: 'later' }, full);
      disk.full = false;
      await expect.poll(async () => (await getReview(FP, m1, 'a', full))?.note, { timeout: 3000 }).toBe('later');
      expect(unsavedCount()).toBe(0);
    } finally {
      off();
      resetUnsaved();
      full.close();
      await Dexie.delete(name);
    }
  });
});
