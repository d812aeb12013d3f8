/**
 * Reading the core's one-line reasons (the CLI prints them as they are) as a verdict and its
 * detail, so the page can show the verdict first, on its own line, and the detail under it.
 *
 * The core writes every refusal verdict first and joins the detail with " — " (core/session.ts
 * refusal(); readers' "prediction a.jsonl: nothing to score — why"), so the first " — " is the
 * boundary. A message without one is all verdict.
 */

export interface Verdict {
  verdict: string;
  /** What follows the verdict ('' when nothing does). */
  detail: string;
}

const SEP = ' — ';

export function splitVerdict(message: string): Verdict {
  const i = message.indexOf(SEP);
  if (i < 0) return { verdict: message.trim(), detail: '' };
  return { verdict: message.slice(0, i).trim(), detail: message.slice(i + SEP.length).trim() };
}

export interface DetectionFailure {
  /** 'no recognisable benchmark in "photos" (12 files)' */
  heading: string;
  /** Each benchmark and the layout it looks for, in the registry's order. */
  layouts: { benchmark: string; expects: string }[];
}

/**
 * The core's detectionFailureMessage ('no recognisable benchmark in "x" (n files). Looked for —
 * LTB: …; TABench: …') as a heading and one entry per benchmark; null for any other message.
 */
export function parseDetectionFailure(message: string): DetectionFailure | null {
  const m = /^(no recognisable benchmark in .*?)\.\s+Looked for — (.*)$/s.exec(message);
  if (!m) return null;
  const layouts = m[2].split('; ').map((part) => {
    const i = part.indexOf(': ');
    return i < 0 ? { benchmark: '', expects: part } : { benchmark: part.slice(0, i), expects: part.slice(i + 2) };
  });
  return { heading: m[1], layouts };
}
