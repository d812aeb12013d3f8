/**
 * Decoding and line splitting for user files. JSONL readers go through `forEachLine` so a
 * malformed line costs that line (with its 1-based number), and a huge file is read in chunks.
 */
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

/**
 * Calls `fn(line, lineNumber)` for every line of the file (1-based numbers, line endings and a
 * trailing CR removed, blank lines included so numbers match what an editor shows).
 */
export async function forEachLine(
  src: FileSource,
  path: string,
  fn: (line: string, lineNo: number) => void,
): Promise<void> {
  let lineNo = 0;
  const emit = (line: string) => {
    lineNo += 1;
    fn(line.endsWith('\r') ? line.slice(0, -1) : line, lineNo);
  };
  if (src.stream) {
    const dec = decoder();
    let rest = '';
    for await (const chunk of src.stream(path)) {
      const text = rest + dec.decode(chunk, { stream: true });
      const parts = text.split('\n');
      rest = parts.pop() ?? '';
      for (const p of parts) emit(p);
    }
    rest += dec.decode();
    if (rest !== '') emit(rest);
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
export async function readJsonl(src: FileSource, path: string): Promise<JsonlResult> {
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
  });
  return { rows, warnings, malformed };
}

/**
 * Calls `fn(object, lineNumber)` for every line of a JSONL file that holds a JSON object. Blank
 * lines are skipped; any other line costs only itself and is reported through `bad` ("not valid
 * JSON" / "not a JSON object"). Checks `signal` every 5,000 lines so a huge file can be cancelled.
 */
export async function forEachJsonObjectLine(
  src: FileSource,
  path: string,
  fn: (o: Record<string, unknown>, line: number) => void,
  bad: (line: number, why: 'not valid JSON' | 'not a JSON object') => void,
  signal?: AbortSignal,
): Promise<void> {
  await forEachLine(src, path, (text, line) => {
    if (text.trim() === '') return;
    if (line % 5000 === 0) signal?.throwIfAborted();
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
  });
}
