/**
 * The storage half of export/import: reads the stored reviews for caseIo's pure functions, and
 * writes an import (with the user's conflict resolutions) as ONE undoable step. Exports include
 * this tab's unsaved reviews (storage full): what is on screen is what is exported.
 */
import { editRows, now } from '../../db/history';
import { listCorrections } from '../../db/correctionsRepo';
import { listByDataset, listLive } from '../../db/reviewsRepo';
import { getDb, type BenchlensDB, type CorrectionRow, type ReviewRow } from '../../db/schema';
import type { QaState } from '../../core/qa';
import { planImport, qaByKey, resolveConflict, type ImportPlan, type Resolution } from './caseIo';

/**
 * This dataset's reviews (stored and unsaved) and corrections as the `qa` values the worker merges
 * into its export; `contents` = the loaded models (name → content fingerprint).
 */
export async function exportQa(fingerprint: string, contents: Readonly<Record<string, string>>, db: BenchlensDB = getDb()): Promise<Map<string, QaState>> {
  const [reviews, corrections] = await Promise.all([listLive(fingerprint, db), listCorrections(fingerprint, undefined, db)]);
  return qaByKey(reviews, corrections, contents);
}

export interface PrepareImportOptions {
  benchmark?: string;
  knownCaseIds?: ReadonlySet<string>;
  /** Loaded models: name → content fingerprint. */
  contents?: Readonly<Record<string, string>>;
}

/** Reads a file against what is stored; nothing is written yet. */
export async function prepareImport(fingerprint: string, text: string, opts: PrepareImportOptions = {}, db: BenchlensDB = getDb()): Promise<ImportPlan> {
  const [mine, myCorrections] = await Promise.all([listLive(fingerprint, db), listCorrections(fingerprint, undefined, db)]);
  return planImport({ text, fingerprint, mine, myCorrections, now: now(), ...opts });
}

/**
 * Writes the new reviews and corrections and the chosen side of each conflict (index in
 * plan.conflicts → resolution; a conflict without a resolution keeps mine). Returns rows written.
 */
export async function applyImport(
  fingerprint: string,
  plan: ImportPlan,
  resolutions: ReadonlyMap<number, Resolution> | readonly Resolution[],
  db: BenchlensDB = getDb(),
): Promise<number> {
  const pick = (i: number): Resolution => (Array.isArray(resolutions) ? resolutions[i] : (resolutions as ReadonlyMap<number, Resolution>).get(i)) ?? 'mine';
  const at = now();
  const edits: Parameters<typeof editRows>[2] = [];
  for (const r of plan.reviews) edits.push({ table: 'reviews', row: r, key: [r.fingerprint, r.subject, r.case_id] });
  for (const c of plan.corrections) edits.push({ table: 'corrections', row: c, key: c.id });
  plan.conflicts.forEach((c, i) => {
    const choice = pick(i);
    if (choice === 'mine') return;
    const row = resolveConflict(c, choice, at);
    if (c.kind === 'review') edits.push({ table: 'reviews', row: row as ReviewRow, key: [fingerprint, c.subject, c.case_id] });
    else edits.push({ table: 'corrections', row: row as CorrectionRow, key: c.id });
  });
  return editRows(db, fingerprint, edits, 'import reviews');
}

/** Removes every review and correction of a dataset, as one undoable step. */
export async function clearDataset(fingerprint: string, db: BenchlensDB = getDb()): Promise<number> {
  const [reviews, corrections] = await Promise.all([listByDataset(fingerprint, db), listCorrections(fingerprint, undefined, db)]);
  return editRows(
    db,
    fingerprint,
    [
      ...reviews.map((r) => ({ table: 'reviews' as const, row: null, key: [r.fingerprint, r.subject, r.case_id] as [string, string, string] })),
      ...corrections.map((c) => ({ table: 'corrections' as const, row: null, key: c.id })),
    ],
    'clear reviews',
  );
}
