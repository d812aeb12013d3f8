/**
 * Reading ZIP archives (ICDAR-style `submit.zip` of `res_img_<n>.txt`, or any archive of prediction
 * files) with fflate, under limits: an archive is user input, and a zip bomb (a few KiB that
 * inflate to gigabytes) must cost a message, never the tab or the V8 heap.
 *
 * Two passes, both fflate's: the central directory (`unzipSync` with a filter that extracts
 * nothing) gives every entry's declared sizes, so an archive that *says* it is too big is refused
 * before a byte is inflated; then the streaming `Unzip` inflates the entries chunk by chunk while
 * the bytes that really come out are counted, so an archive that lies about its sizes is stopped
 * within one chunk of the limit. ZIP64 (sizes and offsets in the 0x0001 extra field, the ZIP64
 * end-of-central-directory record) is read by both passes.
 */
import { Unzip, UnzipInflate, unzipSync, type UnzipFile } from 'fflate';

export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

export interface ZipLimits {
  /** Largest uncompressed size of one entry, in bytes. */
  entryBytes: number;
  /** Largest uncompressed size of all entries together, in bytes. */
  totalBytes: number;
  /** Largest uncompressed / compressed ratio of an entry, once it has produced `ratioGraceBytes`. */
  ratio: number;
  /** Small entries may compress far better than any bomb would matter (a file of zeros). */
  ratioGraceBytes: number;
  /** Most entries an archive may hold. */
  entries: number;
}

const MiB = 2 ** 20;

/**
 * 256 MiB per entry (half of what one JavaScript string can hold, so any entry still decodes as
 * text), 1 GiB in all, a ratio of 100 (deflate reaches ~1030 on repeated bytes; real prediction
 * text compresses 3–10×, repetitive JSON up to ~50×), 100,000 entries.
 */
export const ZIP_LIMITS: Readonly<ZipLimits> = {
  entryBytes: 256 * MiB,
  totalBytes: 1024 * MiB,
  ratio: 100,
  ratioGraceBytes: 1 * MiB,
  entries: 100_000,
};

/** Thrown for an archive that is refused or cannot be read; the message says why, in one line. */
export class ZipError extends Error {
  override name = 'ZipError';
}

const size = (n: number) => (n >= MiB ? `${Math.round(n / MiB)} MiB` : `${n} bytes`);

interface Declared {
  size: number;
  originalSize: number;
  compression: number;
}

/** The central directory, read by fflate without extracting anything. */
function centralDirectory(bytes: Uint8Array): Map<string, Declared> {
  const out = new Map<string, Declared>();
  try {
    unzipSync(bytes, {
      filter: (f) => {
        out.set(f.name, { size: f.size, originalSize: f.originalSize, compression: f.compression });
        return false;
      },
    });
  } catch {
    throw new ZipError('not a ZIP archive (no readable central directory)');
  }
  return out;
}

/**
 * Names are UTF-8 when the archive says so (flag bit 11); fflate reads the others as Latin-1, but
 * macOS and most Linux tools write UTF-8 without the flag: take the bytes as UTF-8 when they are.
 * Some Windows tools write `sub\res_img_1.txt`: backslashes are read as folder separators.
 */
function entryName(raw: string): string {
  let name = raw;
  if (/[\u0080-\u00ff]/.test(raw) && !/[^\u0000-\u00ff]/.test(raw)) {
    try {
      name = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(raw, (c) => c.charCodeAt(0)));
    } catch {
      /* really Latin-1 (or CP437): keep fflate's reading */
    }
  }
  return name.replace(/\\/g, '/');
}

/**
 * Every file entry of the archive (folders skipped), or a ZipError saying why the archive is
 * refused: too large (per entry / in all), compressed beyond `limits.ratio` (a zip bomb), an
 * unsupported compression method, truncated or corrupt data.
 */
export async function unzip(bytes: Uint8Array, limits: Readonly<ZipLimits> = ZIP_LIMITS): Promise<ZipEntry[]> {
  const declared = centralDirectory(bytes);
  if (declared.size > limits.entries) throw new ZipError(`${declared.size} entries, more than the ${limits.entries} an archive may hold here`);
  let declaredTotal = 0;
  for (const [name, d] of declared) {
    if (d.originalSize > limits.entryBytes) throw new ZipError(`${entryName(name)}: ${size(d.originalSize)} uncompressed, more than the ${size(limits.entryBytes)} an entry may hold`);
    declaredTotal += d.originalSize;
    if (d.compression !== 0 && d.compression !== 8 && !name.endsWith('/')) {
      throw new ZipError(`${entryName(name)}: compression method ${d.compression} is not supported (only stored and deflate)`);
    }
  }
  if (declaredTotal > limits.totalBytes) throw new ZipError(`${size(declaredTotal)} uncompressed in all, more than the ${size(limits.totalBytes)} an archive may hold`);

  const out: ZipEntry[] = [];
  let total = 0;
  let pieceStart = 0;
  let pushed = 0;
  let refused: ZipError | null = null;
  const refuse = (e: ZipError) => {
    refused ??= e;
  };
  const unz = new Unzip((file: UnzipFile) => {
    const name = entryName(file.name);
    if (refused) return;
    if (file.compression !== 0 && file.compression !== 8) {
      refuse(new ZipError(`${name}: compression method ${file.compression} is not supported (only stored and deflate)`));
      return;
    }
    // The compressed bytes behind the output so far: what was pushed since the piece in which the
    // entry began (over-counts by at most one piece, so the ratio errs on the lenient side),
    // capped by the entry's compressed size (local header, else central directory).
    const packedAll = file.size ?? declared.get(file.name)?.size ?? bytes.length;
    const began = pieceStart;
    const packed = () => Math.max(1, Math.min(packedAll, pushed - began));
    const chunks: Uint8Array[] = [];
    let n = 0;
    file.ondata = (err, data, final) => {
      if (refused) return;
      if (err) {
        refuse(new ZipError(`${name}: cannot inflate (${err.message})`));
        return;
      }
      n += data.length;
      total += data.length;
      if (n > limits.entryBytes) return refuse(new ZipError(`${name}: more than ${size(limits.entryBytes)} uncompressed (an entry may hold no more; a zip bomb?)`));
      if (total > limits.totalBytes) return refuse(new ZipError(`more than ${size(limits.totalBytes)} uncompressed in all (an archive may hold no more; a zip bomb?)`));
      if (n > limits.ratioGraceBytes && n / packed() > limits.ratio) {
        return refuse(new ZipError(`${name}: inflates more than ${limits.ratio} times its compressed size: a zip bomb, refused`));
      }
      if (data.length) chunks.push(data);
      if (final && !name.endsWith('/')) out.push({ name, data: concat(chunks, n) });
    };
    file.start();
  });
  unz.register(UnzipInflate);
  // Pushed in 16 KiB pieces: one piece inflates to at most ~16 MiB (deflate's ratio tops out near
  // 1030) and the counters above see every piece, so a bomb is stopped within one piece. Small
  // pieces also bound fflate's recursion: Unzip.push calls itself once per entry found in the
  // piece, and a 1 MiB piece of empty entries overflows the stack.
  const STEP = 1 << 14;
  try {
    for (let at = 0; at < bytes.length && !refused; at += STEP) {
      const end = Math.min(bytes.length, at + STEP);
      pieceStart = at;
      pushed = end;
      unz.push(bytes.subarray(at, end), end === bytes.length);
    }
  } catch (e) {
    refuse(new ZipError(`corrupt or truncated archive (${(e as Error).message})`));
  }
  if (refused) throw refused;
  return out;
}

function concat(parts: readonly Uint8Array[], n: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
