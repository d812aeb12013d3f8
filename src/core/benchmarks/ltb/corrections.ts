/**
 * GT corrections made in the viewer, applied to every split consistently, and the export of the
 * (corrected) GT back to `challenging_<split>.json` files. An instance's split flags follow the
 * way LTB built its files: care in `norm` when it is care at all, care in a category file when
 * it has that challenge, care in `hard` when it has at least one.
 */
import { basename } from '../../io/fileSource';
import type { GtCorrection, Shape } from '../../model';
import type { LtbDataset, LtbGt, LtbImage } from './dataset';
import { CATEGORY_BITS, HARD, NORM, SPLITS } from './splits';
import { parsePolygon } from './values';

function shapeToPoints(shape: Shape): number[] | string {
  if (shape.type === 'box') {
    const [x0, y0, x1, y1] = shape.box;
    return [x0, y0, x1, y0, x1, y1, x0, y1];
  }
  return parsePolygon(shape.points);
}

/** Care flags for an instance that is care (or not) with the given challenge tags, over the loaded splits. */
function careMaskFor(care: boolean, tags: number, splitMask: number): number {
  if (!care) return 0;
  let m = (1 << NORM) | (tags & CATEGORY_BITS);
  if (tags & CATEGORY_BITS) m |= 1 << HARD;
  // A dataset with a single split (COCO / ICDAR / one MMOCR file) has only `norm`.
  return m & splitMask;
}

export function applyLtbCorrections(ds: LtbDataset, corrections: readonly GtCorrection[]): LtbDataset {
  const byName = new Map(ds.images.map((im, i) => [im.name, i]));
  const images = ds.images.slice();
  const warnings = [...ds.info.warnings];
  const copied = new Set<number>();
  const own = (i: number): LtbImage => {
    if (!copied.has(i)) {
      const im = images[i];
      images[i] = { ...im, gt: im.gt.map((g) => ({ ...g })), order: im.order?.map((o) => (o ? Int32Array.from(o) : o)) };
      copied.add(i);
    }
    return images[i];
  };
  const deleted = new Map<number, Set<number>>();
  for (const c of corrections) {
    const i = byName.get(c.case_id);
    if (i === undefined) {
      warnings.push(`correction for ${c.case_id}: no such image (skipped)`);
      continue;
    }
    const img = own(i);
    if (c.gt_id === null) {
      if (!c.shape) {
        warnings.push(`correction for ${c.case_id}: an added instance needs a shape (skipped)`);
        continue;
      }
      const pts = shapeToPoints(c.shape);
      if (typeof pts === 'string') {
        warnings.push(`correction for ${c.case_id}: added instance: ${pts} (skipped)`);
        continue;
      }
      const presentMask = img.splits & ds.splitMask;
      const g: LtbGt = { points: pts, present: presentMask, care: careMaskFor(c.care !== false, 0, presentMask), tags: 0 };
      if (c.text !== undefined) g.text = c.text;
      const id = img.gt.length;
      img.gt.push(g);
      img.order?.forEach((o, s) => {
        if (o) img.order![s] = Int32Array.from([...o, id]);
      });
      continue;
    }
    const g = img.gt[c.gt_id];
    if (!g || deleted.get(i)?.has(c.gt_id)) {
      warnings.push(`correction for ${c.case_id} GT ${c.gt_id}: no such GT instance (skipped)`);
      continue;
    }
    if (c.deleted) {
      if (!deleted.has(i)) deleted.set(i, new Set());
      deleted.get(i)!.add(c.gt_id);
      continue;
    }
    if (c.shape) {
      const pts = shapeToPoints(c.shape);
      if (typeof pts === 'string') warnings.push(`correction for ${c.case_id} GT ${c.gt_id}: ${pts} (shape kept)`);
      else {
        g.points = pts;
        g.shape = undefined;
      }
    }
    if (c.text !== undefined) {
      g.text = c.text;
      // The export writes this one text to every split file: the files agree again.
      g.otherTexts = undefined;
    }
    if (c.care !== undefined) g.care = careMaskFor(c.care, g.tags, g.present);
  }
  // Deletions last, so gt_id in the corrections keep meaning the original indices.
  for (const [i, ids] of deleted) {
    const img = images[i];
    const remap = new Int32Array(img.gt.length).fill(-1);
    const kept: LtbGt[] = [];
    img.gt.forEach((g, id) => {
      if (!ids.has(id)) {
        remap[id] = kept.length;
        kept.push(g);
      }
    });
    img.gt = kept;
    img.order = img.order?.map((o) => (o ? Int32Array.from([...o].filter((id) => remap[id] >= 0).map((id) => remap[id])) : o));
  }
  return { ...ds, images, info: { ...ds.info, warnings } };
}

function bboxOf(points: number[]): number[] {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = 0; i + 1 < points.length; i += 2) {
    x0 = Math.min(x0, points[i]);
    x1 = Math.max(x1, points[i]);
    y0 = Math.min(y0, points[i + 1]);
    y1 = Math.max(y1, points[i + 1]);
  }
  return [x0, y0, x1, y1];
}

/** `challenging_<split>.json` (MMOCR 1.x textdet) for every loaded split: path → contents. */
export function exportLtbGroundTruth(ds: LtbDataset): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of ds.splitFiles) {
    const bit = 1 << f.split;
    const data_list = ds.images
      .filter((im) => im.splits & bit)
      .map((im) => {
        const ord = im.order?.[f.split];
        const ids = ord ? [...ord] : im.gt.map((_, i) => i).filter((i) => im.gt[i].present & bit);
        const entry: Record<string, unknown> = { img_path: im.imgPath };
        if (im.height !== undefined) entry.height = im.height;
        if (im.width !== undefined) entry.width = im.width;
        entry.instances = ids.map((i) => {
          const g = im.gt[i];
          const inst: Record<string, unknown> = {
            polygon: g.points,
            // MMOCR's converters derive bbox from the polygon; so does the export.
            bbox: bboxOf(g.points),
            bbox_label: 0,
            ignore: !(g.care & bit),
          };
          if (g.text !== undefined) inst.text = g.text;
          return inst;
        });
        return entry;
      });
    const doc = { metainfo: { dataset_type: 'TextDetDataset', task_name: 'textdet', category: [{ id: 0, name: 'text' }] }, data_list };
    const stemName = SPLITS[f.split].stems[0];
    const path = ds.format === 'mmocr1.x' && /^challenging_/i.test(basename(f.path)) ? f.path : `challenging_${stemName}.json`;
    out[path] = JSON.stringify(doc) + '\n';
  }
  return out;
}
