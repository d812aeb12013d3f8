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

const CLOSED_THINK = /<think>[\s\S]*?<\/think>/g;

export function stripThink(raw: string): string {
  let s = raw.replace(CLOSED_THINK, '');
  const close = s.lastIndexOf('</think>');
  if (close >= 0) s = s.slice(close + '</think>'.length);
  const open = s.indexOf('<think>');
  if (open >= 0) s = s.slice(0, open);
  return s;
}

// ``` or ~~~ (three or more), an optional info string on the opening line, the body, and the same
// fence closing the whole text. The body may be empty.
const FENCE = /^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n?\1$/;

/** Removes a fence that surrounds the whole (trimmed) text; otherwise returns the text trimmed. */
export function stripCodeFence(text: string): string {
  const t = text.trim();
  const m = FENCE.exec(t);
  return m ? m[2].trim() : t;
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
