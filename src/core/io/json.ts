/**
 * JSON from user files, bounded so that no depth or size of input can take more than its own
 * line (or value) with it.
 *
 * V8's JSON.parse is iterative: it reads 10 million nested arrays without complaint. What is not
 * iterative is everything after it — JSON.stringify, structuredClone (every postMessage between
 * the worker and the page) and any recursive walk — which throw RangeError ("Maximum call stack
 * size exceeded") at around 10,000 levels in Node 20 and Chromium. A value that deep would then
 * fail the whole file, or the whole export at the end of the run. So a parsed line deeper than
 * MAX_JSON_DEPTH is refused as that line, and warnings quote values with `quoteValue`, which never
 * recurses. Python's json.loads (the official tools) raises RecursionError near 1,000 levels;
 * no benchmark format nests beyond ~10.
 */

export const MAX_JSON_DEPTH = 512;

/**
 * Whether the JSON text nests arrays / objects deeper than `limit`: one pass over the text that
 * skips strings; texts too short to nest that deep are not scanned at all.
 */
export function nestsDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  if (text.length <= 2 * limit) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: jump to its closing quote (backslash escapes skipped).
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

export const TOO_DEEP = `nested deeper than ${MAX_JSON_DEPTH} levels`;

export type JsonLine = { ok: true; value: unknown } | { ok: false; why: 'not valid JSON' | typeof TOO_DEEP };

/** One JSON line (or document) parsed, or why it cannot be used. */
export function parseJsonLine(text: string): JsonLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, why: 'not valid JSON' };
  }
  if (typeof value === 'object' && value !== null && nestsDeeperThan(text)) return { ok: false, why: TOO_DEEP };
  return { ok: true, value };
}

/**
 * A short rendering of any value for a warning (`[[1,2],"a…`), at most `max` characters: the
 * text JSON.stringify writes when it fits (NaN and Infinity by name), cut with "…" when not. Walks with an explicit stack and stops once `max` characters are written, so a
 * value nested a million deep or a list of a million items costs `max` steps.
 */
export function quoteValue(v: unknown, max = 24): string {
  if (v === undefined) return 'missing';
  let out = '';
  type Frame = { kind: 'value'; v: unknown } | { kind: 'text'; s: string };
  const stack: Frame[] = [{ kind: 'value', v }];
  while (stack.length > 0 && out.length <= max) {
    const f = stack.pop()!;
    if (f.kind === 'text') {
      out += f.s;
      continue;
    }
    const x = f.v;
    if (Array.isArray(x)) {
      out += '[';
      stack.push({ kind: 'text', s: ']' });
      // Only as many items as could still show.
      const n = Math.min(x.length, max - out.length + 1);
      for (let i = n - 1; i >= 0; i--) {
        stack.push({ kind: 'value', v: x[i] });
        if (i > 0) stack.push({ kind: 'text', s: ',' });
      }
    } else if (typeof x === 'object' && x !== null) {
      out += '{';
      stack.push({ kind: 'text', s: '}' });
      const keys: string[] = [];
      for (const k in x) {
        if (keys.length > max - out.length) break;
        if (Object.prototype.hasOwnProperty.call(x, k)) keys.push(k);
      }
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push({ kind: 'value', v: (x as Record<string, unknown>)[keys[i]] });
        stack.push({ kind: 'text', s: `${JSON.stringify(keys[i].slice(0, max + 1))}:` });
        if (i > 0) stack.push({ kind: 'text', s: ',' });
      }
    } else if (typeof x === 'string') {
      out += JSON.stringify(x.length > max ? x.slice(0, max + 1) : x);
    } else if (x === undefined) {
      out += 'null'; // as JSON.stringify writes a hole in a list
    } else {
      out += String(x); // numbers as JSON writes them; NaN / Infinity by name rather than "null"
    }
  }
  if (stack.length > 0 || out.length > max) return out.slice(0, max - 1) + '…';
  return out;
}
