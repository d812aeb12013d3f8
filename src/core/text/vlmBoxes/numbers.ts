/** Number and bracket-group scanning shared by the dialect readers. */
import type { Box } from '../../geometry/box';

export const NUM = String.raw`[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?`;
const GROUP4 = new RegExp(String.raw`[\[(]\s*(${NUM})\s*,\s*(${NUM})\s*,\s*(${NUM})\s*,\s*(${NUM})\s*[\])]`, 'g');
const ANY_NUM = new RegExp(NUM, 'g');

/** Every bracketed (or parenthesised) group of exactly four comma-separated numbers, in order. */
export function groupsOfFour(text: string): Box[] {
  const out: Box[] = [];
  for (const m of text.matchAll(GROUP4)) out.push([Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])]);
  return out;
}

/** Every number in the text, in order. */
export function allNumbers(text: string): number[] {
  return [...text.matchAll(ANY_NUM)].map((m) => Number(m[0]));
}

/** The spans between an opening and a closing marker (non-greedy, left to right). */
export function spansBetween(text: string, open: string, close: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (;;) {
    const a = text.indexOf(open, from);
    if (a < 0) break;
    const b = text.indexOf(close, a + open.length);
    if (b < 0) {
      // An answer cut at the token limit: read what the last span holds.
      out.push(text.slice(a + open.length));
      break;
    }
    out.push(text.slice(a + open.length, b));
    from = b + close.length;
  }
  return out;
}

/** [a, b, c, d] / scale on both axes (x first). */
export function scaled(b: readonly number[], sx: number, sy: number): Box {
  return [b[0] / sx, b[1] / sy, b[2] / sx, b[3] / sy];
}

/** The bounding box of a quadrilateral given as 8 numbers x1 y1 … x4 y4. */
export function quadBounds(q: readonly number[]): Box {
  const xs = [q[0], q[2], q[4], q[6]];
  const ys = [q[1], q[3], q[5], q[7]];
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}
