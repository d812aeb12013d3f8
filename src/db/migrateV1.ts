/**
 * The version-1 → version-2 upgrade of stored reviews (runs inside Dexie's upgrade transaction,
 * so it is all or nothing). Version 1 keyed a review by model *name* and mixed what was said
 * about the GT with what was said about the prediction. Each row is split (splitMixed): the GT
 * part goes to the dataset ('gt'), merged with the other models' GT parts of the same case; the
 * prediction part goes to 'name:<model>', where it waits for a model of that name to be loaded
 * (claimLegacyReviews then moves it to that file's content key). Nothing is dropped.
 */
import type { Transaction } from 'dexie';
import { mergeReviews, splitMixed } from './reviewShape';
import type { ReviewRow, ReviewRowV1 } from './schema';
import { GT_SUBJECT, legacySubject, newRev } from './subjects';

export function splitV1Rows(rows: readonly ReviewRowV1[]): ReviewRow[] {
  const out = new Map<string, ReviewRow>();
  const put = (r: ReviewRow) => {
    const k = `${r.fingerprint}\u0000${r.subject}\u0000${r.case_id}`;
    const have = out.get(k);
    out.set(k, have ? mergeReviews(have, r) : r);
  };
  for (const v1 of rows) {
    const { gt, pred } = splitMixed(v1, v1.fingerprint, legacySubject(v1.model), v1.case_id, v1.model);
    if (gt) put({ ...gt, subject: GT_SUBJECT });
    if (pred) put(pred);
  }
  return [...out.values()].map((r) => ({ ...r, rev: newRev() }));
}

export async function upgradeV1Reviews(tx: Transaction): Promise<void> {
  const v1 = (await tx.table('reviews').toArray()) as ReviewRowV1[];
  const rows = splitV1Rows(v1);
  if (rows.length) await tx.table('subjectReviews').bulkPut(rows);
  // Undo entries of v1 reviews hold rows of the old shape under the old key: undoing one would
  // write a row the new table cannot key. GT-correction entries are unchanged and stay.
  await tx
    .table('history')
    .filter((h: { table: string }) => h.table === 'reviews')
    .delete();
}
