/**
 * Reading `data/Chronicles_OCR.jsonl`: one row per image, joined to predictions on `image_path`.
 * Every oddity the official code tolerates is tolerated here too, with a warning that names the
 * line, and is then scored the way the official code scores it.
 */
import { datasetFingerprint } from '../../fingerprint';
import { NameIndex, basename, dirname, joinPath, IMAGE_EXTENSIONS, type FileSource } from '../../io/fileSource';
import { forEachJsonObjectLine } from '../../io/text';
import { InputError, type DatasetInfo, type RunContext } from '../../model';
import { SCRIPT_BY_NAME, tasksFor, type ScriptInfo, type TaskId } from './constants';
import type { SpotItem } from './judge';
import { isPlainObject, pyFloat, pyInt, pyStr, pyText, pyTruthy } from './py';
import { quoteValue } from '../../io/json';
import { ImageProblems, checkImageFiles } from '../../image/imageProblems';
import { referringBasis, type ReferringBasis } from './recognitionTarget';

export const GT_FILE = 'Chronicles_OCR.jsonl';

export interface GtChar extends SpotItem {
  /** Index of the item in the row's `spotting` list. */
  index: number;
  /** How the bbox was read: an {x1..} object, [x, y, w, h] or [x1, y1, x2, y2]. */
  form: 'object' | 'xywh' | 'xyxy';
}

export interface GtRow {
  image_path: string;
  line: number;
  /** The row as parsed (what exportGroundTruth writes back, corrections applied). */
  raw: Record<string, unknown>;
  font_type: string;
  /** Known script, or a stand-in for a font_type outside the 7 (summarised under its own name). */
  script: ScriptInfo;
  known_script: boolean;
  tasks: readonly TaskId[];
  /** `int(width or 0)`, `int(height or 0)`; 0 means no GT boxes for Spotting. */
  width: number;
  height: number;
  /** Set when the official judge raises on this row's Spotting GT (bad width, non-list spotting). */
  spotting_error?: string;
  chars: GtChar[];
  image_file: string | null;
  /** What infer.py's Recognition target is picked from (rows with that task and a candidate). */
  referring: ReferringBasis | null;
}

export interface ChroniclesDataset {
  info: DatasetInfo;
  rows: GtRow[];
  byPath: Map<string, GtRow>;
  /** Path of the GT file inside the source, and of the folder image paths are relative to. */
  gtPath: string;
  dataDir: string;
  /** The dataset root (where infer_results/ lives). */
  root: string;
}

/** The GT file: `data/Chronicles_OCR.jsonl` preferred, else the shallowest file of that name. */
export function findGtFile(src: FileSource): string | null {
  const hits = src
    .list()
    .map((e) => e.path)
    .filter((p) => basename(p) === GT_FILE)
    .sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
  return hits.find((p) => dirname(p).split('/').pop() === 'data') ?? hits[0] ?? null;
}

export function datasetRoot(gtPath: string): string {
  const dataDir = dirname(gtPath);
  return basename(dataDir) === 'data' ? dirname(dataDir) : dataDir;
}

/** `utils/bbox.py: bbox_to_xyxy` plus the reason when an item is not usable. */
export function readGtBox(item: Record<string, unknown>): { box: [number, number, number, number]; form: GtChar['form'] } | { drop: string } {
  const bbox = item.bbox;
  if (bbox === null || bbox === undefined) return { drop: 'has no bbox' };
  let x1: number, y1: number, x2: number, y2: number;
  let form: GtChar['form'];
  if (isPlainObject(bbox)) {
    const v = ['x1', 'y1', 'x2', 'y2'].map((k) => (k in bbox ? pyFloat(bbox[k]) : null));
    if (v.some((n) => n === null)) return { drop: 'bbox object needs numeric x1, y1, x2, y2' };
    [x1, y1, x2, y2] = v as number[];
    form = 'object';
  } else if (Array.isArray(bbox)) {
    if (bbox.length !== 4) return { drop: `bbox has ${bbox.length} numbers, not 4` };
    const b = bbox.map(pyFloat);
    if (b.some((n) => n === null)) return { drop: 'bbox has a non-number' };
    const [a0, a1, a2, a3] = b as number[];
    // Two signs of [x, y, w, h]: the item has modern_char, or the corner is above/left of the origin.
    if ('modern_char' in item || a2 < a0 || a3 < a1) {
      [x1, y1, x2, y2] = [a0, a1, a0 + a2, a1 + a3];
      form = 'xywh';
    } else {
      [x1, y1, x2, y2] = [a0, a1, a2, a3];
      form = 'xyxy';
    }
  } else {
    return { drop: 'bbox is neither a list nor an object' };
  }
  if (!(x2 > x1 && y2 > y1)) return { drop: `box [${x1}, ${y1}, ${x2}, ${y2}] is empty (x2 ≤ x1 or y2 ≤ y1)` };
  return { box: [x1, y1, x2, y2], form };
}

/** `item_char`: modern_char unless missing / null, else text; then `str(x or "").strip()`. */
export function gtCharText(item: Record<string, unknown>): string {
  const ch = item.modern_char ?? item.text ?? '';
  return pyText(ch);
}

/** `get_image_path`: the first non-empty of image_path, img_path, image. */
export function rowImagePath(row: Record<string, unknown>): string | null {
  for (const k of ['image_path', 'img_path', 'image']) {
    const v = row[k];
    if (pyTruthy(v)) return typeof v === 'string' ? v : pyStr(v);
  }
  return null;
}

/**
 * Builds a GtRow from a parsed line; `warn` gets sentences without the "line N:" prefix. `text`,
 * the line as written, keeps the numbers the Recognition target's fingerprint hashes exact.
 */
export function parseGtRow(raw: Record<string, unknown>, line: number, imagePath: string, warn: (w: string) => void, text?: string): GtRow {
  const row = readGtRow(raw, line, imagePath, warn);
  if (row.tasks.includes('recognition')) row.referring = referringBasis(raw, row.chars, text);
  return row;
}

function readGtRow(raw: Record<string, unknown>, line: number, imagePath: string, warn: (w: string) => void): GtRow {
  const font = pyText(raw.font_type);
  let script = SCRIPT_BY_NAME.get(font);
  const known = !!script;
  if (!script) {
    const name = font || '未知';
    warn(`font_type "${font}" is not one of the 7 scripts: judged on classification and parsing, summarised as "${name}"`);
    script = { name, key: name.replace(/\//g, '_'), english: name, group: 'modern' };
  }
  const tasks = tasksFor(font);
  const row: GtRow = {
    image_path: imagePath,
    line,
    raw,
    font_type: font,
    script,
    known_script: known,
    tasks,
    width: 0,
    height: 0,
    chars: [],
    image_file: null,
    referring: null,
  };
  if (raw.annotation !== undefined && raw.annotation !== null && typeof raw.annotation !== 'string') {
    warn(`annotation is not a string: its parsing is a judge error (as in the official judge)`);
  }
  if (!tasks.includes('spotting')) return row;

  for (const dim of ['width', 'height'] as const) {
    const v = raw[dim];
    if (!pyTruthy(v)) continue;
    const n = pyInt(v);
    if (n === null) {
      row.spotting_error = `invalid literal for int(): ${pyStr(v)}`;
      warn(`${dim} ${quoteValue(v, 64)} is not an integer: its spotting is a judge error (as in the official judge)`);
    } else row[dim] = n;
  }
  if (!pyTruthy(raw.width) || !pyTruthy(raw.height)) {
    warn('no width/height: spotting has no GT boxes for this image (as in the official judge)');
  }
  const sp = raw.spotting;
  if (!pyTruthy(sp)) return row;
  if (typeof sp === 'number' || typeof sp === 'boolean') {
    row.spotting_error = `'${typeof sp === 'number' ? 'int' : 'bool'}' object is not iterable`;
    warn('spotting is not a list: its spotting is a judge error (as in the official judge)');
    return row;
  }
  if (!Array.isArray(sp)) {
    warn('spotting is not a list: no GT characters');
    return row;
  }
  sp.forEach((it: unknown, i: number) => {
    if (!isPlainObject(it)) {
      warn(`spotting[${i}] is not an object: ignored`);
      return;
    }
    const charField = it.modern_char ?? it.text;
    if (charField !== undefined && charField !== null && typeof charField !== 'string') {
      warn(`spotting[${i}] char is ${quoteValue(charField, 64)}, not a string: read as "${gtCharText(it)}"`);
    }
    const r = readGtBox(it);
    if ('drop' in r) {
      warn(`spotting[${i}] ${r.drop}: dropped`);
      return;
    }
    row.chars.push({ index: i, bbox: r.box, char: gtCharText(it), form: r.form });
  });
  return row;
}

export function buildInfo(rows: readonly GtRow[], warnings: string[]): DatasetInfo {
  const cases = rows.reduce((n, r) => n + r.tasks.length, 0);
  const scripts = new Set(rows.map((r) => r.script.name));
  return {
    benchmark: 'chronicles',
    summary: `Chronicles-OCR — ${rows.length} images, ${cases} (image, task) cases, ${scripts.size} scripts`,
    cases,
    images: rows.length,
    warnings,
    fingerprint: datasetFingerprint(
      'chronicles',
      rows.flatMap((r) => r.tasks.map((t) => `${r.image_path}#${t}`)),
    ),
    facts: { scripts: scripts.size, images: rows.length },
  };
}

export async function loadChroniclesDataset(src: FileSource, ctx?: RunContext): Promise<ChroniclesDataset> {
  const gtPath = findGtFile(src);
  if (!gtPath) throw new InputError(`${src.label}: no data/${GT_FILE} (the Chronicles-OCR ground truth)`);
  const dataDir = dirname(gtPath);
  const warnings: string[] = [];
  const byPath = new Map<string, GtRow>();
  const order: string[] = [];
  let malformed = 0;
  try {
    const bad = (n: number, why: string) => {
      malformed++;
      warnings.push(`line ${n}: ${why} (${gtPath})`);
    };
    await forEachJsonObjectLine(src, gtPath, (v, n, text) => {
      const warn = (w: string) => warnings.push(`line ${n}: ${w} (${gtPath})`);
      const path = rowImagePath(v);
      if (!path) {
        warn('no image_path: row ignored');
        return;
      }
      if (byPath.has(path)) warn(`image_path "${path}" repeats line ${byPath.get(path)!.line}: this later row is the one used`);
      else order.push(path);
      byPath.set(path, parseGtRow(v, n, path, warn, text));
    }, bad);
  } catch (e) {
    throw new InputError(`${gtPath}: cannot be read (${(e as Error).message})`);
  }
  ctx?.signal?.throwIfAborted();
  const rows = order.map((p) => byPath.get(p)!);
  if (rows.length === 0) throw new InputError(`${gtPath}: no usable rows (${malformed} malformed lines)`);
  resolveImages(src, dataDir, rows);
  const problems = new ImageProblems();
  for (const r of rows) if (!r.image_file) problems.notFound(joinPath(dataDir, r.image_path));
  await checkImageFiles(src, [...new Set(rows.map((r) => r.image_file).filter((f): f is string => !!f))], problems, ctx?.signal);
  if (problems.notFoundCount) warnings.push(`${problems.notFoundCount} of ${rows.length} images not found under ${dataDir || '.'}/`);
  warnings.push(...problems.warnings());
  return { info: buildInfo(rows, warnings), rows, byPath, gtPath, dataDir, root: datasetRoot(gtPath) };
}

/** Images are relative to data/; else matched by file name anywhere in the folder. */
function resolveImages(src: FileSource, dataDir: string, rows: GtRow[]): void {
  const listing = src.list().map((e) => e.path);
  const all = new Set(listing);
  let index: NameIndex | null = null;
  for (const r of rows) {
    const direct = joinPath(dataDir, r.image_path);
    if (all.has(direct)) {
      r.image_file = direct;
      continue;
    }
    index ??= new NameIndex(listing.filter((p) => IMAGE_EXTENSIONS.test(p)));
    r.image_file = index.byFileName(r.image_path) ?? null;
  }
}
