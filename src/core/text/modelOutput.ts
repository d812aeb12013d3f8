/**
 * Cleaning of a vision-language model's raw answer before it is parsed, shared by the
 * benchmarks whose specs say "strip a <think> block and a surrounding code fence" (TABench,
 * gansulishuzhi). The rules are the TABench spec's "Decisions", to the letter:
 * - every closed `<think>…</think>` is removed; if a `</think>` remains, only what follows the
 *   last one is kept; if an unclosed `<think>` remains, everything from it to the end is dropped;
 * - a code fence is removed only when it surrounds the whole trimmed output; its info string
 *   (`json`, …) goes with it.
 */

export interface CleanedOutput {
  text: string;
  /** Which steps changed the text, for the viewer's "parsing rule" line. */
  steps: ('think' | 'fence')[];
}

const OPEN = '<think>';
const CLOSE = '</think>';

/**
 * The three think-block rules, by index scans rather than regular expressions: a lazy
 * `<think>[\s\S]*?</think>` regex is quadratic on an answer with thousands of unclosed `<think>`.
 */
export function stripThink(raw: string): string {
  // 1. Every closed block, left to right, each ending at the first </think> after its <think>.
  let kept = '';
  let from = 0;
  for (;;) {
    const open = raw.indexOf(OPEN, from);
    if (open < 0) break;
    const close = raw.indexOf(CLOSE, open + OPEN.length);
    // No </think> after this <think>: none after any later one either, so no closed block is left.
    if (close < 0) break;
    kept += raw.slice(from, open);
    from = close + CLOSE.length;
  }
  let s = from === 0 ? raw : kept + raw.slice(from);
  // 2. A stray </think>: keep only what follows the last one.
  const last = s.lastIndexOf(CLOSE);
  if (last >= 0) s = s.slice(last + CLOSE.length);
  // 3. An unclosed <think>: drop it and everything after it.
  const open = s.indexOf(OPEN);
  if (open >= 0) s = s.slice(0, open);
  return s;
}

/**
 * Removes a fence that surrounds the whole (trimmed) text; otherwise returns the text trimmed.
 * A fence is three or more backticks (or tildes) opening the text, an optional info string up to
 * the first line break (`json`, …), the body, and the same fence (three or more of the character,
 * at most as many as opened) closing the text. Written as a scan: the equivalent regex
 * backtracks quadratically on a long run of backticks without a line break.
 */
export function stripCodeFence(text: string): string {
  const t = text.trim();
  const c = t[0];
  if (c !== '`' && c !== '~') return t;
  let run = 0;
  while (run < t.length && t[run] === c) run++;
  if (run < 3) return t;
  const nl = t.indexOf('\n', run);
  if (nl < 0) return t;
  let tail = 0;
  while (tail < t.length - nl - 1 && t[t.length - 1 - tail] === c) tail++;
  // The closing fence: the longest k ≤ min(run, tail) with k ≥ 3 that leaves room after the line break.
  for (let k = Math.min(run, tail); k >= 3; k--) {
    const end = t.length - k;
    if (end >= nl + 1) return t.slice(nl + 1, end).trim();
  }
  return t;
}

export function cleanModelOutput(raw: string): CleanedOutput {
  const steps: CleanedOutput['steps'] = [];
  const noThink = stripThink(raw);
  if (noThink !== raw) steps.push('think');
  const trimmed = noThink.trim();
  const text = stripCodeFence(trimmed);
  if (text !== trimmed) steps.push('fence');
  return { text, steps };
}

export type JsonAttempt = { ok: true; value: unknown } | { ok: false };

/** JSON.parse that reports failure instead of throwing (model output is untrusted text). */
export function tryParseJson(text: string): JsonAttempt {
  if (text === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * The raw output as a case record keeps it: strings and ordinary JSON as they are; a parsed value
 * that JSON.stringify cannot write back (nested deeper than the call stack allows) as a short
 * note, so one pathological line cannot crash the case export.
 */
export function exportableRaw(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  try {
    JSON.stringify(value);
    return value;
  } catch {
    return '[output not exportable: nested too deeply]';
  }
}
