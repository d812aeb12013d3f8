/**
 * GT corrections in IndexedDB, stored beside the original GT (which is never written). One row
 * per corrected or added instance, with a stable random id; every change is one undoable edit.
 * At most one row per (dataset, case, gt_id) for existing instances: editing the same instance
 * again updates its row, so "the correction of GT 3" is always a single answer.
 */
import type { GtCorrection } from '../core/model';
import { editRow, now } from './history';
import { getDb, type BenchlensDB, type CorrectionRow } from './schema';

function newId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `c-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/** Keeps only the GtCorrection fields, in a fixed order (what export and equality rely on). */
export function cleanCorrection(c: GtCorrection): GtCorrection {
  const out: GtCorrection = { case_id: c.case_id, gt_id: c.gt_id };
  if (c.shape) out.shape = c.shape.type === 'box' ? { type: 'box', box: [...c.shape.box] } : { type: 'polygon', points: [...c.shape.points] };
  if (c.text !== undefined) out.text = c.text;
  if (c.care !== undefined) out.care = c.care;
  if (c.deleted !== undefined) out.deleted = c.deleted;
  return out;
}

export async function listCorrections(fingerprint: string, caseId?: string, db: BenchlensDB = getDb()): Promise<CorrectionRow[]> {
  const rows =
    caseId === undefined
      ? await db.corrections.where('fingerprint').equals(fingerprint).toArray()
      : await db.corrections.where('[fingerprint+case_id]').equals([fingerprint, caseId]).toArray();
  return rows.sort((a, b) => (a.case_id === b.case_id ? (a.correction.gt_id ?? Infinity) - (b.correction.gt_id ?? Infinity) || a.id.localeCompare(b.id) : a.case_id < b.case_id ? -1 : 1));
}

/**
 * Adds a correction, or, for an existing GT instance that already has one, merges into it.
 * Returns the row's id.
 */
export async function addCorrection(fingerprint: string, correction: GtCorrection, db: BenchlensDB = getDb()): Promise<string> {
  const c = cleanCorrection(correction);
  if (c.gt_id !== null) {
    const existing = (await listCorrections(fingerprint, c.case_id, db)).find((r) => r.correction.gt_id === c.gt_id);
    if (existing) {
      await updateCorrection(existing.id, { ...existing.correction, ...c }, db);
      return existing.id;
    }
  }
  const id = newId();
  await editRow<CorrectionRow>(db, 'corrections', fingerprint, id, () => ({ id, fingerprint, case_id: c.case_id, correction: c, updated_at: now() }), {
    label: `${c.case_id}: ${c.gt_id === null ? 'GT added' : `GT ${c.gt_id} corrected`}`,
  });
  return id;
}

/** Replaces a correction's content (case_id and gt_id stay those of the row). */
export async function updateCorrection(id: string, correction: GtCorrection, db: BenchlensDB = getDb()): Promise<CorrectionRow | null> {
  const row = await db.corrections.get(id);
  if (!row) return null;
  return editRow<CorrectionRow>(
    db,
    'corrections',
    row.fingerprint,
    id,
    (before) => (before ? { ...before, correction: cleanCorrection({ ...correction, case_id: before.case_id, gt_id: before.correction.gt_id }), updated_at: now() } : null),
    { label: `${row.case_id}: ${row.correction.gt_id === null ? 'added GT' : `GT ${row.correction.gt_id}`} edited` },
  );
}

/** Removes a correction (the original GT shows again; an added instance disappears). */
export async function deleteCorrection(id: string, db: BenchlensDB = getDb()): Promise<void> {
  const row = await db.corrections.get(id);
  if (!row) return;
  await editRow<CorrectionRow>(db, 'corrections', row.fingerprint, id, () => null, { label: `${row.case_id}: correction removed` });
}
