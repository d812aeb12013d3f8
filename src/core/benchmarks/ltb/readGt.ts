/**
 * Finding and reading LTB ground truth: the 15 `challenging_<split>.json` files (MMOCR 1.x
 * textdet), or one MMOCR 1.x textdet JSON, a COCO-style JSON, or an ICDAR2015 folder of
 * `gt_img_<n>.txt` — the last three scored as the single split `norm`.
 */
import { IMAGE_EXTENSIONS, basename, dirname, stem, type FileSource } from '../../io/fileSource';
import { decodeText } from '../../io/text';
import { InputError } from '../../model';
import type { GtFormat } from './dataset';
import { GtBuilder } from './gtJoin';
import { NORM, SPLITS, splitOfFileName } from './splits';
import { diffIgnoreFlags, indexIgnoreLiterals, type IgnoreIndex } from './splitDiff';
import { isObject, pyTruthy, type WarningList } from './values';
import { quoteValue } from '../../io/json';

export type GtPlan =
  | { kind: 'splits'; files: { split: number; path: string }[]; duplicates: string[] }
  | { kind: 'mmocr-single'; path: string }
  | { kind: 'coco'; path: string }
  | { kind: 'icdar'; files: { path: string; stem: string }[] };

export const EXPECTS =
  'anno/mmocr1.x_format/challenging_<split>.json (MMOCR 1.x textdet, any of the 15 splits) with the images in ' +
  'anno/hard/images/, or one MMOCR 1.x textdet JSON (data_list), a COCO-style JSON (images + annotations with ' +
  'segmentation), or an ICDAR2015 folder of gt_img_<n>.txt';

const PEEK_BYTES = 64 * 1024;
const MAX_PEEKS = 20;

async function peek(src: FileSource, path: string, size: number): Promise<string> {
  if (src.readRange) return decodeText(await src.readRange(path, 0, Math.min(size, PEEK_BYTES)));
  if (size > 8 * PEEK_BYTES) return '';
  return decodeText((await src.read(path)).subarray(0, PEEK_BYTES));
}

/** Looks at the listing (and the first bytes of a few JSON files) for LTB-style ground truth. */
export async function planGt(src: FileSource): Promise<GtPlan | null> {
  const list = src.list();
  const bySplit = new Map<number, string>();
  const duplicates: string[] = [];
  for (const e of list) {
    const s = splitOfFileName(basename(e.path));
    if (s === null) continue;
    if (bySplit.has(s)) duplicates.push(e.path);
    else bySplit.set(s, e.path);
  }
  if (bySplit.size > 0) {
    const files = [...bySplit.entries()].map(([split, path]) => ({ split, path }));
    // norm first: its order and care flags become the canonical instance list.
    files.sort((a, b) => (a.split === NORM ? -1 : b.split === NORM ? 1 : a.split - b.split));
    return { kind: 'splits', files, duplicates };
  }
  let coco: string | null = null;
  const jsons = list.filter((e) => /\.json$/i.test(e.path)).slice(0, MAX_PEEKS);
  for (const e of jsons) {
    let head: string;
    try {
      head = await peek(src, e.path, e.size);
    } catch {
      continue;
    }
    if (/"data_list"\s*:/.test(head) && /"(instances|metainfo)"\s*:/.test(head)) return { kind: 'mmocr-single', path: e.path };
    if (!coco && /"images"\s*:/.test(head) && /"(annotations|file_name)"\s*:/.test(head)) coco = e.path;
  }
  if (coco) return { kind: 'coco', path: coco };
  const icdar = list
    .map((e) => ({ path: e.path, m: /^gt_(.+)\.txt$/i.exec(basename(e.path)) }))
    .filter((x) => x.m)
    .map((x) => ({ path: x.path, stem: x.m![1] }));
  if (icdar.length > 0) return { kind: 'icdar', files: icdar };
  return null;
}

export function planConfidence(plan: GtPlan): number {
  switch (plan.kind) {
    case 'splits':
      return plan.files.length >= 2 ? 0.95 : 0.85;
    case 'mmocr-single':
      return 0.6;
    case 'icdar':
      return 0.5;
    case 'coco':
      return 0.35;
  }
}

export function planReason(plan: GtPlan): string {
  switch (plan.kind) {
    case 'splits':
      return `${plan.files.length} LTB split file(s) challenging_<split>.json`;
    case 'mmocr-single':
      return `MMOCR 1.x textdet annotations ${plan.path}`;
    case 'coco':
      return `COCO-style text annotations ${plan.path}`;
    case 'icdar':
      return `${plan.files.length} ICDAR2015 ground-truth file(s) gt_<image>.txt`;
  }
}

export interface GtRead {
  builder: GtBuilder;
  format: GtFormat;
  splitFiles: { split: number; path: string }[];
  annoDirs: string[];
}

/** Reads the planned files into one joined GT list. */
export async function readGt(src: FileSource, plan: GtPlan, warnings: WarningList, onFile?: (done: number, total: number) => void): Promise<GtRead> {
  const builder = new GtBuilder(warnings);
  switch (plan.kind) {
    case 'splits': {
      for (const d of plan.duplicates) warnings.add(`${d}: a second file for the same split (ignored)`);
      let done = 0;
      let format: GtFormat = 'mmocr1.x';
      let canon: { bytes: Uint8Array; index: IgnoreIndex } | null = null;
      for (const f of plan.files) {
        const bytes = await src.read(f.path);
        const flags = canon && diffIgnoreFlags(canon.bytes, canon.index, bytes);
        if (flags) {
          builder.addFlags(f.split, flags);
        } else {
          const text = decodeText(bytes);
          const doc = parseOrThrow(text, f.path);
          const shape = [builder.images.length, builder.instances];
          format = addDocument(builder, f.split, f.path, doc);
          if (done === 0 && format === 'mmocr1.x' && builder.lastFileCanonical) {
            const index = indexIgnoreLiterals(text, bytes.length, builder.instances);
            if (index) canon = { bytes, index };
          } else if (shape[0] !== builder.images.length || shape[1] !== builder.instances) {
            canon = null; // the instance lists changed: positions no longer line up
          }
        }
        onFile?.(++done, plan.files.length);
      }
      return { builder, format, splitFiles: plan.files, annoDirs: unique(plan.files.map((f) => dirname(f.path))) };
    }
    case 'mmocr-single':
    case 'coco': {
      const doc = await readJsonOrThrow(src, plan.path);
      const format = addDocument(builder, NORM, plan.path, doc);
      return { builder, format, splitFiles: [{ split: NORM, path: plan.path }], annoDirs: [dirname(plan.path)] };
    }
    case 'icdar': {
      const list = await readIcdarFolder(src, plan.files, warnings);
      builder.addFile(NORM, 'gt_*.txt', list);
      return { builder, format: 'icdar2015', splitFiles: [{ split: NORM, path: '' }], annoDirs: unique(plan.files.map((f) => dirname(f.path))) };
    }
  }
}

async function readJsonOrThrow(src: FileSource, path: string): Promise<unknown> {
  return parseOrThrow(decodeText(await src.read(path)), path);
}

function parseOrThrow(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError(`${path}: not valid JSON (${(e as Error).message})`);
  }
}

/** Adds an MMOCR 1.x or COCO document as split `split`. */
function addDocument(builder: GtBuilder, split: number, path: string, doc: unknown): GtFormat {
  if (isObject(doc) && Array.isArray(doc.data_list)) {
    builder.addFile(split, path, doc.data_list);
    return 'mmocr1.x';
  }
  if (isObject(doc) && Array.isArray(doc.images) && Array.isArray(doc.annotations)) {
    builder.addFile(split, path, cocoToDataList(doc.images, doc.annotations, path, builder.warnings), (inst) =>
      typeof inst.__drop063 === 'string' ? inst.__drop063 : undefined,
    );
    return 'coco';
  }
  const what = SPLITS[split].key;
  throw new InputError(
    `${path}: not LTB ground truth for split ${what} (expected MMOCR 1.x textdet JSON with "data_list", or COCO JSON with "images" and "annotations")`,
  );
}

/**
 * COCO as the LTB screening tool reads it: `segmentation[0]` is the polygon, `iscrowd` means
 * don't care. The MMOCR 0.6.3 loader drops an annotation with `ignore: true`, and one whose bbox
 * width or height is < 1, entirely; MMOCR 1.x has no COCO loader, so there such an `ignore: true`
 * annotation counts as don't care and a thin box stays.
 */
function cocoToDataList(images: unknown[], annotations: unknown[], path: string, warnings: WarningList): unknown[] {
  const byId = new Map<unknown, { img_path: string; width?: number; height?: number; instances: Record<string, unknown>[] }>();
  const out: unknown[] = [];
  images.forEach((im, i) => {
    if (!isObject(im) || typeof im.file_name !== 'string') {
      warnings.add(`${path}: images[${i}]: no file_name (skipped)`);
      return;
    }
    const e = {
      img_path: im.file_name,
      width: typeof im.width === 'number' ? im.width : undefined,
      height: typeof im.height === 'number' ? im.height : undefined,
      instances: [] as Record<string, unknown>[],
    };
    byId.set(im.id, e);
    out.push(e);
  });
  annotations.forEach((a, i) => {
    if (!isObject(a)) {
      warnings.add(`${path}: annotations[${i}]: not an object (skipped)`);
      return;
    }
    const e = byId.get(a.image_id);
    if (!e) {
      warnings.add(`${path}: annotations[${i}]: unknown image_id ${quoteValue(a.image_id, 64)} (skipped)`);
      return;
    }
    const seg = a.segmentation;
    let polygon: unknown = undefined;
    if (Array.isArray(seg) && Array.isArray(seg[0])) polygon = seg[0];
    else if (Array.isArray(seg) && typeof seg[0] === 'number') polygon = seg;
    if (polygon === undefined) {
      warnings.add(`${path}: annotations[${i}]: no polygon in "segmentation" (skipped)`);
      return;
    }
    const inst: Record<string, unknown> = { polygon, ignore: pyTruthy(a.iscrowd) || pyTruthy(a.ignore) };
    if (typeof a.text === 'string') inst.text = a.text;
    else if (typeof a.transcription === 'string') inst.text = a.transcription;
    const bb = a.bbox;
    if (Array.isArray(bb) && bb.length === 4 && bb.every((v) => typeof v === 'number')) {
      const [x, y, w, h] = bb as number[];
      inst.bbox = [x, y, x + w, y + h];
      if (w < 1 || h < 1) inst.__drop063 = `bbox ${w} × ${h} (a side < 1)`;
    }
    if (pyTruthy(a.ignore)) inst.__drop063 = `ignore: ${quoteValue(a.ignore, 64)}`;
    e.instances.push(inst);
  });
  return out;
}

/** ICDAR2015 `gt_img_<n>.txt`: `x1,y1,…,x4,y4,transcription` per line, `###` = don't care. */
async function readIcdarFolder(src: FileSource, files: { path: string; stem: string }[], warnings: WarningList): Promise<unknown[]> {
  const imageNames = new Map<string, string>();
  for (const e of src.list()) if (IMAGE_EXTENSIONS.test(e.path)) imageNames.set(stem(e.path), basename(e.path));
  const out: unknown[] = [];
  const sorted = [...files].sort((a, b) => naturalCompare(a.stem, b.stem));
  for (const f of sorted) {
    const text = decodeText(await src.read(f.path));
    const instances: Record<string, unknown>[] = [];
    text.split('\n').forEach((raw, i) => {
      const line = raw.replace(/^\uFEFF/, '').replace(/\r$/, '');
      if (line.trim() === '') return;
      const parts = line.split(',');
      if (parts.length < 8) {
        warnings.add(`${f.path}: line ${i + 1}: expected x1,y1,…,x4,y4,transcription (${parts.length} fields)`);
        return;
      }
      const coords = parts.slice(0, 8).map((s) => (s.trim() === '' ? NaN : Number(s)));
      const bad = coords.findIndex((v) => !Number.isFinite(v));
      if (bad >= 0) {
        warnings.add(`${f.path}: line ${i + 1}: coordinate ${bad + 1} is not a number ("${parts[bad].trim()}")`);
        return;
      }
      const transcription = parts.slice(8).join(',');
      const inst: Record<string, unknown> = { polygon: coords, ignore: transcription.trim() === '###' };
      if (parts.length > 8) inst.text = transcription;
      instances.push(inst);
    });
    out.push({ img_path: imageNames.get(f.stem) ?? `${f.stem}.jpg`, instances });
  }
  return out;
}

function naturalCompare(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
