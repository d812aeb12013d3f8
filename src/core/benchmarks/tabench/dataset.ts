/**
 * TABench on disk (tabench.md "Data on disk"): `TABench-abs.jsonl` and / or
 * `TABench-rel1000.jsonl` at the root of a clone, images under `<Category>/`. Both files hold
 * the same queries in the same order, so a query's id (its `id` / `qid` / `question_id`, else its
 * line number) names the same case in either space.
 */
import type { Box } from '../../geometry/box';
import { datasetFingerprint } from '../../fingerprint';
import { basename, dirname, joinPath, NameIndex, type FileSource, IMAGE_EXTENSIONS } from '../../io/fileSource';
import { forEachLine } from '../../io/text';
import { readImageHeader } from '../../image/header';
import { InputError, type DatasetInfo, type RunContext } from '../../model';
import { isBox } from './parse';
import { parseJsonLine } from '../../io/json';
import { ImageProblems } from '../../image/imageProblems';

export type Space = 'abs' | 'rel1000';
export const SPACES: readonly Space[] = ['abs', 'rel1000'];
export const BENCHMARK_FILE: Record<Space, string> = { abs: 'TABench-abs.jsonl', rel1000: 'TABench-rel1000.jsonl' };

export interface Query {
  id: string;
  /** 1-based line in the benchmark file. */
  line: number;
  image_path: string;
  task: 'R2T' | 'T2R';
  question: string;
  category?: string;
  source?: string;
  level?: string;
  /** R2T: the region to read (may be absent when the line's bbox is unusable). */
  queryBox?: Box;
  /** R2T: the expected string. */
  gtText: string;
  /** T2R: the GT boxes and their texts. */
  gtBoxes: Box[];
  gtTexts: string[];
}

export interface SpaceData {
  space: Space;
  /** Path of the benchmark file in the source. */
  file: string;
  queries: Query[];
  /** Raw text of every line (for a byte-identical export of untouched lines). */
  rawLines: string[];
  /** Line numbers (1-based) that could not be read as a query. */
  badLines: number;
  byId: Map<string, number>;
  byImageQuestion: Map<string, number>;
  /** After corrections: benchmark line number → corrected query (null = deleted), for the export. */
  edited?: Map<number, Query | null>;
}

export interface TabenchDataset {
  info: DatasetInfo;
  /** Folder of the benchmark files inside the source ('' = root). */
  root: string;
  spaces: Partial<Record<Space, SpaceData>>;
  /** image_path → path in the source, or null when the image is not in the folder. */
  imageFiles: Map<string, string | null>;
  /** image_path → pixel size from the image header, or null when unknown. */
  imageSizes: Map<string, { width: number; height: number } | null>;
}

export function imageQuestionKey(imagePath: string, question: string): string {
  return `${imagePath}\u0000${question}`;
}

/** Where the benchmark files are: the shallowest folder holding one of them. */
export function findRoot(src: FileSource): string | null {
  let best: string | null = null;
  for (const e of src.list()) {
    const b = basename(e.path);
    if (b !== BENCHMARK_FILE.abs && b !== BENCHMARK_FILE.rel1000) continue;
    const d = dirname(e.path);
    if (best === null || d.split('/').length < best.split('/').length || (d === '' && best !== '')) best = d;
  }
  return best;
}

export function queryIdOf(o: Record<string, unknown>): string | undefined {
  for (const k of ['id', 'qid', 'question_id']) {
    const v = o[k];
    if (v !== undefined && v !== null && v !== '') return String(v);
  }
  return undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** A box from `[x1,y1,x2,y2]` or a one-box list `[[…]]`. */
function oneBox(v: unknown): Box | undefined {
  if (isBox(v)) return [v[0], v[1], v[2], v[3]];
  if (Array.isArray(v) && v.length === 1 && isBox(v[0])) return [v[0][0], v[0][1], v[0][2], v[0][3]];
  return undefined;
}

/** Reads one benchmark line into a query, or says why it cannot. */
export function readQuery(o: unknown, line: number): Query | string {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return 'not a JSON object';
  const r = o as Record<string, unknown>;
  const task = r.task_type;
  if (task !== 'R2T' && task !== 'T2R') return 'task_type is neither R2T nor T2R';
  const image_path = str(r.image_path);
  if (!image_path) return 'no image_path';
  const q: Query = {
    id: queryIdOf(r) ?? String(line),
    line,
    image_path,
    task,
    question: typeof r.question === 'string' ? r.question : '',
    category: str(r.category),
    source: str(r.source_dataset),
    level: str(r.annotation_level),
    gtText: '',
    gtBoxes: [],
    gtTexts: [],
  };
  if (task === 'R2T') {
    const gt = typeof r.GT === 'string' ? r.GT : typeof r.text === 'string' ? r.text : undefined;
    if (gt === undefined) return 'R2T line without a GT string';
    q.gtText = gt;
    q.queryBox = oneBox(r.bbox);
    return q;
  }
  // T2R: GT is {bbox, text} or a list of them (`[]`: a query without GT); only a line with no GT
  // field at all falls back to its `bbox` (a list of boxes).
  const hasGt = r.GT !== undefined && r.GT !== null;
  const gts = Array.isArray(r.GT) ? r.GT : hasGt ? [r.GT] : [];
  for (const g of gts) {
    if (typeof g !== 'object' || g === null) continue;
    const b = oneBox((g as Record<string, unknown>).bbox);
    if (!b) return 'T2R GT entry without a 4-number bbox';
    q.gtBoxes.push(b);
    const t = (g as Record<string, unknown>).text;
    q.gtTexts.push(typeof t === 'string' ? t : '');
  }
  if (!hasGt && Array.isArray(r.bbox)) {
    const list = isBox(r.bbox) ? [r.bbox] : r.bbox;
    for (const b of list) {
      if (!isBox(b)) return 'T2R bbox is not a list of 4-number boxes';
      q.gtBoxes.push([b[0], b[1], b[2], b[3]]);
      q.gtTexts.push(typeof r.text === 'string' ? r.text : '');
    }
  }
  return q;
}

async function readSpace(
  src: FileSource,
  space: Space,
  file: string,
  warnings: string[],
  ctx?: RunContext,
): Promise<SpaceData> {
  const data: SpaceData = {
    space,
    file,
    queries: [],
    rawLines: [],
    badLines: 0,
    byId: new Map(),
    byImageQuestion: new Map(),
  };
  const name = basename(file);
  await forEachLine(src, file, (text, line) => {
    data.rawLines.push(text);
    if (text.trim() === '') return;
    if (line % 5000 === 0) ctx?.signal?.throwIfAborted();
    const parsed = parseJsonLine(text);
    if (!parsed.ok) {
      data.badLines += 1;
      warnings.push(`${name} line ${line}: ${parsed.why}`);
      return;
    }
    const o = parsed.value;
    const q = readQuery(o, line);
    if (typeof q === 'string') {
      data.badLines += 1;
      warnings.push(`${name} line ${line}: ${q}`);
      return;
    }
    if (data.byId.has(q.id)) {
      data.badLines += 1;
      warnings.push(`${name} line ${line}: second query with id ${q.id} ignored`);
      return;
    }
    const idx = data.queries.length;
    data.queries.push(q);
    data.byId.set(q.id, idx);
    const k = imageQuestionKey(q.image_path, q.question);
    if (!data.byImageQuestion.has(k)) data.byImageQuestion.set(k, idx);
  });
  return data;
}

export async function loadTabench(src: FileSource, ctx?: RunContext): Promise<TabenchDataset> {
  const root = findRoot(src);
  if (root === null) {
    throw new InputError(`${src.label}: no TABench-abs.jsonl or TABench-rel1000.jsonl`);
  }
  const warnings: string[] = [];
  const spaces: Partial<Record<Space, SpaceData>> = {};
  const listed = new Set(src.list().map((e) => e.path));
  for (const space of SPACES) {
    const file = joinPath(root, BENCHMARK_FILE[space]);
    if (listed.has(file)) spaces[space] = await readSpace(src, space, file, warnings, ctx);
  }
  const main = (spaces.abs ?? spaces.rel1000)!;
  if (spaces.abs && spaces.rel1000 && spaces.abs.queries.length !== spaces.rel1000.queries.length) {
    warnings.push(
      `${BENCHMARK_FILE.abs} has ${spaces.abs.queries.length} queries but ${BENCHMARK_FILE.rel1000} has ${spaces.rel1000.queries.length}`,
    );
  }
  if (main.queries.length === 0) throw new InputError(`${main.file}: no readable TABench query`);

  // Resolve every image against the root, else by file name anywhere in the folder; read only
  // headers (sizes map rel1000 boxes to pixels for drawing).
  const images = [...new Set(Object.values(spaces).flatMap((s) => s.queries.map((q) => q.image_path)))];
  const imagePaths = src.list().filter((e) => IMAGE_EXTENSIONS.test(e.path)).map((e) => e.path);
  const names = new NameIndex(imagePaths);
  const imageFiles = new Map<string, string | null>();
  const imageSizes = new Map<string, { width: number; height: number } | null>();
  const problems = new ImageProblems('its queries are scored without a picture');
  for (const p of images) {
    const direct = joinPath(root, p);
    const file = listed.has(direct) ? direct : (names.byFileName(p) ?? null);
    imageFiles.set(p, file);
    if (!file) problems.notFound(p);
  }
  if (problems.notFoundCount > 0) warnings.push(`${problems.notFoundCount} of ${images.length} images are not in the folder`);
  let done = 0;
  const queue = images.filter((p) => imageFiles.get(p));
  const worker = async () => {
    for (let p = queue.pop(); p !== undefined; p = queue.pop()) {
      ctx?.signal?.throwIfAborted();
      let size: { width: number; height: number } | null = null;
      try {
        const h = await readImageHeader(src, imageFiles.get(p)!);
        if (h) size = { width: h.width, height: h.height };
      } catch {
        size = null;
      }
      imageSizes.set(p, size);
      done += 1;
      if (done % 50 === 0) ctx?.progress?.({ phase: 'read', done, total: images.length, label: 'image headers' });
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, queue.length) }, worker));
  // In the dataset's order (the header reads above finish in any order).
  for (const p of images) {
    const f = imageFiles.get(p);
    if (f && imageSizes.get(p) === null) problems.undecodable(f, 'no PNG, JPEG, GIF, BMP or WebP header with a size');
  }
  warnings.push(...problems.warnings());

  const r2t = main.queries.filter((q) => q.task === 'R2T').length;
  const info: DatasetInfo = {
    benchmark: 'tabench',
    summary: `TABench — ${main.queries.length} queries (${r2t} R2T, ${main.queries.length - r2t} T2R), ${images.length} images, ${Object.keys(spaces).join(' + ')}`,
    cases: main.queries.length,
    images: images.length,
    warnings,
    fingerprint: datasetFingerprint(
      'tabench',
      // Space-independent content only (questions carry the box in the file's own space).
      main.queries.map((q) => `${q.id}\t${q.task}\t${q.image_path}\t${q.task === 'R2T' ? q.gtText : q.gtTexts.join('\n')}`),
    ),
    facts: { queries: main.queries.length, r2t, t2r: main.queries.length - r2t, images: images.length },
  };
  return { info, root, spaces, imageFiles, imageSizes };
}
