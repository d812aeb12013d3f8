import 'fake-indexeddb/auto';
import { afterAll, describe, expect, it } from 'vitest';
import Dexie from 'dexie';
import { BenchlensDB } from './schema';
import { getReview, putReview } from './reviewsRepo';
import { addCorrection, listCorrections } from './correctionsRepo';
import { addRecentFolder, listRecentFolders } from './recentFolders';
import { closeChannel } from './changes';

/**
 * What a future version(2) declaration looks like (an extra index, and a row upgrade), declared
 * the Dexie way: version(1) stays as it is and version(2) is added after it.
 */
class FutureDB extends BenchlensDB {
  constructor(name: string) {
    super(name);
    this.version(2)
      .stores({
        reviews: '[fingerprint+model+case_id], fingerprint, [fingerprint+status], [fingerprint+case_id], updated_at, author',
        corrections: 'id, fingerprint, [fingerprint+case_id]',
        history: '++seq, [fingerprint+undone+seq]',
        recentFolders: '++id, lastOpened',
        meta: 'key',
      })
      .upgrade((tx) =>
        tx
          .table('reviews')
          .toCollection()
          .modify((r: { author?: string }) => {
            r.author ??= 'unknown';
          }),
      );
  }
}

afterAll(() => closeChannel());

describe('schema migration', () => {
  it('opening a version(1) database with a later version keeps every row', async () => {
    const name = `benchlens-migrate-${Math.random().toString(36).slice(2)}`;
    const v1 = new BenchlensDB(name);
    await putReview('fp', 'm', 'case-1', { status: 'gt_wrong', note: 'kept' }, v1);
    await addCorrection('fp', { case_id: 'case-1', gt_id: 2, care: false }, v1);
    await addRecentFolder(null, 'LTB copy', 'ltb', v1);
    expect(v1.verno).toBe(1);
    v1.close();

    const v2 = new FutureDB(name);
    await v2.open();
    expect(v2.verno).toBe(2);
    expect(await getReview('fp', 'm', 'case-1', v2)).toMatchObject({ status: 'gt_wrong', note: 'kept', author: 'unknown' });
    expect((await listCorrections('fp', 'case-1', v2)).map((r) => r.correction)).toEqual([{ case_id: 'case-1', gt_id: 2, care: false }]);
    expect((await listRecentFolders(v2)).map((r) => r.label)).toEqual(['LTB copy']);
    expect(await v2.reviews.where('author').equals('unknown').count()).toBe(1);
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
