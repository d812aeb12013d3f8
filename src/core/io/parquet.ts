/**
 * Parquet reading over a FileSource (hyparquet + hyparquet-compressors), the same in the browser,
 * the worker and Node. Hugging Face dataset repositories ship their rows this way, images
 * embedded as `{bytes, path}` structs.
 *
 * Why an AsyncBuffer over `readRange`: a parquet file is read from its footer backwards, column
 * chunk by column chunk, so a 500 MB image table never has to sit in memory at once.
 */
import { parquetMetadataAsync, parquetReadObjects, parquetSchema, type AsyncBuffer, type FileMetaData } from 'hyparquet';
import type { FileSource } from './fileSource';

type Compressors = (typeof import('hyparquet-compressors'))['compressors'];
let compressors: Promise<Compressors> | null = null;

/**
 * The decompressors handed to every read. hyparquet alone reads only uncompressed and snappy
 * pages; this table adds gzip, brotli, zstd, lz4 and lz4_raw (snappy through a faster wasm).
 * Loaded on the first parquet read: building its tables (brotli's above all) took ~90 ms of
 * every CLI start, parquet or not.
 */
export function parquetCompressors(): Promise<Compressors> {
  compressors ??= import('hyparquet-compressors').then((m) => m.compressors);
  return compressors;
}

/** A parquet file that cannot be read: truncated, not parquet, an unsupported codec. */
export class ParquetError extends Error {
  constructor(
    readonly path: string,
    why: string,
  ) {
    super(`${path}: not a readable parquet file (${why})`);
    this.name = 'ParquetError';
  }
}

/** An exact-length ArrayBuffer holding `bytes` (a Node Buffer may be a view into a shared pool). */
function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) {
    return bytes.buffer;
  }
  return bytes.slice().buffer as ArrayBuffer;
}

/**
 * hyparquet's AsyncBuffer over one file of a FileSource: ranged reads when the source has them,
 * else the whole file once (then sliced from memory).
 */
export function asyncBufferFromSource(src: FileSource, path: string): AsyncBuffer {
  const entry = src.list().find((e) => e.path === path);
  if (!entry) throw new ParquetError(path, 'no such file');
  const byteLength = entry.size;
  if (src.readRange) {
    const readRange = src.readRange.bind(src);
    return {
      byteLength,
      async slice(start: number, end?: number) {
        const e = end === undefined ? byteLength : Math.min(end, byteLength);
        const bytes = await readRange(path, start, e);
        if (bytes.byteLength !== e - start) throw new ParquetError(path, `short read at byte ${start}`);
        return ownBuffer(bytes);
      },
    };
  }
  let whole: Promise<ArrayBuffer> | null = null;
  return {
    byteLength,
    async slice(start: number, end?: number) {
      whole ??= src.read(path).then(ownBuffer);
      return (await whole).slice(start, end);
    },
  };
}

/** An opened parquet file: its metadata and a buffer to read rows from. */
export interface ParquetFile {
  path: string;
  file: AsyncBuffer;
  metadata: FileMetaData;
  rows: number;
  /** Top-level column names (a struct such as `image` is one column). */
  columns: string[];
  /** [rowStart, rowEnd) of every row group, in file order. */
  rowGroups: { rowStart: number; rowEnd: number }[];
  /** Codec names found in the column chunks (e.g. ['SNAPPY']). */
  codecs: string[];
}

export async function openParquet(src: FileSource, path: string): Promise<ParquetFile> {
  const file = asyncBufferFromSource(src, path);
  let metadata: FileMetaData;
  try {
    metadata = await parquetMetadataAsync(file);
  } catch (e) {
    throw e instanceof ParquetError ? e : new ParquetError(path, (e as Error).message);
  }
  const columns = parquetSchema(metadata).children.map((c) => c.element.name);
  const rowGroups: { rowStart: number; rowEnd: number }[] = [];
  const codecs = new Set<string>();
  let at = 0;
  for (const rg of metadata.row_groups) {
    const n = Number(rg.num_rows);
    rowGroups.push({ rowStart: at, rowEnd: at + n });
    at += n;
    for (const c of rg.columns) if (c.meta_data) codecs.add(c.meta_data.codec);
  }
  return { path, file, metadata, rows: Number(metadata.num_rows), columns, rowGroups, codecs: [...codecs] };
}

export interface ReadRowsOptions {
  columns?: string[];
  rowStart?: number;
  rowEnd?: number;
  /**
   * Decode un-annotated BYTE_ARRAY columns as UTF-8 text (hyparquet's default). Pass false for
   * binary columns such as embedded images, which must come back as bytes, unchanged.
   */
  utf8?: boolean;
}

/** Rows as objects; errors (a truncated chunk, a codec we lack) name the file. */
export async function readParquetRows(pf: ParquetFile, opts: ReadRowsOptions = {}): Promise<Record<string, unknown>[]> {
  try {
    return await parquetReadObjects({
      file: pf.file,
      metadata: pf.metadata,
      columns: opts.columns,
      rowStart: opts.rowStart,
      rowEnd: opts.rowEnd,
      utf8: opts.utf8,
      compressors: await parquetCompressors(),
    });
  } catch (e) {
    throw e instanceof ParquetError ? e : new ParquetError(pf.path, (e as Error).message);
  }
}

/** A JSON-safe plain value: bigint (INT64 columns) becomes a number. */
export function plainNumber(v: unknown): number | null {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number') return v;
  return null;
}
