import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import Dexie from 'dexie';
import { BenchlensDB } from './schema';
import { countsByStatus, deleteReview, getReview, listByDataset, putInstanceReview, putReview, redo, undo, undoDepth } from './reviewsRepo';
import { addCorrection, deleteCorrection, listCorrections, updateCorrection } from './correctionsRepo';
import { setClock, setHistoryLimit } from './history';
import { closeChannel, onChange, type ChangeNotice } from './changes';
import { onStorageError, StorageError, isQuotaError } from './storageErrors';

const FP = 'ltb:3:0123456789abcdef';
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
    await putReview(FP, 'm1', 'img_1', { status: 'gt_wrong' }, db);
    const r = await getReview(FP, 'm1', 'img_1', db);
    expect(r?.status).toBe('gt_wrong');
    expect(r?.updated_at).toMatch(/^2026-01-01T/);
    await putReview(FP, 'm1', 'img_1', { note: 'box misses the last word', tags: ['crop', ' crop ', ''] }, db);
    const r2 = await getReview(FP, 'm1', 'img_1', db);
    expect(r2).toMatchObject({ status: 'gt_wrong', note: 'box misses the last word', tags: ['crop'] });
  });

  it('keys reviews by fingerprint, model and case', async () => {
    await putReview(FP, 'm1', 'a', { status: 'ok' }, db);
    await putReview(FP, 'm2', 'a', { status: 'model_error' }, db);
    await putReview('other:1:ffff', 'm1', 'a', { status: 'ambiguous' }, db);
    expect((await listByDataset(FP, db)).map((r) => `${r.model}/${r.status}`).sort()).toEqual(['m1/ok', 'm2/model_error']);
    const counts = await countsByStatus(FP, undefined, db);
    expect(counts.ok).toBe(1);
    expect(counts.model_error).toBe(1);
    expect(counts.ambiguous).toBe(0);
    expect((await countsByStatus(FP, 'm2', db)).ok).toBe(0);
  });

  it('does not store a review that says nothing', async () => {
    await putReview(FP, 'm1', 'a', { status: 'ok' }, db);
    await putReview(FP, 'm1', 'a', { status: 'unreviewed' }, db);
    expect(await getReview(FP, 'm1', 'a', db)).toBeUndefined();
  });

  it('keeps instance reviews inside the case review, sorted gt before pred', async () => {
    await putInstanceReview(FP, 'm1', 'a', { side: 'pred', id: 4, status: 'model_error' }, db);
    await putInstanceReview(FP, 'm1', 'a', { side: 'gt', id: 2, status: 'gt_wrong', note: 'should be "EXIT"' }, db);
    const r = await getReview(FP, 'm1', 'a', db);
    expect(r?.status).toBe('unreviewed');
    expect(r?.instances).toEqual([
      { side: 'gt', id: 2, status: 'gt_wrong', note: 'should be "EXIT"' },
      { side: 'pred', id: 4, status: 'model_error' },
    ]);
    await putInstanceReview(FP, 'm1', 'a', { side: 'pred', id: 4, status: 'unreviewed' }, db);
    expect((await getReview(FP, 'm1', 'a', db))?.instances).toHaveLength(1);
  });

  it('undoes and redoes every edit, in order', async () => {
    await putReview(FP, 'm1', 'a', { status: 'ok' }, db);
    await putReview(FP, 'm1', 'a', { status: 'gt_wrong' }, db);
    await putReview(FP, 'm1', 'b', { status: 'ambiguous' }, db);
    expect(await undoDepth(FP, db)).toEqual({ undo: 3, redo: 0 });

    await undo(FP, db);
    expect(await getReview(FP, 'm1', 'b', db)).toBeUndefined();
    await undo(FP, db);
    expect((await getReview(FP, 'm1', 'a', db))?.status).toBe('ok');
    await redo(FP, db);
    expect((await getReview(FP, 'm1', 'a', db))?.status).toBe('gt_wrong');
    expect(await undoDepth(FP, db)).toEqual({ undo: 2, redo: 1 });

    // A new edit drops the redo stack.
    await putReview(FP, 'm1', 'c', { status: 'ok' }, db);
    expect(await undoDepth(FP, db)).toEqual({ undo: 3, redo: 0 });
    expect(await redo(FP, db)).toEqual([]);
  });

  it('folds a note typed in several saves into one undo step', async () => {
    await putReview(FP, 'm1', 'a', { status: 'gt_wrong' }, db);
    await putReview(FP, 'm1', 'a', { note: 'bo' }, db);
    await putReview(FP, 'm1', 'a', { note: 'box too' }, db);
    await putReview(FP, 'm1', 'a', { note: 'box too small' }, db);
    expect((await undoDepth(FP, db)).undo).toBe(2);
    await undo(FP, db);
    const r = await getReview(FP, 'm1', 'a', db);
    expect(r?.status).toBe('gt_wrong');
    expect(r?.note).toBeUndefined();
  });

  it('keeps reviews and the undo log across a reload (a new database connection)', async () => {
    await putReview(FP, 'm1', 'a', { status: 'gt_missing', note: 'two words unlabelled' }, db);
    await putReview(FP, 'm1', 'a', { status: 'gt_wrong' }, db);
    db.close();
    const reopened = new BenchlensDB(dbName);
    expect(await getReview(FP, 'm1', 'a', reopened)).toMatchObject({ status: 'gt_wrong', note: 'two words unlabelled' });
    await undo(FP, reopened);
    expect((await getReview(FP, 'm1', 'a', reopened))?.status).toBe('gt_missing');
    reopened.close();
  });

  it('keeps only the most recent edits in the undo log', async () => {
    setHistoryLimit(3);
    try {
      for (const s of ['ok', 'gt_wrong', 'gt_missing', 'ambiguous', 'model_error'] as const) await putReview(FP, 'm1', 'a', { status: s }, db);
      expect((await undoDepth(FP, db)).undo).toBe(3);
      for (let i = 0; i < 5; i++) await undo(FP, db);
      expect((await getReview(FP, 'm1', 'a', db))?.status).toBe('gt_wrong'); // the two oldest steps are gone
    } finally {
      setHistoryLimit(5000);
    }
  });

  it('a no-op edit writes nothing and leaves no undo step', async () => {
    await putReview(FP, 'm1', 'a', { status: 'ok' }, db);
    await putReview(FP, 'm1', 'a', { status: 'ok' }, db);
    expect((await undoDepth(FP, db)).undo).toBe(1);
  });

  it('deletes a review, undoably', async () => {
    await putReview(FP, 'm1', 'a', { status: 'ok', tags: ['x'] }, db);
    await deleteReview(FP, 'm1', 'a', db);
    expect(await getReview(FP, 'm1', 'a', db)).toBeUndefined();
    await undo(FP, db);
    expect((await getReview(FP, 'm1', 'a', db))?.tags).toEqual(['x']);
  });

  it('announces each committed change with what changed', async () => {
    const seen: ChangeNotice[] = [];
    const off = onChange((n) => seen.push(n));
    await putReview(FP, 'm1', 'a', { status: 'ok' }, db);
    await undo(FP, db);
    off();
    expect(seen).toEqual([
      { fingerprint: FP, table: 'reviews', keys: [{ model: 'm1', case_id: 'a' }] },
      { fingerprint: FP, table: 'reviews', keys: [{ model: 'm1', case_id: 'a' }] },
    ]);
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

  it('tells the page when the disk is full and rethrows (the edit is not reported as saved)', async () => {
    const name = `${dbName}-quota`;
    const full = new BenchlensDB(name);
    full.use({
      stack: 'dbcore',
      name: 'fill-the-disk',
      create: (down) => ({
        ...down,
        table: (t) => {
          const table = down.table(t);
          return { ...table, mutate: () => Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError')) };
        },
      }),
    });
    const errors: StorageError[] = [];
    const off = onStorageError((e) => errors.push(e));
    await expect(putReview(FP, 'm1', 'a', { status: 'ok' }, full)).rejects.toBeInstanceOf(StorageError);
    off();
    expect(errors).toHaveLength(1);
    expect(errors[0].kind).toBe('quota');
    expect(errors[0].message).toMatch(/storage is full/);
    full.close();
    await Dexie.delete(name);
  });
});
