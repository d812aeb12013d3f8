/**
 * Edit distance over Unicode code points (an astral character such as U+20000 counts as one),
 * as every spec in this project requires. Two-row dynamic programme over Int32Arrays.
 */
export function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0)!);
  return out;
}

export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n += 1;
  return n;
}

export function levenshtein(a: string, b: string): number {
  return levenshteinCodes(codePoints(a), codePoints(b));
}

export function levenshteinCodes(a: readonly number[], b: readonly number[]): number {
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let prev = new Int32Array(b.length + 1);
  let cur = new Int32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    const ai = a[i - 1];
    for (let j = 1; j <= b.length; j++) {
      const cost = ai === b[j - 1] ? 0 : 1;
      const del = prev[j] + 1;
      const ins = cur[j - 1] + 1;
      const sub = prev[j - 1] + cost;
      cur[j] = del < ins ? (del < sub ? del : sub) : ins < sub ? ins : sub;
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

export interface DiffOp {
  op: 'equal' | 'insert' | 'delete' | 'replace';
  gt: string;
  pred: string;
}

/** A character-level alignment of gt → pred (for the viewer's diff), over code points. */
export function charDiff(gt: string, pred: string): DiffOp[] {
  const a = [...gt];
  const b = [...pred];
  const n = a.length;
  const m = b.length;
  const d: Int32Array[] = [];
  for (let i = 0; i <= n; i++) {
    d.push(new Int32Array(m + 1));
    d[i][0] = i;
  }
  for (let j = 0; j <= m; j++) d[0][j] = j;
  for (let i = 1; i <= n; i++)
    for (let j = 1; j <= m; j++)
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  const ops: DiffOp[] = [];
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && d[i][j] === d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)) {
      ops.push({ op: a[i - 1] === b[j - 1] ? 'equal' : 'replace', gt: a[i - 1], pred: b[j - 1] });
      i--;
      j--;
    } else if (i > 0 && d[i][j] === d[i - 1][j] + 1) {
      ops.push({ op: 'delete', gt: a[i - 1], pred: '' });
      i--;
    } else {
      ops.push({ op: 'insert', gt: '', pred: b[j - 1] });
      j--;
    }
  }
  ops.reverse();
  // Merge neighbours of the same kind so the viewer draws runs, not single letters.
  const merged: DiffOp[] = [];
  for (const o of ops) {
    const last = merged[merged.length - 1];
    if (last && last.op === o.op) {
      last.gt += o.gt;
      last.pred += o.pred;
    } else merged.push({ ...o });
  }
  return merged;
}
