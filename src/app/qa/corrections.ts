/**
 * GT corrections for the page: add / update / delete / list per (dataset fingerprint, case_id),
 * each an undoable edit stored beside the original GT (src/db/correctionsRepo.ts), plus the pure
 * view the editor draws — the case's GT with its corrections applied — and a live hook.
 *
 * The shell scores "corrected GT" by passing `listCorrections(fp).map(r => r.correction)` to the
 * worker's scoreCorrected (adapter.applyCorrections); the official numbers are never touched.
 */
import { useEffect, useState } from 'react';
import type { GtCorrection, Instance, Shape } from '../../core/model';
import { onChange } from '../../db/changes';
import { addCorrection, deleteCorrection, listCorrections, updateCorrection } from '../../db/correctionsRepo';
import type { CorrectionRow } from '../../db/schema';

export { addCorrection, deleteCorrection, listCorrections, updateCorrection };

/** What GtEditor commits: a new correction (no id) or a change to an existing one (its row id). */
export interface CorrectionEdit {
  id?: string;
  correction: GtCorrection;
  /** Drop the correction row `id` (revert an edited instance, remove an added one). */
  remove?: boolean;
}

/** Stores an edit from the editor; returns the correction's id. */
export async function commitCorrection(fingerprint: string, edit: CorrectionEdit): Promise<string> {
  if (edit.id && edit.remove) {
    await deleteCorrection(edit.id);
    return edit.id;
  }
  if (edit.id) {
    await updateCorrection(edit.id, edit.correction);
    return edit.id;
  }
  return addCorrection(fingerprint, edit.correction);
}

/** All corrections of a dataset as the worker's scoreCorrected wants them. */
export async function correctionsForScoring(fingerprint: string): Promise<GtCorrection[]> {
  return (await listCorrections(fingerprint)).map((r) => r.correction);
}

/** One GT instance as the editor shows it: the original with its correction applied, or an added one. */
export interface EditableGt {
  /** "gt:3" for GT instance 3, "add:<id>" for an added instance. */
  key: string;
  gt_id: number | null;
  /** The correction row that changed it, and that correction, when there is one. */
  correctionId?: string;
  correction?: GtCorrection;
  shape?: Shape;
  /** The shape in the dataset (unchanged by any correction); absent for an added instance. */
  original?: Shape;
  text?: string;
  care: boolean;
  deleted: boolean;
  corrected: boolean;
}

/** The case's GT with the corrections applied (pure; the inputs are not modified). */
export function effectiveGt(gt: readonly Instance[], corrections: readonly CorrectionRow[]): EditableGt[] {
  const byGt = new Map<number, CorrectionRow>();
  const added: CorrectionRow[] = [];
  for (const r of corrections) {
    if (r.correction.gt_id === null) added.push(r);
    else byGt.set(r.correction.gt_id, r);
  }
  const out: EditableGt[] = gt.map((g) => {
    const r = byGt.get(g.id);
    const c = r?.correction;
    return {
      key: `gt:${g.id}`,
      gt_id: g.id,
      correctionId: r?.id,
      correction: c,
      shape: c?.shape ?? g.shape,
      original: g.shape,
      text: c?.text ?? g.text,
      care: c?.care ?? g.state !== 'dontcare',
      deleted: c?.deleted ?? false,
      corrected: !!r,
    };
  });
  for (const r of added) {
    const c = r.correction;
    out.push({ key: `add:${r.id}`, gt_id: null, correctionId: r.id, correction: c, shape: c.shape, text: c.text, care: c.care ?? true, deleted: c.deleted ?? false, corrected: true });
  }
  return out;
}

/** A shape's outline as x0, y0, x1, y1, … (a box as its four corners). */
export function outlineOf(shape: Shape): number[] {
  if (shape.type === 'box') {
    const [x0, y0, x1, y1] = shape.box;
    return [x0, y0, x1, y0, x1, y1, x0, y1];
  }
  return [...shape.points];
}

/**
 * The dataset's own outline of an instance whose shape a correction changed (the editor draws
 * it dashed beside the correction); null when the shape is unchanged or the instance was added.
 */
export function reshapedOriginal(g: EditableGt): number[] | null {
  if (g.gt_id === null || !g.correction?.shape || !g.original) return null;
  const a = outlineOf(g.original);
  const b = outlineOf(g.correction.shape);
  return a.length === b.length && a.every((v, i) => v === b[i]) ? null : a;
}

/** The corrections of one case, live (this tab and others). */
export function useCorrections(fingerprint: string | null | undefined, caseId: string | null | undefined): CorrectionRow[] {
  const [state, setState] = useState<{ key: string; rows: CorrectionRow[] }>({ key: '', rows: [] });
  const key = fingerprint && caseId ? `${fingerprint}\u0000${caseId}` : '';
  useEffect(() => {
    if (!fingerprint || !caseId) return;
    let alive = true;
    let seq = 0;
    const read = () => {
      const mine = ++seq;
      void listCorrections(fingerprint, caseId).then((rows) => {
        if (alive && mine === seq) setState({ key, rows });
      });
    };
    read();
    const off = onChange((n) => {
      if (n.fingerprint === fingerprint && n.table === 'corrections' && (!n.keys || n.keys.some((k) => k.case_id === caseId))) read();
    });
    return () => {
      alive = false;
      off();
    };
  }, [fingerprint, caseId, key]);
  return state.key === key ? state.rows : [];
}

export type GtChange = Partial<Pick<GtCorrection, 'shape' | 'text' | 'care' | 'deleted'>>;

/**
 * The edit that applies `change` to an instance the editor shows: merged into its existing
 * correction, or a new correction that names only what changed.
 */
export function editFor(inst: EditableGt, caseId: string, change: GtChange): CorrectionEdit {
  const base: GtCorrection = inst.correction ?? { case_id: caseId, gt_id: inst.gt_id };
  return { id: inst.correctionId, correction: { ...base, ...change, case_id: caseId, gt_id: inst.gt_id } };
}

/** Undo a correction: the original instance shows again, an added one disappears. */
export function revertFor(inst: EditableGt, caseId: string): CorrectionEdit | null {
  return inst.correctionId ? { id: inst.correctionId, correction: { case_id: caseId, gt_id: inst.gt_id }, remove: true } : null;
}
