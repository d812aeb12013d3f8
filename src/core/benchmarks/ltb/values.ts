/** Validation of the polygons and scores LTB files carry, with the sentence a warning shows. */
import { quoteValue } from '../../io/json';

/** A flat polygon `[x1, y1, …]` (nested `[[x, y], …]` is flattened) or why it is unusable. */
export function parsePolygon(v: unknown): number[] | string {
  if (!Array.isArray(v)) return 'polygon is not a list';
  let flat: unknown[] = v;
  if (v.length > 0 && Array.isArray(v[0])) {
    flat = [];
    for (const p of v) {
      if (!Array.isArray(p) || p.length !== 2) return 'nested polygon points must be [x, y] pairs';
      flat.push(p[0], p[1]);
    }
  }
  for (let i = 0; i < flat.length; i++) {
    const x = flat[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) return `coordinate ${i + 1} is not a number (${short(x)})`;
  }
  if (flat.length % 2 !== 0) return `odd number of coordinates (${flat.length})`;
  if (flat.length < 6) return `polygon with ${flat.length / 2} point${flat.length === 2 ? '' : 's'}`;
  return flat as number[];
}

export function parseScore(v: unknown): number | string {
  if (typeof v !== 'number' || !Number.isFinite(v)) return `score is not a number (${short(v)})`;
  return v;
}

function short(v: unknown): string {
  // quoteValue, not JSON.stringify: a value nested 100,000 deep must cost its entry, not the file.
  const s = quoteValue(v, 64);
  return s.length > 24 ? s.slice(0, 21) + '…' : s;
}

/** Warnings with a cap, so a million bad lines cost a summary line, not a megabyte of report. */
export class WarningList {
  readonly items: string[] = [];
  private extra = 0;
  constructor(private readonly cap = 500) {}
  add(msg: string): void {
    if (this.items.length < this.cap) this.items.push(msg);
    else this.extra++;
  }
  get total(): number {
    return this.items.length + this.extra;
  }
  list(): string[] {
    return this.extra ? [...this.items, `… and ${this.extra} more warning(s) like these`] : [...this.items];
  }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Python truthiness, for flags the official loaders test with `if ann.get('ignore', False)`:
 * false, 0, "", null, [] and {} are false, anything else (1, "0", [0]) is true.
 */
export function pyTruthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (isObject(v)) return Object.keys(v).length > 0;
  return Boolean(v);
}

/**
 * `JSON.parse` that also reads what Python's `json.dump` writes by default for non-finite floats
 * (`NaN`, `Infinity`, `-Infinity`): those tokens, outside strings, become `null`, so the entry
 * holding one is dropped with a warning instead of the whole file failing. Used only after a
 * plain `JSON.parse` failed; returns null when the text has no such token to fix.
 */
export function parsePythonJson(text: string): { value: unknown } | null {
  let out = '';
  let last = 0;
  let changed = false;
  let inStr = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inStr) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inStr = false;
      continue;
    }
    if (c === 0x22) {
      inStr = true;
      continue;
    }
    let len = 0;
    if (text.startsWith('NaN', i)) len = 3;
    else if (text.startsWith('Infinity', i)) len = 8;
    else if (text.startsWith('-Infinity', i)) len = 9;
    if (len === 0) continue;
    out += text.slice(last, i) + 'null';
    last = i + len;
    i += len - 1;
    changed = true;
  }
  if (!changed) return null;
  try {
    return { value: JSON.parse(out + text.slice(last)) };
  } catch {
    return null;
  }
}
