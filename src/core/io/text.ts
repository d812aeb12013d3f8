/**
 * Decoding and line splitting for user files. JSONL readers go through `forEachLine` so a
 * malformed line costs that line (with its 1-based number), and a huge file is read in chunks.
 */
import type { RunContext } from '../model';
import type { FileSource } from './fileSource';

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
): Promise<void> {
  let lineNo = 0;
  const emit = (line: string) => {
    lineNo += 1;
    fn(line.endsWith('\r') ? line.slice(0, -1) : line, lineNo);
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
    let bytes = 0;
    let reported = 0;
    report(0);
    for await (const chunk of src.stream(path)) {
      ctx?.signal?.throwIfAborted();
      bytes += chunk.byteLength;
      const first = chunk.indexOf(10);
      if (first < 0) {
        carry.push(chunk);
      } else {
        const head = chunk.subarray(0, first);
        emit(decode(carry.length ? concatBytes([...carry, head]) : head));
        const last = chunk.lastIndexOf(10);
        if (last > first) for (const p of decode(chunk.subarray(first + 1, last)).split('\n')) emit(p);
        carry = last + 1 < chunk.byteLength ? [chunk.subarray(last + 1)] : [];
      }
      if (bytes - reported >= PROGRESS_STEP) {
        reported = bytes;
        report(bytes);
      }
    }
    if (carry.length) {
      const rest = decode(concatBytes(carry));
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

/**
 * Calls `fn(object, lineNumber)` for every line of a JSONL file that holds a JSON object. Blank
 * lines are skipped; any other line costs only itself and is reported through `bad` ("not valid
 * JSON" / "not a JSON object"). `ctx` as for `forEachLine` (progress in bytes, cancel).
 */
export async function forEachJsonObjectLine(
  src: FileSource,
  path: string,
  fn: (o: Record<string, unknown>, line: number) => void,
  bad: (line: number, why: 'not valid JSON' | 'not a JSON object') => void,
  ctx?: RunContext,
): Promise<void> {
  await forEachLine(src, path, (text, line) => {
    if (text.trim() === '') return;
    let o: unknown;
    try {
      o = JSON.parse(text);
    } catch {
      bad(line, 'not valid JSON');
      return;
    }
    if (typeof o !== 'object' || o === null || Array.isArray(o)) {
      bad(line, 'not a JSON object');
      return;
    }
    fn(o as Record<string, unknown>, line);
  }, ctx);
}
