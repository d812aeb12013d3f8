/**
 * Python's `json.dumps(value, ensure_ascii=False, sort_keys=True)` of a value read from JSON text,
 * character for character: separators `", "` and `": "`, keys in code-point order, non-ASCII kept,
 * `"` `\` and control characters escaped as Python escapes them, ints as their digits and floats
 * as Python's `repr`. JavaScript's JSON.parse cannot tell `1.0` from `1` (Python writes them back
 * differently) nor keep an int past 2^53, so the value is re-read from the text with its numbers
 * kept as written (`readPyJson`); values without such numbers may be dumped from JSON.parse's.
 */

/** A number as the JSON text wrote it. */
export class PyNum {
  constructor(readonly text: string) {}
}

/** A JSON object as Python's dict holds it: the last value of a repeated key wins. */
export class PyDict {
  readonly map = new Map<string, PyValue>();
}

export type PyValue = null | boolean | string | number | PyNum | PyDict | PyValue[];

const MAX_DEPTH = 1000;

/**
 * The JSON text as Python's `json.loads` reads it, numbers kept as written; null when the text is
 * not JSON or nests deeper than Python's default recursion limit would take.
 */
export function readPyJson(text: string): PyValue | undefined {
  let i = 0;
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const value = (depth: number): PyValue => {
    if (depth > MAX_DEPTH) throw new Error('too deep');
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const d = new PyDict();
      ws();
      if (text[i] === '}') {
        i++;
        return d;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') throw new Error('key');
        const k = str();
        ws();
        if (text[i++] !== ':') throw new Error(':');
        d.map.set(k, value(depth + 1));
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return d;
        } else throw new Error(',');
      }
    }
    if (c === '[') {
      i++;
      const a: PyValue[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return a;
      }
      for (;;) {
        a.push(value(depth + 1));
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return a;
        } else throw new Error(',');
      }
    }
    if (c === '"') return str();
    if (text.startsWith('true', i)) return (i += 4), true;
    if (text.startsWith('false', i)) return (i += 5), false;
    if (text.startsWith('null', i)) return (i += 4), null;
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) throw new Error('value');
    i += m[0].length;
    return new PyNum(m[0]);
  };
  const str = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  try {
    const v = value(0);
    ws();
    return i === text.length ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The value under `key` of a top-level object's text (the last one, as Python's dict keeps). */
export function readPyJsonKey(text: string, key: string): PyValue | undefined {
  const v = readPyJson(text);
  return v instanceof PyDict ? v.map.get(key) : undefined;
}

const ESC: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** `json.dumps` of a str with ensure_ascii=False: only `"`, `\` and C0 controls are escaped. */
function pyJsonString(s: string): string {
  return `"${s.replace(/["\\\x00-\x1f]/g, (c) => ESC[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

/** Python `repr(float)`: shortest round-trip digits, exponent form below 1e-4 or from 1e16. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mant, exp] = Math.abs(x).toExponential().split('e');
  const digits = mant.replace('.', '');
  const decpt = Number(exp) + 1; // value = 0.<digits> × 10^decpt
  if (decpt <= -4 || decpt > 16) {
    const e = decpt - 1;
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (decpt >= digits.length) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}.0`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

/** How Python writes back a number that JSON text wrote as `t`. */
function pyNumber(t: string): string {
  // An int stays an int (any size); anything with a fraction or exponent is a float.
  if (!/[.eE]/.test(t)) return BigInt(t).toString();
  return pyFloatRepr(Number(t));
}

function codePointOrder(a: string, b: string): number {
  // Python compares str by code point; JS's default by UTF-16 unit differs past U+FFFF.
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/**
 * `json.dumps(v, ensure_ascii=False, sort_keys=True)`. A JS `number` is taken as an int when it
 * is one (what JSON.parse gives for integer text), else as a float; a PyNum as its text says.
 */
export function pyJsonDumps(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (v === true) return 'true';
  if (v === false) return 'false';
  if (typeof v === 'string') return pyJsonString(v);
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v).toString() : pyFloatRepr(v);
  if (v instanceof PyNum) return pyNumber(v.text);
  if (Array.isArray(v)) return `[${v.map(pyJsonDumps).join(', ')}]`;
  const entries: [string, unknown][] = v instanceof PyDict ? [...v.map] : Object.entries(v as Record<string, unknown>);
  entries.sort((a, b) => codePointOrder(a[0], b[0]));
  return `{${entries.map(([k, x]) => `${pyJsonString(k)}: ${pyJsonDumps(x)}`).join(', ')}}`;
}
