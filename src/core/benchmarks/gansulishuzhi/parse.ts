/**
 * Reading a figure-box answer (gansulishuzhi.md "Predictions" and "Decisions"): structured
 * lists as they are; a raw string loses its <think> block and code fence (shared rules in
 * text/modelOutput.ts), then is parsed as JSON; when it is not JSON, the prose fallback takes
 * the first `[…]` that parses as a list of 4-number lists.
 */
import type { Box } from '../../geometry/box';
import { cleanModelOutput, tryParseJson } from '../../text/modelOutput';
import { isBox } from '../tabench/parse';

export interface FigureParse {
  boxes: Box[];
  rule: 'json' | 'json-empty' | 'prose-list' | 'prose-empty' | 'unparseable';
  unparseable: boolean;
  steps: string[];
}

export function parseFigureAnswer(value: unknown): FigureParse {
  if (typeof value !== 'string') return fromJson(value, []);
  const { text, steps } = cleanModelOutput(value);
  const j = tryParseJson(text);
  if (j.ok) return fromJson(j.value, steps);
  const prose = firstBoxListInProse(text);
  if (prose === null) return { boxes: [], rule: 'unparseable', unparseable: true, steps };
  return { boxes: prose, rule: prose.length ? 'prose-list' : 'prose-empty', unparseable: false, steps };
}

function objectBox(v: unknown): Box | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const b = o.bbox ?? o.bbox_2d;
  return isBox(b) ? [b[0], b[1], b[2], b[3]] : null;
}

/**
 * Accepted JSON (the spec's Decisions list them): a top-level bare 4-number list (one box), a list
 * whose elements are 4-number lists or objects with `bbox` / `bbox_2d` (other elements are
 * skipped), or `[]`. Anything else is "JSON of another shape" and unparseable, with no bracket
 * scan: `{"figures": …}`, and also a top-level `{"bbox_2d": …}` object, since the spec accepts
 * such objects only "anywhere in a list".
 */
function fromJson(v: unknown, steps: string[]): FigureParse {
  const bad: FigureParse = { boxes: [], rule: 'unparseable', unparseable: true, steps };
  if (isBox(v)) return { boxes: [[v[0], v[1], v[2], v[3]]], rule: 'json', unparseable: false, steps };
  if (Array.isArray(v)) {
    if (v.length === 0) return { boxes: [], rule: 'json-empty', unparseable: false, steps };
    const boxes: Box[] = [];
    for (const e of v) {
      if (isBox(e)) boxes.push([e[0], e[1], e[2], e[3]]);
      else {
        const b = objectBox(e);
        if (b) boxes.push(b);
      }
    }
    return boxes.length ? { boxes, rule: 'json', unparseable: false, steps } : bad;
  }
  return bad;
}

/**
 * Scans each `[` from the left; for the first one that works, the shortest span to a `]` that
 * parses as a list of 4-number lists. A lone `[10,20,30,40]` gives nothing; `[]` is a valid empty
 * answer. Returns null when no span works.
 *
 * Only one span per `[` can work: a list of numbers holds no string, so its brackets balance and
 * it ends at the `]` that pairs with its `[`. One stack pass pairs the brackets and records each
 * pair's nesting height; only pairs of height ≤ 2 (`[]`, `[[…], …]`) are parsed, and those never
 * nest in one another beyond one level, so the whole scan is linear — trying every `]` for every
 * `[` was quadratic in JSON.parse calls and hung on an answer with a few thousand brackets.
 */
export function firstBoxListInProse(text: string): Box[] | null {
  const closeOf = new Map<number, number>();
  const heightOf = new Map<number, number>();
  const stack: { open: number; height: number }[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 91 /* [ */) stack.push({ open: i, height: 1 });
    else if (ch === 93 /* ] */ && stack.length > 0) {
      const top = stack.pop()!;
      closeOf.set(top.open, i);
      heightOf.set(top.open, top.height);
      if (stack.length > 0) stack[stack.length - 1].height = Math.max(stack[stack.length - 1].height, top.height + 1);
    }
  }
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) !== 91) continue;
    const j = closeOf.get(i);
    if (j === undefined || heightOf.get(i)! > 2) continue;
    const parsed = tryParseJson(text.slice(i, j + 1));
    if (parsed.ok && Array.isArray(parsed.value) && parsed.value.every(isBox)) {
      return (parsed.value as Box[]).map((b) => [b[0], b[1], b[2], b[3]] as Box);
    }
  }
  return null;
}
