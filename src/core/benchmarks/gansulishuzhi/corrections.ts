/**
 * GT corrections for gansulishuzhi (move, add, delete figure boxes; pixels, as in the manifest)
 * and the export of the corrected manifest.jsonl. Untouched lines are exported byte for byte.
 */
import type { Box } from '../../geometry/box';
import type { GtCorrection } from '../../model';
import { indexPages, MANIFEST, type GansuDataset, type Page } from './dataset';

export function applyGansuCorrections(ds: GansuDataset, corrections: readonly GtCorrection[]): GansuDataset {
  if (corrections.length === 0) return ds;
  const edited = new Map<number, Page>();
  for (const c of corrections) {
    const idx = ds.byId.get(c.case_id);
    if (idx === undefined) continue;
    let page = edited.get(idx);
    if (!page) edited.set(idx, (page = { ...ds.pages[idx], gt: ds.pages[idx].gt.map((b) => [...b] as Box) }));
    const box = c.shape?.type === 'box' ? ([...c.shape.box] as Box) : null;
    if (c.gt_id === null) {
      if (box && !c.deleted) page.gt.push(box);
    } else if (c.gt_id >= 0 && c.gt_id < page.gt.length) {
      // Deleted boxes are marked and dropped at the end so later corrections keep their indices.
      if (c.deleted) page.gt[c.gt_id] = [NaN, NaN, NaN, NaN];
      else if (box) page.gt[c.gt_id] = box;
    }
  }
  for (const p of edited.values()) p.gt = p.gt.filter((b) => !Number.isNaN(b[0]));
  const pages = ds.pages.map((p, i) => edited.get(i) ?? p);
  const byLine = new Map(ds.edited);
  for (const [i, p] of edited) byLine.set(ds.pages[i].line, p);
  return { ...ds, pages, ...indexPages(pages), edited: byLine };
}

/** manifest.jsonl with the corrected `gt_bboxes` (path relative to the dataset root → text). */
export function exportGansuGroundTruth(ds: GansuDataset): Record<string, string> {
  const edited = ds.edited ?? new Map<number, Page | null>();
  const lines: string[] = [];
  ds.rawLines.forEach((raw, i) => {
    const page = edited.get(i + 1);
    if (page === undefined) {
      lines.push(raw);
      return;
    }
    if (page === null) return;
    const o = JSON.parse(raw) as Record<string, unknown>;
    o.gt_bboxes = page.gt;
    lines.push(JSON.stringify(o));
  });
  return { [MANIFEST]: lines.join('\n') + '\n' };
}
