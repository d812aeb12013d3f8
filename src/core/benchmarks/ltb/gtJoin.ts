/**
 * Joins the split files into one GT list per image. The 15 LTB files list the same images and
 * the same instances and differ only in `ignore`; an instance is identified by its image and its
 * exact polygon (the k-th copy of a repeated polygon joins the k-th copy). The common case —
 * same instances in the same order — is checked first without building any key.
 */
import { normalizePath } from '../../io/fileSource';
import type { LtbGt, LtbImage } from './dataset';
import { isObject, parsePolygon, type WarningList } from './values';

/** One image entry of an MMOCR 1.x `data_list` (COCO and ICDAR are converted to this shape). */
export interface EntryLike {
  img_path?: unknown;
  width?: unknown;
  height?: unknown;
  instances?: unknown;
}

export class GtBuilder {
  readonly images: LtbImage[] = [];
  private readonly byKey = new Map<string, number>();
  private readonly keyMaps = new WeakMap<LtbImage, Map<string, number[]>>();
  instances = 0;
  /**
   * True while the last file added was "canonical": every entry a new image whose instances were
   * all appended in file order, each with a boolean `ignore` — so instance j of the file is
   * instance j of the flattened GT lists, which the byte-level diff of the other files relies on.
   */
  lastFileCanonical = false;

  constructor(readonly warnings: WarningList) {}

  /** Adds one split file's `data_list`. `file` names the file in warnings. */
  addFile(split: number, file: string, list: readonly unknown[], drop063?: (inst: Record<string, unknown>) => string | undefined): void {
    const bit = 1 << split;
    const warningsBefore = this.warnings.total;
    let canonical = true;
    const seen = new Map<string, number>();
    for (let e = 0; e < list.length; e++) {
      const entry = list[e] as EntryLike;
      if (!isObject(entry) || typeof entry.img_path !== 'string' || entry.img_path === '') {
        this.warnings.add(`${file}: data_list[${e}]: no img_path (entry skipped)`);
        continue;
      }
      const path = normalizePath(entry.img_path);
      // MMOCR scores every data_list entry as a sample of its own, so an image listed twice counts
      // twice (with the same predictions): the n-th listing is image "<name>#n", joined across files.
      const occ = (seen.get(path) ?? 0) + 1;
      seen.set(path, occ);
      const key = occ === 1 ? path : `${path}#${occ}`;
      let idx = this.byKey.get(key);
      if (idx !== undefined) canonical = false;
      if (idx === undefined) {
        idx = this.images.length;
        this.byKey.set(key, idx);
        const base = path.slice(path.lastIndexOf('/') + 1);
        const name = occ === 1 ? base : `${base}#${occ}`;
        const img: LtbImage = { name, imgPath: entry.img_path, imageFile: null, gt: [], splits: 0 };
        if (typeof entry.width === 'number' && entry.width > 0) img.width = entry.width;
        if (typeof entry.height === 'number' && entry.height > 0) img.height = entry.height;
        if (occ > 1) {
          img.dupOf = this.byKey.get(path);
          this.warnings.add(`${file}: ${entry.img_path} is listed ${occ} times; like MMOCR, each entry is scored as a sample of its own (case ${name}, same predictions)`);
        }
        this.images.push(img);
      }
      const img = this.images[idx];
      if (img.splits & bit) {
        this.warnings.add(`${file}: ${entry.img_path} is listed twice (the second entry is skipped)`);
        continue;
      }
      img.splits |= bit;
      let insts: readonly unknown[] = [];
      if (Array.isArray(entry.instances)) insts = entry.instances;
      else if (entry.instances !== undefined) this.warnings.add(`${file}: ${entry.img_path}: "instances" is not a list`);
      if (canonical && img.gt.length === 0) {
        if (this.appendAll(img, split, file, insts, drop063)) continue;
        canonical = false;
      }
      if (this.sameInstances(img, insts)) {
        for (let k = 0; k < insts.length; k++) {
          const g = img.gt[k];
          const inst = insts[k] as Record<string, unknown>;
          g.present |= bit;
          if (!inst.ignore) g.care |= bit;
          noteText(g, split, inst.text);
        }
        continue;
      }
      this.joinSlow(img, split, file, insts, drop063);
    }
    this.lastFileCanonical = canonical && this.warnings.total === warningsBefore;
  }

  /**
   * A new image of a canonical file: append every instance in order. False (nothing added) when
   * an instance is unusable or has no boolean `ignore`; the general join then takes over.
   */
  private appendAll(
    img: LtbImage,
    split: number,
    file: string,
    insts: readonly unknown[],
    drop063?: (inst: Record<string, unknown>) => string | undefined,
  ): boolean {
    const bit = 1 << split;
    for (const inst of insts) {
      if (!isObject(inst) || typeof inst.ignore !== 'boolean' || typeof parsePolygon(inst.polygon) === 'string') return false;
    }
    for (const raw of insts) {
      const inst = raw as Record<string, unknown>;
      const g: LtbGt = { points: inst.polygon as number[], present: bit, care: inst.ignore ? 0 : bit, tags: 0 };
      if (typeof inst.text === 'string') g.text = inst.text;
      const why = drop063?.(inst);
      if (why) g.drop063 = why;
      img.gt.push(g);
    }
    this.instances += insts.length;
    return true;
  }

  /**
   * Sets split `split` from per-instance `ignore` flags of a file known to list exactly the
   * canonical file's images and instances in the same order (see `lastFileCanonical`).
   */
  addFlags(split: number, ignore: Uint8Array): void {
    const bit = 1 << split;
    let j = 0;
    for (const img of this.images) {
      img.splits |= bit;
      for (const g of img.gt) {
        g.present |= bit;
        if (!ignore[j++]) g.care |= bit;
      }
    }
  }

  /** Fast path: same count and the same polygons in the same order. */
  private sameInstances(img: LtbImage, insts: readonly unknown[]): boolean {
    if (insts.length !== img.gt.length || insts.length === 0) return false;
    for (let k = 0; k < insts.length; k++) {
      const inst = insts[k];
      if (!isObject(inst)) return false;
      const p = inst.polygon;
      const q = img.gt[k].points;
      if (!Array.isArray(p) || p.length !== q.length) return false;
      for (let i = 0; i < q.length; i++) if (p[i] !== q[i]) return false;
    }
    return true;
  }

  private joinSlow(
    img: LtbImage,
    split: number,
    file: string,
    insts: readonly unknown[],
    drop063?: (inst: Record<string, unknown>) => string | undefined,
  ): void {
    const bit = 1 << split;
    let keys = this.keyMaps.get(img);
    if (!keys) {
      keys = new Map();
      img.gt.forEach((g, i) => push(keys!, g.points.join(','), i));
      this.keyMaps.set(img, keys);
    }
    const seq: number[] = [];
    for (let k = 0; k < insts.length; k++) {
      const inst = insts[k];
      if (!isObject(inst)) {
        this.warnings.add(`${file}: ${img.imgPath}, instance ${k}: not an object (dropped)`);
        continue;
      }
      const pts = parsePolygon(inst.polygon);
      if (typeof pts === 'string') {
        this.warnings.add(`${file}: ${img.imgPath}, instance ${k}: ${pts} (dropped)`);
        continue;
      }
      const key = pts.join(',');
      const cands = keys.get(key);
      let gi = cands?.find((c) => !(img.gt[c].present & bit));
      if (gi === undefined) {
        gi = img.gt.length;
        const g: LtbGt = { points: pts, present: 0, care: 0, tags: 0 };
        if (typeof inst.text === 'string') g.text = inst.text;
          const why = drop063?.(inst);
        if (why) g.drop063 = why;
        img.gt.push(g);
        push(keys, key, gi);
        this.instances++;
      }
      const g = img.gt[gi];
      g.present |= bit;
      if (!inst.ignore) g.care |= bit;
      if (g.text === undefined && typeof inst.text === 'string') g.text = inst.text;
      else noteText(g, split, inst.text);
      seq.push(gi);
    }
    for (let i = 1; i < seq.length; i++) {
      if (seq[i] < seq[i - 1]) {
        (img.order ??= [])[split] = Int32Array.from(seq);
        break;
      }
    }
  }
}

/** Keeps a split's text for the same polygon when it differs from the one kept (for GT health). */
function noteText(g: LtbGt, split: number, text: unknown): void {
  if (typeof text === 'string' && g.text !== undefined && text !== g.text) (g.otherTexts ??= []).push({ split, text });
}

function push(m: Map<string, number[]>, k: string, v: number) {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
}
