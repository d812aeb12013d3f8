/**
 * Tolerant parsing of a TABench model output (tabench.md "Tolerant parsing" and "Decisions").
 * R2T always yields a string; T2R yields boxes or `unparseable_output`. Each result names the
 * rule that applied, so the viewer can say how the answer was read.
 */
import type { Box } from '../../geometry/box';
import { cleanModelOutput, tryParseJson } from '../../text/modelOutput';
import type { BoxFamily } from '../../text/vlmBoxes/types';

export interface R2tParse {
  text: string;
  rule: 'json-string' | 'json-object-text' | 'json-array-text' | 'json-scalar-as-text' | 'plain-text';
  steps: string[];
}

export interface T2rParse {
  boxes: Box[];
  /** A box family (`gemini`…) when the `boxes` option read the answer; `-plain` when the spec parser's boxes were taken in its space. */
  rule: 'json' | 'json-empty' | 'regex' | 'unparseable' | 'qwen2vl-tokens' | BoxFamily | `${BoxFamily}-plain`;
  unparseable: boolean;
  /** Boxes whose corners were swapped (indices into `boxes`). */
  swapped: number[];
  steps: string[];
}

/** Reads an R2T answer; `value` is the output field as found (a raw string, or JSON already parsed). */
export function parseR2t(value: unknown): R2tParse {
  if (typeof value === 'string') {
    const { text, steps } = cleanModelOutput(value);
    const j = tryParseJson(text);
    if (!j.ok) return { text, rule: 'plain-text', steps };
    // A bare number / boolean / null keeps its raw spelling (`1.50` stays `1.50`).
    return fromJson(j.value, text, steps);
  }
  // Only a scalar needs its spelling; String() of a (possibly very deep) array would recurse.
  const spelling = typeof value === 'object' && value !== null ? '' : String(value);
  return fromJson(value, spelling, []);
}

function fromJson(v: unknown, rawText: string, steps: string[]): R2tParse {
  if (typeof v === 'string') return { text: v, rule: 'json-string', steps };
  if (Array.isArray(v)) {
    const parts: string[] = [];
    for (const e of v) if (isObject(e) && typeof e.text === 'string') parts.push(e.text);
    return { text: parts.join(' '), rule: 'json-array-text', steps };
  }
  if (isObject(v)) return { text: typeof v.text === 'string' ? v.text : '', rule: 'json-object-text', steps };
  return { text: rawText, rule: 'json-scalar-as-text', steps };
}

// Four numbers, comma-separated, inside [ ] (white space allowed around them).
const NUM = String.raw`[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?`;
const BOX_RE = new RegExp(String.raw`\[\s*(${NUM})\s*,\s*(${NUM})\s*,\s*(${NUM})\s*,\s*(${NUM})\s*\]`, 'g');

/** Reads a T2R answer into boxes `[x1, y1, x2, y2]` with corners put in order. */
export function parseT2r(value: unknown): T2rParse {
  let steps: string[] = [];
  let json: { ok: true; value: unknown } | { ok: false };
  let text = '';
  if (typeof value === 'string') {
    const c = cleanModelOutput(value);
    steps = c.steps;
    text = c.text;
    json = tryParseJson(text);
  } else {
    json = { ok: true, value };
  }
  let boxes: Box[] = [];
  let rule: T2rParse['rule'];
  if (json.ok) {
    // Valid JSON never falls back to the regex.
    collectBoxes(json.value, boxes);
    if (boxes.length > 0) rule = 'json';
    else if (Array.isArray(json.value) && json.value.length === 0) rule = 'json-empty';
    else rule = 'unparseable';
  } else {
    for (const m of text.matchAll(BOX_RE)) boxes.push([Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])]);
    rule = boxes.length > 0 ? 'regex' : 'unparseable';
  }
  const swapped: number[] = [];
  boxes = boxes.map((b, i) => {
    const o = orderCorners(b);
    if (o !== b) swapped.push(i);
    return o;
  });
  return { boxes, rule, unparseable: rule === 'unparseable', swapped, steps };
}

/**
 * Boxes in document order, through arrays and bbox / bbox_2d values. Iterative (an explicit
 * stack), so a pathologically deep answer such as 200,000 nested `[` cannot overflow the call stack.
 */
function collectBoxes(root: unknown, out: Box[]): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (isBox(v)) {
      out.push([v[0], v[1], v[2], v[3]]);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else if (isObject(v)) {
      const inner = v.bbox ?? v.bbox_2d;
      if (inner !== undefined && inner !== null) stack.push(inner);
    }
  }
}

/** Swaps x (or y) corners when x2 < x1 (or y2 < y1); returns the same array when already ordered. */
export function orderCorners(b: Box): Box {
  if (b[2] >= b[0] && b[3] >= b[1]) return b;
  return [Math.min(b[0], b[2]), Math.min(b[1], b[3]), Math.max(b[0], b[2]), Math.max(b[1], b[3])];
}

export function isBox(v: unknown): v is Box {
  return Array.isArray(v) && v.length === 4 && v.every((x) => typeof x === 'number' && Number.isFinite(x));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
