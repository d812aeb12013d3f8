import 'fake-indexeddb/auto';
import { afterAll, describe, expect, it } from 'vitest';
import Dexie from 'dexie';
import { BenchlensDB } from './schema';
import { claimLegacyReviews, getReview, putReview } from './reviewsRepo';
import { listCorrections } from './correctionsRepo';
import { addRecentFolder, listRecentFolders } from './recentFolders';
import { closeChannel } from './changes';

/**
 * Version 1 exactly as it shipped: the same stores, declared alone. A browser that used that
 * build holds this database; opening it with today's BenchlensDB must upgrade it in place.
 */
class V1DB extends Dexie {
  constructor(name: string) {
    super(name);
    this.version(1).stores({
      reviews: '[fingerprint+model+case_id], fingerprint, [fingerprint+status], [fingerprint+case_id], updated_at',
      corrections: 'id, fingerprint, [fingerprint+case_id]',
      history: '++seq, [fingerprint+undone+seq]',
      recentFolders: '++id, lastOpened',
      meta: 'key',
    });
  }
}

afterAll(() => closeChannel());

describe('schema migration v1 → v2 (reviews keyed by what they are about)', () => {
  it('splits every v1 review into its GT part (dataset) and its prediction part (model name, until claimed), losing nothing', async () => {
    const name = `benchlens-migrate-${Math.random().toString(36).slice(2)}`;
    const v1 = new V1DB(name);
    const t = (s: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, s)).toISOString();
    await v1.table('reviews').bulkPut([
      // GT status with its note: about the GT.
      { fingerprint: 'fp', model: 'm1', case_id: 'c1', status: 'gt_wrong', note: 'box misses a word', tags: ['crop'], updated_at: t(1), author: 'ann', instances: [{ side: 'gt', id: 2, status: 'gt_wrong', note: 'EXIT' }, { side: 'pred', id: 0, status: 'model_error' }] },
      // Another model's review of the same case: its GT part merges with m1's.
      { fingerprint: 'fp', model: 'm2', case_id: 'c1', status: 'model_error', note: 'l/I', updated_at: t(2), instances: [{ side: 'gt', id: 2, status: 'ok', note: 'fine' }] },
      { fingerprint: 'fp', model: 'm2', case_id: 'c2', status: 'ok', updated_at: t(3) },
      { fingerprint: 'other', model: 'm1', case_id: 'c1', status: 'ambiguous', updated_at: t(4) },
    ]);
    await v1.table('corrections').put({ id: 'k1', fingerprint: 'fp', case_id: 'c1', correction: { case_id: 'c1', gt_id: 2, care: false }, updated_at: t(5) });
    await v1.table('history').bulkAdd([
      { fingerprint: 'fp', table: 'reviews', key: ['fp', 'm1', 'c1'], before: null, after: null, undone: 0, at: t(1), label: 'old review' },
      { fingerprint: 'fp', table: 'corrections', key: 'k1', before: null, after: null, undone: 0, at: t(5), label: 'old correction' },
    ]);
    await v1.table('recentFolders').add({ handle: null, label: 'LTB copy', benchmark: 'ltb', lastOpened: 1 });
    expect(v1.verno).toBe(1);
    v1.close();

    const v2 = new BenchlensDB(name);
    await v2.open();
    expect(v2.verno).toBe(2);
    expect(v2.tables.map((x) => x.name)).not.toContain('reviews');
    const rows = (await v2.subjectReviews.toArray()).map(({ rev, ...r }) => {
      expect(rev).toMatch(/\S/); // every migrated row has a write token
      return r;
    });
    expect(rows.sort((a, b) => `${a.fingerprint}${a.subject}${a.case_id}`.localeCompare(`${b.fingerprint}${b.subject}${b.case_id}`))).toEqual([
      {
        fingerprint: 'fp',
        subject: 'gt',
        case_id: 'c1',
        status: 'gt_wrong',
        updated_at: t(2),
        note: 'box misses a word',
        tags: ['crop'],
        instances: [{ side: 'gt', id: 2, status: 'ok', note: 'EXIT\n---\nfine' }],
        author: 'ann',
      },
      { fingerprint: 'fp', subject: 'name:m1', case_id: 'c1', status: 'unreviewed', updated_at: t(1), instances: [{ side: 'pred', id: 0, status: 'model_error' }], author: 'ann', model: 'm1' },
      { fingerprint: 'fp', subject: 'name:m2', case_id: 'c1', status: 'model_error', updated_at: t(2), note: 'l/I', model: 'm2' },
      { fingerprint: 'fp', subject: 'name:m2', case_id: 'c2', status: 'ok', updated_at: t(3), model: 'm2' },
      { fingerprint: 'other', subject: 'name:m1', case_id: 'c1', status: 'ambiguous', updated_at: t(4), model: 'm1' },
    ]);
    // The prediction part finds its file once a model of that name is loaded.
    expect(await claimLegacyReviews('fp', 'm2', 'pred:abc', v2)).toBe(2);
    expect((await getReview('fp', 'pred:abc', 'c1', v2))?.note).toBe('l/I');
    expect((await listCorrections('fp', 'c1', v2)).map((r) => r.correction)).toEqual([{ case_id: 'c1', gt_id: 2, care: false }]);
    expect((await listRecentFolders(v2)).map((r) => r.label)).toEqual(['LTB copy']);
    // v1 undo entries of reviews are gone (old shape); the correction's stays.
    expect((await v2.history.toArray()).map((h) => h.label)).toEqual(['old correction']);
    // The upgraded database takes new edits.
    await putReview('fp', 'gt', 'c2', { status: 'gt_missing' }, v2);
    expect((await getReview('fp', 'gt', 'c2', v2))?.status).toBe('gt_missing');
    v2.close();
    await Dexie.delete(name);
  });
});

describe('recent folders', () => {
  it('lists newest first, refreshes instead of duplicating, and cannot reopen a folder without a handle', async () => {
    const name = `benchlens-recent-${Math.random().toString(36).slice(2)}`;
    const db = new BenchlensDB(name);
    const a = await addRecentFolder(null, 'LTB', 'ltb', db);
    await new Promise((r) => setTimeout(r, 5));
    await addRecentFolder(null, 'Chronicles', 'chronicles', db);
    await new Promise((r) => setTimeout(r, 5));
    const a2 = await addRecentFolder(null, 'LTB', 'ltb', db);
    expect(a2).toBe(a);
    expect((await listRecentFolders(db)).map((r) => r.label)).toEqual(['LTB', 'Chronicles']);
    const { reopenRecentFolder, removeRecentFolder } = await import('./recentFolders');
    expect(await reopenRecentFolder(a, db)).toBeNull();
    await removeRecentFolder(a, db);
    expect((await listRecentFolders(db)).map((r) => r.label)).toEqual(['Chronicles']);
    db.close();
    await Dexie.delete(name);
  });
});
