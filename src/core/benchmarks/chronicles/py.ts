/**
 * The few Python behaviours the official Chronicles-OCR code relies on, reproduced exactly:
 * `str.strip()` / `str.strip(chars)`, `str.splitlines()`, `str.split()`, `float()`, `int()`,
 * `str()` of JSON values and `round()` (half to even). Python's `\s` in a str regex is
 * `PY_WS` below, which is not the same set as JavaScript's `\s`.
 */

/** Characters for which Python's `str.isspace()` is true (the set `strip()` and `\s` use). */
export const PY_WS = '\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const WS_RE = new RegExp(`^[${PY_WS}]+|[${PY_WS}]+$`, 'g');
const WS_RUN = new RegExp(`[${PY_WS}]+`);

/** `s.strip()` */
export function pyStrip(s: string): string {
  return s.replace(WS_RE, '');
}

const charSets = new Map<string, Set<number>>();

/** `s.strip(chars)` — chars taken as a set of code points. */
export function pyStripChars(s: string, chars: string): string {
  let set = charSets.get(chars);
  if (!set) charSets.set(chars, (set = new Set([...chars].map((c) => c.codePointAt(0)!))));
  let a = 0;
  let b = s.length;
  while (a < b) {
    const cp = s.codePointAt(a)!;
    if (!set.has(cp)) break;
    a += cp > 0xffff ? 2 : 1;
  }
  while (b > a) {
    const lo = s.charCodeAt(b - 1);
    const pair = lo >= 0xdc00 && lo <= 0xdfff && b - 2 >= a && s.charCodeAt(b - 2) >= 0xd800 && s.charCodeAt(b - 2) <= 0xdbff;
    const cp = pair ? s.codePointAt(b - 2)! : lo;
    if (!set.has(cp)) break;
    b -= pair ? 2 : 1;
  }
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

/** `s.split()` (no argument): runs of whitespace, no empty parts. */
export function pySplit(s: string): string[] {
  return pyStrip(s)
    .split(WS_RUN)
    .filter((p) => p !== '');
}

/** `s.splitlines()`: every Python line boundary, no trailing empty part. */
export function pySplitLines(s: string): string[] {
  if (s === '') return [];
  const parts = s.split(/\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]/);
  if (parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** `len(s)`: code points. */
export function pyLen(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Python `round(x)` for a float: nearest integer, ties to even. */
export function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  if (d < 0.5) return f;
  if (d > 0.5) return f + 1;
  return f % 2 === 0 ? f : f + 1;
}

const FLOAT_RE = /^[+-]?(?:(?:\d(?:_?\d)*)?\.\d(?:_?\d)*|\d(?:_?\d)*\.?)(?:[eE][+-]?\d(?:_?\d)*)?$/;

/** Python `float(v)` of a JSON value; null where Python raises TypeError / ValueError. */
export function pyFloat(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v !== 'string') return null;
  const s = pyStrip(v);
  if (FLOAT_RE.test(s)) return Number(s.replace(/_/g, ''));
  const l = s.toLowerCase().replace(/^[+]/, '');
  if (l === 'inf' || l === 'infinity') return Infinity;
  if (l === '-inf' || l === '-infinity') return -Infinity;
  if (l === 'nan' || l === '-nan' || l === '+nan') return NaN;
  return null;
}

/** Python `int(v)` of a JSON value (floats truncate, strings must be integers); null where it raises. */
export function pyInt(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? Math.trunc(v) : null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    const s = pyStrip(v);
    return /^[+-]?\d(?:_?\d)*$/.test(s) ? Number(s.replace(/_/g, '')) : null;
  }
  return null;
}

/** Python truthiness of a JSON value. */
export function pyTruthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

/**
 * Python `str(v)` of a JSON value (ints and floats as JSON wrote them; JS cannot tell 1.0 from 1).
 * Written with an explicit stack, not recursion: a model answer may hold JSON nested 100,000
 * deep, and a recursive walk would overflow the stack and lose the whole run.
 */
export function pyStr(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v !== 'object' || v === null) return pyScalar(v);
  const parts: string[] = [];
  // A frame is text to write, or a value nested in a list / dict (strings there are repr'd).
  const stack: ({ text: string } | { value: unknown })[] = [{ value: v }];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if ('text' in f) {
      parts.push(f.text);
      continue;
    }
    const x = f.value;
    if (typeof x === 'string') parts.push(pyRepr(x));
    else if (typeof x !== 'object' || x === null) parts.push(pyScalar(x));
    else if (Array.isArray(x)) {
      parts.push('[');
      stack.push({ text: ']' });
      for (let i = x.length - 1; i >= 0; i--) {
        stack.push({ value: x[i] });
        if (i > 0) stack.push({ text: ', ' });
      }
    } else {
      parts.push('{');
      stack.push({ text: '}' });
      const entries = Object.entries(x as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        stack.push({ value: entries[i][1] });
        stack.push({ text: `${pyRepr(entries[i][0])}: ` });
        if (i > 0) stack.push({ text: ', ' });
      }
    }
  }
  return parts.join('');
}

function pyScalar(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return Number.isNaN(v) ? 'nan' : v === Infinity ? 'inf' : v === -Infinity ? '-inf' : String(v);
  return String(v);
}

/** Python `repr` of a str (the JSON values here never hold the other characters repr escapes). */
function pyRepr(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** `str(v or "").strip()` — the official code's way of reading a text field. */
export function pyText(v: unknown): string {
  return pyStrip(pyTruthy(v) ? pyStr(v) : '');
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
