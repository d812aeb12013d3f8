/**
 * Reads a PulseBench-Select dataset folder: the Hugging Face layout (data/train-*.parquet, images
 * embedded; results/train-*.parquet, the card's leaderboard) or the JSONL + image-folder export
 * (data/*.jsonl, else *.jsonl at the root; `image` a relative path).
 */
import { datasetFingerprint } from '../../fingerprint';
import { dirname, joinPath, NameIndex, type FileSource } from '../../io/fileSource';
import { openParquet, plainNumber, readParquetRows, type ParquetFile } from '../../io/parquet';
import { decodeText, forEachJsonObjectLine } from '../../io/text';
import { parseJsonLine } from '../../io/json';
import { displaySize, parseImageHeader, readImageHeader, type ImageHeader } from '../../image/header';
import { InputError, type DatasetInfo, type RunContext } from '../../model';
import { isRecord, selectedOf, toItem, type SelItem } from './items';
import { ImageProblems } from '../../image/imageProblems';

/** Where a sample's page image is: a row of a parquet file, or a file of the folder. */
export type ImageRef = { kind: 'parquet'; file: string; row: number } | { kind: 'file'; path: string } | null;

export interface PulseSample {
  id: string;
  pageCount: number;
  /** The selected GT items, in GT order (their index is the tie-break "GT index"). */
  gt: SelItem[];
  /** Annotations with a visible selection mark that are not selected (drawn for context). */
  candidates: SelItem[];
  categories: string[];
  image: ImageRef;
  /** The image's own name as the dataset gives it (parquet `image.path`, or the JSONL path). */
  imagePath: string | null;
  width?: number;
  height?: number;
  /**
   * An image embedded in a parquet row whose header carries an EXIF orientation other than 1:
   * that header and where the image is ("<file> row <n>"), for GT health's exif_rotated
   * (images in the folder are checked from their files).
   */
  turnedEmbedded?: { header: ImageHeader; at: string };
}

/** One row of the `results` config: the card's own numbers per provider. */
export interface LeaderboardRow {
  rank: number | null;
  provider: string;
  display_name: string;
  precision: number | null;
  recall: number | null;
  selection_f1: number | null;
  macro_precision: number | null;
  macro_recall: number | null;
  macro_skipped_samples: number | null;
  metric_version: string;
}

export interface PulseDataset {
  info: DatasetInfo;
  layout: 'parquet' | 'jsonl';
  samples: PulseSample[];
  byId: Map<string, PulseSample>;
  /** The card's leaderboard (results config), shown beside the user's own models. */
  leaderboard: LeaderboardRow[];
}

export const PARQUET_DATA = /^data\/train-[^/]*\.parquet$/;
export const PARQUET_RESULTS = /^results\/train-[^/]*\.parquet$/;
const REQUIRED_COLUMNS = ['sample_id', 'ground_truth'];

/** The data files of the default config in name order. */
export function parquetDataFiles(src: FileSource): string[] {
  return src
    .list()
    .map((e) => e.path)
    .filter((p) => PARQUET_DATA.test(p))
    .sort();
}

/** The JSONL export: data/*.jsonl, else *.jsonl at the root (only used without parquet). */
export function jsonlDataFiles(src: FileSource): string[] {
  const paths = src.list().map((e) => e.path);
  const inData = paths.filter((p) => /^data\/[^/]+\.jsonl$/i.test(p)).sort();
  if (inData.length > 0) return inData;
  return paths.filter((p) => /^[^/]+\.jsonl$/i.test(p)).sort();
}

interface RawRow {
  sampleId: unknown;
  groundTruth: unknown;
  where: string;
}

/**
 * Turns one row into a sample; a row that cannot be used costs that row (a warning), never the
 * dataset. Returns null for such a row.
 */
function sampleFromRow(row: RawRow, warnings: string[]): PulseSample | null {
  if (row.sampleId === undefined || row.sampleId === null || row.sampleId === '') {
    warnings.push(`${row.where}: no sample_id`);
    return null;
  }
  const id = String(row.sampleId);
  let gt: unknown = row.groundTruth;
  if (gt instanceof Uint8Array) gt = decodeText(gt);
  if (typeof gt === 'string') {
    const r = parseJsonLine(gt);
    if (!r.ok) {
      warnings.push(`${row.where} (${id}): ground_truth is ${r.why}`);
      return null;
    }
    gt = r.value;
  }
  if (!isRecord(gt)) {
    warnings.push(`${row.where} (${id}): ground_truth is not an object`);
    return null;
  }
  const annotations = Array.isArray(gt.annotations) ? gt.annotations.filter(isRecord) : [];
  // Without selected_items the selected annotations are the GT (spec, Decisions).
  const selectedRaw = Array.isArray(gt.selected_items)
    ? gt.selected_items.filter(isRecord)
    : annotations.filter((a) => a.selected !== undefined && a.selected !== null && selectedOf(a.selected));
  const items: SelItem[] = [];
  selectedRaw.forEach((o, k) => {
    const it = toItem(o);
    if (it) items.push(it);
    else warnings.push(`${row.where} (${id}): selected item ${k + 1} has a page that is not an integer; left out`);
  });
  const candidates: SelItem[] = [];
  for (const a of annotations) {
    const selected = a.selected !== undefined && a.selected !== null && selectedOf(a.selected);
    if (selected || !a.selection_candidate) continue;
    const it = toItem(a, false);
    if (it) candidates.push(it);
  }
  const categories = [...new Set(annotations.map((a) => a.category).filter((c): c is string => typeof c === 'string'))].sort();
  const pc = plainNumber(gt.page_count);
  return {
    id,
    pageCount: pc !== null && pc > 0 ? pc : Math.max(1, ...items.map((i) => i.page)),
    gt: items,
    candidates,
    categories,
    image: null,
    imagePath: null,
  };
}

function finish(
  layout: 'parquet' | 'jsonl',
  samples: PulseSample[],
  warnings: string[],
  leaderboard: LeaderboardRow[],
  where: string,
): PulseDataset {
  const byId = new Map<string, PulseSample>();
  const unique: PulseSample[] = [];
  for (const s of samples) {
    if (byId.has(s.id)) {
      warnings.push(`sample_id ${s.id} appears more than once; the first row is used`);
      continue;
    }
    byId.set(s.id, s);
    unique.push(s);
  }
  if (unique.length === 0) throw new InputError(`${where}: no usable PulseBench-Select sample (${warnings[0] ?? 'no rows'})`);
  const selected = unique.reduce((n, s) => n + s.gt.length, 0);
  const images = unique.filter((s) => s.image !== null).length;
  const facts: Record<string, string | number> = {
    layout: layout === 'parquet' ? 'parquet (Hugging Face)' : 'JSONL + image folder',
    samples: unique.length,
    'selected items': selected,
    'samples with nothing selected': unique.filter((s) => s.gt.length === 0).length,
  };
  for (const r of leaderboard) {
    facts[`card leaderboard: ${r.display_name || r.provider}`] =
      `P ${fmt(r.precision)} · R ${fmt(r.recall)} · F1 ${fmt(r.selection_f1)}` + (r.metric_version ? ` (${r.metric_version})` : '');
  }
  const info: DatasetInfo = {
    benchmark: 'pulsebench-select',
    summary: `PulseBench-Select — ${unique.length} samples, ${selected} selected items (${facts.layout})`,
    cases: unique.length,
    images,
    warnings,
    fingerprint: datasetFingerprint(
      'pulsebench-select',
      unique.map((s) => `${s.id}\t${s.gt.map((i) => `${i.page}:${i.content}`).join('\t')}`),
    ),
    facts,
  };
  return { info, layout, samples: unique, byId, leaderboard };
}

function fmt(v: number | null): string {
  return v === null ? '—' : String(v);
}

// ---------------------------------------------------------------- parquet

/** Opens a parquet file; any failure becomes an InputError naming the file. */
export async function openParquetOrThrow(src: FileSource, path: string): Promise<ParquetFile> {
  try {
    return await openParquet(src, path);
  } catch (e) {
    throw new InputError((e as Error).message);
  }
}

async function readRowsOrThrow(pf: ParquetFile, opts: Parameters<typeof readParquetRows>[1]) {
  try {
    return await readParquetRows(pf, opts);
  } catch (e) {
    throw new InputError((e as Error).message);
  }
}

async function loadParquet(src: FileSource, files: string[], ctx?: RunContext): Promise<PulseDataset> {
  const warnings: string[] = [];
  const problems = new ImageProblems('its form is scored without a picture');
  const samples: PulseSample[] = [];
  const opened: ParquetFile[] = [];
  for (const path of files) {
    const pf = await openParquetOrThrow(src, path);
    const missing = REQUIRED_COLUMNS.filter((c) => !pf.columns.includes(c));
    if (missing.length > 0) {
      throw new InputError(
        `${path}: not a PulseBench-Select data file (missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}; has ${pf.columns.join(', ')})`,
      );
    }
    opened.push(pf);
  }
  const total = opened.reduce((n, pf) => n + pf.rows, 0);
  let done = 0;
  for (const pf of opened) {
    ctx?.signal?.throwIfAborted();
    const rows = await readRowsOrThrow(pf, { columns: REQUIRED_COLUMNS });
    const fileSamples = rows.map((r, row) => {
      const s = sampleFromRow({ sampleId: r.sample_id, groundTruth: r.ground_truth, where: `${pf.path} row ${row}` }, warnings);
      if (s && pf.columns.includes('image')) s.image = { kind: 'parquet', file: pf.path, row };
      return { s, row };
    });
    if (!pf.columns.includes('image')) warnings.push(`${pf.path}: no image column; cases have no page image`);
    else {
      // Image sizes come from the PNG/JPEG header of each embedded image; the bytes are read one
      // row group at a time and dropped, so memory holds one row group of images at most.
      const byRow = new Map(fileSamples.filter((x) => x.s).map((x) => [x.row, x.s!]));
      for (const rg of pf.rowGroups) {
        ctx?.signal?.throwIfAborted();
        const imgs = await readRowsOrThrow(pf, { columns: ['image'], rowStart: rg.rowStart, rowEnd: rg.rowEnd, utf8: false });
        imgs.forEach((r, k) => {
          const s = byRow.get(rg.rowStart + k);
          if (!s) return;
          const { bytes, path } = imageField(r.image);
          s.imagePath = path;
          const at = `${pf.path} row ${rg.rowStart + k}`;
          if (!embeddedImageSize(s, bytes, at)) {
            s.image = null;
            problems.undecodable(`${path ?? 'page image'} (${at}, ${s.id})`, bytes?.length ? 'no PNG, JPEG, GIF, BMP or WebP header with a size' : 'no image bytes');
          }
        });
        done += rg.rowEnd - rg.rowStart;
        ctx?.progress?.({ phase: 'read', done, total, label: pf.path });
      }
    }
    for (const x of fileSamples) if (x.s) samples.push(x.s);
  }
  warnings.push(...problems.warnings());
  const leaderboard = await loadLeaderboard(src, warnings);
  return finish('parquet', samples, warnings, leaderboard, files[0]);
}

/**
 * A parquet row's image bytes: the sample's size as displayed (EXIF orientation applied, as the
 * viewer draws it) and, for a turned image, its header and place (`at`) for GT health. False when
 * the bytes have no image header.
 */
export function embeddedImageSize(s: PulseSample, bytes: Uint8Array | null, at: string): boolean {
  const h = bytes ? parseImageHeader(bytes) : null;
  if (!h) return false;
  const d = displaySize(h);
  s.width = d.width;
  s.height = d.height;
  if (h.orientation !== 1) s.turnedEmbedded = { header: h, at };
  return true;
}

/** The `image` struct `{bytes, path}` (or, leniently, raw bytes). */
export function imageField(v: unknown): { bytes: Uint8Array | null; path: string | null } {
  if (v instanceof Uint8Array) return { bytes: v, path: null };
  if (isRecord(v)) {
    const bytes = v.bytes instanceof Uint8Array ? v.bytes : null;
    const path = typeof v.path === 'string' && v.path !== '' ? v.path : v.path instanceof Uint8Array ? decodeText(v.path) : null;
    return { bytes, path };
  }
  return { bytes: null, path: null };
}

async function loadLeaderboard(src: FileSource, warnings: string[]): Promise<LeaderboardRow[]> {
  const files = src
    .list()
    .map((e) => e.path)
    .filter((p) => PARQUET_RESULTS.test(p))
    .sort();
  const out: LeaderboardRow[] = [];
  for (const path of files) {
    try {
      const pf = await openParquet(src, path);
      for (const r of await readParquetRows(pf)) {
        const num = (k: string) => plainNumber(r[k]);
        const str = (k: string) => (typeof r[k] === 'string' ? (r[k] as string) : '');
        out.push({
          rank: num('rank'),
          provider: str('provider'),
          display_name: str('display_name'),
          precision: num('precision'),
          recall: num('recall'),
          selection_f1: num('selection_f1'),
          macro_precision: num('macro_precision'),
          macro_recall: num('macro_recall'),
          macro_skipped_samples: num('macro_skipped_samples'),
          metric_version: str('metric_version'),
        });
      }
    } catch (e) {
      // The leaderboard is context, not scoring input: a bad file is a warning, not a failure.
      warnings.push(`${path}: leaderboard not read (${(e as Error).message})`);
    }
  }
  out.sort((a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity));
  return out;
}

// ---------------------------------------------------------------- JSONL export

async function loadJsonl(src: FileSource, files: string[], ctx?: RunContext): Promise<PulseDataset> {
  const warnings: string[] = [];
  const problems = new ImageProblems('its form is scored without a picture');
  const samples: PulseSample[] = [];
  const names = new NameIndex(src.list().map((e) => e.path));
  const existing = new Set(src.list().map((e) => e.path));
  for (const path of files) {
    ctx?.signal?.throwIfAborted();
    const rows: { value: Record<string, unknown>; line: number }[] = [];
    await forEachJsonObjectLine(
      src,
      path,
      (value, line) => rows.push({ value, line }),
      (n, why) => warnings.push(`${path} line ${n}: ${why}`),
    );
    if (!rows.some((r) => 'ground_truth' in r.value)) {
      // e.g. a prediction file left at the root: not data, and not worth one warning per line.
      warnings.push(`${path}: no row has a ground_truth field; not a data file, skipped`);
      continue;
    }
    for (const { value, line } of rows) {
      const s = sampleFromRow({ sampleId: value.sample_id, groundTruth: value.ground_truth, where: `${path} line ${line}` }, warnings);
      if (!s) continue;
      const rel = typeof value.image === 'string' ? value.image : isRecord(value.image) && typeof value.image.path === 'string' ? value.image.path : null;
      if (rel) {
        s.imagePath = rel;
        // Relative to the JSONL file's folder, else to the root, else by file name anywhere.
        const found = [resolveRelative(dirname(path), rel), resolveRelative('', rel)].find((p) => existing.has(p)) ?? names.byFileName(rel);
        if (found) s.image = { kind: 'file', path: found };
        else problems.notFound(`${rel} (${path} line ${line}, ${s.id})`);
      }
      samples.push(s);
    }
  }
  let done = 0;
  for (const s of samples) {
    if (s.image?.kind === 'file') {
      const h = await readImageHeader(src, s.image.path).catch(() => null);
      if (h) {
        const d = displaySize(h);
        s.width = d.width;
        s.height = d.height;
      } else problems.undecodable(s.image.path, 'no PNG, JPEG, GIF, BMP or WebP header with a size');
    }
    ctx?.progress?.({ phase: 'read', done: ++done, total: samples.length, label: 'images' });
  }
  warnings.push(...problems.warnings());
  return finish('jsonl', samples, warnings, await loadLeaderboard(src, warnings), files[0]);
}

/** `dir` + `rel` with `.` and `..` segments resolved (`..` above the root is dropped). */
function resolveRelative(dir: string, rel: string): string {
  const out: string[] = [];
  for (const seg of joinPath(dir, rel).split('/')) {
    if (seg === '..') out.pop();
    else if (seg !== '.' && seg !== '') out.push(seg);
  }
  return out.join('/');
}

export async function loadPulseDataset(src: FileSource, ctx?: RunContext): Promise<PulseDataset> {
  const pq = parquetDataFiles(src);
  if (pq.length > 0) return loadParquet(src, pq, ctx);
  const jl = jsonlDataFiles(src);
  if (jl.length > 0) return loadJsonl(src, jl, ctx);
  throw new InputError(`${src.label}: no data/train-*.parquet and no data/*.jsonl (PulseBench-Select expects one of them)`);
}
