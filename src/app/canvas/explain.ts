/**
 * The facts shown for one instance, in the tooltip and in the instance panel alike: what it is,
 * its text and score, its IoU with its partner (or the best IoU when unmatched) and the
 * protocol's reason sentence. Pure, so both views say exactly the same thing.
 */
import type { Instance } from '../../core/model';
import { STATE_LABEL } from './style';
import type { Side } from './scene';
import { selectedOf, textOf } from './scene';
import { describeError } from './errorCause';

export interface Fact {
  label: string;
  value: string;
}

export interface Explanation {
  title: string;
  facts: Fact[];
  reason: string | null;
}

const num = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(3).replace(/0+$/, '').replace(/\.$/, ''));

/** Attributes already shown elsewhere, or only meaningful to the drawer. */
const SKIP_ATTRS = new Set(['role', 'selected', 'char', 'content', 'unscored']);

export function sideName(side: Side): string {
  return side === 'gt' ? 'GT' : 'prediction';
}

export function explain(side: Side, inst: Instance, model?: string): Explanation {
  const other = side === 'gt' ? 'prediction' : 'GT';
  const facts: Fact[] = [];
  // The error class first (shared/specs/errors.md), with the instances that caused it named.
  const error = describeError(side, inst);
  if (error) facts.push({ label: 'error', value: error });
  const text = textOf(inst);
  if (text !== undefined) facts.push({ label: 'text', value: text === '' ? '(empty)' : text });
  if (typeof inst.score === 'number') facts.push({ label: 'score', value: num(inst.score) });
  if (inst.state === 'tp' && typeof inst.iou === 'number')
    facts.push({ label: 'IoU', value: inst.partner !== undefined ? `${num(inst.iou)} with ${other} ${inst.partner}` : num(inst.iou) });
  else if (typeof inst.best_iou === 'number')
    facts.push({ label: 'best IoU', value: inst.partner !== undefined ? `${num(inst.best_iou)} (${other} ${inst.partner})` : num(inst.best_iou) });
  else if (typeof inst.iou === 'number')
    facts.push({ label: 'IoU', value: inst.partner !== undefined ? `${num(inst.iou)} with ${other} ${inst.partner}` : num(inst.iou) });
  else if (inst.partner !== undefined) facts.push({ label: 'partner', value: `${other} ${inst.partner}` });
  const sel = selectedOf(inst);
  if (sel !== null) facts.push({ label: 'selected', value: sel ? 'yes' : 'no' });
  if (inst.tags && inst.tags.length > 0) facts.push({ label: 'tags', value: inst.tags.join(', ') });
  for (const [k, v] of Object.entries(inst.attrs ?? {})) {
    if (SKIP_ATTRS.has(k)) continue;
    if (typeof v === 'number') facts.push({ label: k, value: num(v) });
    else if (typeof v === 'string' || typeof v === 'boolean') facts.push({ label: k, value: String(v) });
  }
  const who = model ? ` · ${model}` : '';
  // GT drawn with no model loaded (core/gtCases.ts) is neither matched nor missed: "unscored".
  const state = inst.attrs?.unscored === true ? 'unscored' : STATE_LABEL[inst.state];
  return { title: `${sideName(side)} ${inst.id} · ${state}${who}`, facts, reason: inst.reason ?? null };
}

/** The explanation as plain lines (tests, clipboard, aria labels). */
export function explanationText(e: Explanation): string {
  return [e.title, ...e.facts.map((f) => `${f.label}: ${f.value}`), ...(e.reason ? [e.reason] : [])].join('\n');
}
