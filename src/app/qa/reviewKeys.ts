/**
 * The review keyboard map, as data (the help can list it; useReviewKeys dispatches it). Chosen
 * not to clash with the viewer (src/app/canvas/keys.ts: arrows, j/k, e/E, [ ], g/p/d/l/o/f, 1,
 * + - =, ?, Escape), which ignores keys pressed with Ctrl/Meta/Alt:
 *
 *   Shift+1 … Shift+6        case status: unreviewed, ok, model error, GT wrong, GT missing, ambiguous
 *   Alt+Shift+1 … 6          the same for the selected instance (GT or prediction)
 *   n                        next unreviewed case
 *   Ctrl/⌘+Z, Ctrl/⌘+Shift+Z or Ctrl+Y   undo / redo the last review or GT edit
 *
 * Digits are read from `event.code` (Digit1…), so Shift+1 works on every keyboard layout (the
 * key it types, "!" or "1" or "&", varies). Keys typed into a text field are never taken.
 */
import { REVIEW_STATUSES, type ReviewStatus } from '../../core/qa';

export type ReviewKeyAction =
  | { kind: 'caseStatus'; status: ReviewStatus }
  | { kind: 'instanceStatus'; status: ReviewStatus }
  | { kind: 'nextUnreviewed' }
  | { kind: 'undo' }
  | { kind: 'redo' };

export interface ReviewKeyLike {
  key: string;
  code?: string;
  shiftKey?: boolean;
  altKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
}

export const REVIEW_KEY_HELP: readonly { keys: string; help: string }[] = [
  ...REVIEW_STATUSES.map((s, i) => ({ keys: `Shift+${i + 1}`, help: `case: ${s.replace('_', ' ')}` })),
  { keys: 'Alt+Shift+1…6', help: 'the same for the selected instance' },
  { keys: 'n', help: 'next unreviewed case' },
  { keys: 'Ctrl+Z / Ctrl+Shift+Z', help: 'undo / redo a review or GT edit' },
];

export function reviewActionFor(e: ReviewKeyLike): ReviewKeyAction | null {
  const mod = e.ctrlKey || e.metaKey;
  if (mod && !e.altKey) {
    const k = e.key.toLowerCase();
    if (k === 'z') return e.shiftKey ? { kind: 'redo' } : { kind: 'undo' };
    if (k === 'y' && !e.shiftKey) return { kind: 'redo' };
    return null;
  }
  if (mod) return null;
  const digit = /^Digit([1-6])$/.exec(e.code ?? '');
  if (digit && e.shiftKey) {
    const status = REVIEW_STATUSES[Number(digit[1]) - 1];
    return e.altKey ? { kind: 'instanceStatus', status } : { kind: 'caseStatus', status };
  }
  if (!e.shiftKey && !e.altKey && e.key === 'n') return { kind: 'nextUnreviewed' };
  return null;
}

/** True for an element the user types into (its keys are its own). */
export function isTypingTarget(t: EventTarget | null): boolean {
  const el = t as { tagName?: string; isContentEditable?: boolean; type?: string } | null;
  if (!el || typeof el.tagName !== 'string') return false;
  if (el.isContentEditable) return true;
  if (el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true;
  return el.tagName === 'INPUT' && !['button', 'checkbox', 'radio', 'range', 'submit', 'reset', 'color', 'file'].includes(el.type ?? 'text');
}
