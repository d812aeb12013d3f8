/**
 * GT corrections made in the viewer, applied to a copy of the dataset (Spotting boxes and
 * characters, Parsing text), and the corrected GT written back as Chronicles_OCR.jsonl.
 */
import type { GtCorrection } from '../../model';
import { buildInfo, parseGtRow, type ChroniclesDataset, type GtRow } from './gt';
import { isPlainObject } from './py';

function splitCaseId(id: string): { image: string; task: string } | null {
  const i = id.lastIndexOf('#');
  return i < 0 ? null : { image: id.slice(0, i), task: id.slice(i + 1) };
}

export function applyChroniclesCorrections(dataset: ChroniclesDataset, corrections: readonly GtCorrection[]): ChroniclesDataset {
  const edited = new Map<string, Record<string, unknown>>();
  const deletions = new Map<string, Set<number>>();
  const rawOf = (row: GtRow) => {
    let r = edited.get(row.image_path);
    if (!r) edited.set(row.image_path, (r = structuredClone(row.raw)));
    return r;
  };
  for (const c of corrections) {
    const id = splitCaseId(c.case_id);
    const row = id && dataset.byPath.get(id.image);
    if (!id || !row) continue;
    if (id.task === 'parsing') {
      if (c.text !== undefined) rawOf(row).annotation = c.text;
      continue;
    }
    if (id.task !== 'spotting') continue;
    const raw = rawOf(row);
    if (!Array.isArray(raw.spotting)) raw.spotting = [];
    const list = raw.spotting as unknown[];
    const box = c.shape?.type === 'box' ? c.shape.box : undefined;
    if (c.gt_id === null) {
      if (!box) continue;
      list.push({ bbox: { x1: box[0], y1: box[1], x2: box[2], y2: box[3] }, text: c.text ?? '' });
      continue;
    }
    const ch = row.chars[c.gt_id];
    if (!ch) continue;
    const item = list[ch.index];
    if (!isPlainObject(item)) continue;
    if (c.deleted) {
      let d = deletions.get(row.image_path);
      if (!d) deletions.set(row.image_path, (d = new Set()));
      d.add(ch.index);
      continue;
    }
    // An {x1..} object is read the same way whichever char key the item has.
    if (box) item.bbox = { x1: box[0], y1: box[1], x2: box[2], y2: box[3] };
    if (c.text !== undefined) {
      if ('modern_char' in item && item.modern_char !== null) item.modern_char = c.text;
      else item.text = c.text;
    }
  }
  for (const [path, idx] of deletions) {
    const raw = edited.get(path)!;
    raw.spotting = (raw.spotting as unknown[]).filter((_, i) => !idx.has(i));
  }
  if (edited.size === 0) return dataset;
  const byPath = new Map(dataset.byPath);
  const rows = dataset.rows.map((row) => {
    const raw = edited.get(row.image_path);
    if (!raw) return row;
    const next = parseGtRow(raw, row.line, row.image_path, () => {});
    next.image_file = row.image_file;
    // The model was asked about the red box drawn from the GT as it was: corrections do not move it.
    next.referring = row.referring;
    byPath.set(row.image_path, next);
    return next;
  });
  return { ...dataset, rows, byPath, info: { ...buildInfo(rows, dataset.info.warnings), fingerprint: dataset.info.fingerprint } };
}

export function exportChroniclesGroundTruth(dataset: ChroniclesDataset): Record<string, string> {
  return { [dataset.gtPath]: dataset.rows.map((r) => JSON.stringify(r.raw)).join('\n') + '\n' };
}
