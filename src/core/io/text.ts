/**
 * Decoding and line splitting for user files. JSONL readers go through `forEachLine` so a
 * malformed line costs that line (with its 1-based number), and a huge file is read in chunks.
 */
import type { RunContext } from '../model';
import type { FileSource } from './fileSource';
import { parseJsonLine, TOO_DEEP } from './json';

const decoder = () => new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/** UTF-8 text with a leading BOM removed (TextDecoder strips it unless told otherwise). */
export function decodeText(bytes: Uint8Array): string {
  return decoder().decode(bytes);
}

export async function readText(src: FileSource, path: string): Promise<string> {
  return decodeText(await src.read(path));
}

export async function readJson(src: FileSource, path: string): Promise<unknown> {
  const text = await readText(src, path);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`${path}: not valid JSON (${(e as Error).message})`);
  }
}

/** Bytes between two progress reports while a big file streams (a report per 4 MiB). */
const PROGRESS_STEP = 4 << 20;

/**
 * The longest line that is decoded: a JavaScript string holds at most 2^29 − 24 UTF-16 units in
 * V8 (Node, Chromium), and a line of that many bytes never decodes to more units than that.
 */
export const MAX_LINE_BYTES = 2 ** 29 - 24;

export interface LineOptions {
  /** Lines longer than this many bytes are not decoded (default MAX_LINE_BYTES). */
  maxLineBytes?: number;
  /**
   * Called instead of `fn` for a line that cannot become a string (longer than `maxLineBytes`,
   * or the engine refused it); the reading goes on with the next line. Without it, such a line
   * is an error naming its number.
   */
  tooLong?: (lineNo: number, bytes: number) => void;
}

/** "longer than 512 MiB (the most a JavaScript string holds)" */
export function tooLongText(bytes: number, limit = MAX_LINE_BYTES): string {
  const mib = (n: number) => `${Math.floor(n / 2 ** 20)} MiB`;
  return `${mib(bytes)} long, more than the ${limit >= MAX_LINE_BYTES ? '512 MiB a JavaScript string holds' : `${mib(limit)} a line may hold`}`;
}

/**
 * Calls `fn(line, lineNumber)` for every line of the file (1-based numbers, line endings and a
 * trailing CR removed, blank lines included so numbers match what an editor shows).
 *
 * Streams when the source can: only one chunk plus the unfinished line is held, and a line that
 * spans many chunks is collected as byte pieces and joined once (concatenating per chunk would
 * copy it again for every chunk — quadratic for a 100 MB line). With `ctx`, reports bytes read
 * (`unit: 'bytes'`) every 4 MiB and stops at the next chunk when the signal aborts.
 */
export async function forEachLine(
  src: FileSource,
  path: string,
  fn: (line: string, lineNo: number) => void,
  ctx?: RunContext,
  opts: LineOptions = {},
): Promise<void> {
  const maxBytes = opts.maxLineBytes ?? MAX_LINE_BYTES;
  const tooLong =
    opts.tooLong ??
    ((n: number, bytes: number) => {
      throw new Error(`${path}: line ${n}: ${tooLongText(bytes, maxBytes)}`);
    });
  let lineNo = 0;
  const emit = (line: string) => {
    lineNo += 1;
    fn(line.endsWith('\r') ? line.slice(0, -1) : line, lineNo);
  };
  /** A line's bytes decoded and emitted; one the engine cannot make a string of costs that line. */
  const emitBytes = (bytes: Uint8Array, decodeFn: (b: Uint8Array) => string) => {
    let text: string;
    try {
      text = decodeFn(bytes);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      tooLong(++lineNo, bytes.byteLength);
      return;
    }
    emit(text);
  };
  if (src.stream) {
    const total = src.list().find((e) => e.path === path)?.size ?? 0;
    const report = (done: number) => ctx?.progress?.({ phase: 'read', done, total, label: path, unit: 'bytes' });
    // Lines are cut on '\n' bytes (never part of a multi-byte UTF-8 character) and decoded from
    // bytes: the lines between a chunk's first and last newline in one decode, a line that spans
    // chunks once its pieces are joined. No intermediate string is sliced or concatenated.
    const dec = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
    let atStart = true;
    const decode = (bytes: Uint8Array) => {
      const t = dec.decode(bytes);
      if (!atStart) return t;
      atStart = false;
      return t.charCodeAt(0) === 0xfeff ? t.slice(1) : t;
    };
    let carry: Uint8Array[] = [];
    // Bytes of the unfinished line; past maxBytes its pieces are dropped and only counted.
    let carried = 0;
    let bytes = 0;
    let reported = 0;
    report(0);
    for await (const chunk of src.stream(path)) {
      ctx?.signal?.throwIfAborted();
      bytes += chunk.byteLength;
      const first = chunk.indexOf(10);
      if (first < 0) {
        carried += chunk.byteLength;
        if (carried <= maxBytes) carry.push(chunk);
        else carry = [];
      } else {
        const head = chunk.subarray(0, first);
        if (carried + first > maxBytes) {
          // Decoding the start of the file matters for the BOM only; a line this long has none to keep.
          atStart = false;
          tooLong(++lineNo, carried + first);
        } else {
          emitBytes(carry.length ? concatBytes([...carry, head]) : head, decode);
        }
        const last = chunk.lastIndexOf(10);
        if (last > first) for (const p of decode(chunk.subarray(first + 1, last)).split('\n')) emit(p);
        carry = last + 1 < chunk.byteLength ? [chunk.subarray(last + 1)] : [];
        carried = chunk.byteLength - (last + 1);
      }
      if (bytes - reported >= PROGRESS_STEP) {
        reported = bytes;
        report(bytes);
      }
    }
    if (carried > maxBytes) {
      tooLong(++lineNo, carried);
    } else if (carry.length) {
      let rest = '';
      try {
        rest = decode(concatBytes(carry));
      } catch (e) {
        if (!(e instanceof RangeError)) throw e;
        tooLong(++lineNo, carried);
      }
      if (rest !== '') emit(rest);
    }
    report(bytes);
    return;
  }
  const text = await readText(src, path);
  const parts = text.split('\n');
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  for (const p of parts) emit(p);
}

function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  let n = 0;
  for (const p of parts) n += p.byteLength;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** Why a JSONL line was not handed to the reader. */
export type BadLineReason = 'not valid JSON' | 'not a JSON object' | typeof TOO_DEEP | string;

/**
 * Calls `fn(object, lineNumber)` for every line of a JSONL file that holds a JSON object. Blank
 * lines are skipped; any other line costs only itself and is reported through `bad`: "not valid
 * JSON", "not a JSON object", nested deeper than MAX_JSON_DEPTH, longer than a string can be, or
 * a line whose handling ran out of stack or string length (RangeError) — never the file.
 * `ctx` as for `forEachLine` (progress in bytes, cancel).
 */
export async function forEachJsonObjectLine(
  src: FileSource,
  path: string,
  fn: (o: Record<string, unknown>, line: number, text: string) => void,
  bad: (line: number, why: BadLineReason) => void,
  ctx?: RunContext,
  opts: Pick<LineOptions, 'maxLineBytes'> = {},
): Promise<void> {
  await forEachLine(
    src,
    path,
    (text, line) => {
      if (text.trim() === '') return;
      const r = parseJsonLine(text);
      if (!r.ok) {
        bad(line, r.why);
        return;
      }
      const o = r.value;
      if (typeof o !== 'object' || o === null || Array.isArray(o)) {
        bad(line, 'not a JSON object');
        return;
      }
      try {
        fn(o as Record<string, unknown>, line, text);
      } catch (e) {
        if (!(e instanceof RangeError)) throw e;
        bad(line, `cannot be read (${e.message})`);
      }
    },
    ctx,
    { maxLineBytes: opts.maxLineBytes, tooLong: (line, bytes) => bad(line, tooLongText(bytes, opts.maxLineBytes)) },
  );
}
