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
 * spans many chunks is collected as pieces and joined once (concatenating per chunk would copy
 * it again for every chunk — quadratic for a 100 MB line). With `ctx`, reports bytes read
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
    const dec = decoder();
    let pending: string[] = [];
    let bytes = 0;
    let reported = 0;
    report(0);
    for await (const chunk of src.stream(path)) {
      ctx?.signal?.throwIfAborted();
      bytes += chunk.byteLength;
      const text = dec.decode(chunk, { stream: true });
      const last = text.lastIndexOf('\n');
      if (last < 0) {
        pending.push(text);
      } else {
        pending.push(text.slice(0, last));
        const parts = (pending.length === 1 ? pending[0] : pending.join('')).split('\n');
        pending = [text.slice(last + 1)];
        for (const p of parts) emit(p);
      }
      if (bytes - reported >= PROGRESS_STEP) {
        reported = bytes;
        report(bytes);
      }
    }
    const rest = pending.join('') + dec.decode();
    if (rest !== '') emit(rest);
    report(bytes);
    return;
  }
  const text = await readText(src, path);
  const parts = text.split('\n');
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  for (const p of parts) emit(p);
}

export interface JsonlRow {
  value: unknown;
  line: number;
}

export interface JsonlResult {
  rows: JsonlRow[];
  /** "line 17: not valid JSON" — one per malformed line. */
  warnings: string[];
  malformed: number;
}

/** Parses a JSONL file; blank lines are skipped silently, malformed ones are counted and listed. */
export async function readJsonl(src: FileSource, path: string, ctx?: RunContext): Promise<JsonlResult> {
  const rows: JsonlRow[] = [];
  const warnings: string[] = [];
  let malformed = 0;
  await forEachLine(src, path, (line, n) => {
    if (line.trim() === '') return;
    try {
      rows.push({ value: JSON.parse(line), line: n });
    } catch {
      malformed += 1;
      warnings.push(`line ${n}: not valid JSON`);
    }
  }, ctx);
  return { rows, warnings, malformed };
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
