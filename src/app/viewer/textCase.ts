/**
 * What the text panel shows, read from a CaseRecord. Adapters put their explanation in
 * `record.detail`; the keys read here (first present wins) are:
 * - normalised strings: `gt_norm` / `pred_norm` (also `normalized_gt` / `normalized_pred`);
 *   raw strings: `gt_text` / `pred_text`; else the one textual GT and prediction instance;
 * - official numbers: `cer`, `ned`;
 * - raw model output: `raw_answer`, `raw`, `answer`, `output`, `response`; thinking: `thinking`
 *   (else a <think>…</think> block in the raw answer);
 * - the parsing / extraction rule applied: `rule`, `parse_rule`, `extraction_rule`, `extract_path`,
 *   `parser`, with `parse_steps` (TABench) or Chronicles' `judged` ('stored' | 'reextracted') and
 *   `extraction: { ok, path, reason }`; the extracted value: `extract`.
 * - the query of a query-based case (TABench): `question`, `query`.
 * Everything else in `detail` is listed as key / value.
 */
import type { CaseRecord, Instance } from '../../core/model';
import { charDiff, codePointLength, levenshtein, type DiffOp } from '../../core/text/levenshtein';
import { textOf } from '../canvas/scene';

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const pick = (d: Record<string, unknown>, keys: readonly string[]): string | null => {
  for (const k of keys) {
    const v = str(d[k]);
    if (v !== null) return v;
  }
  return null;
};
const pickNum = (d: Record<string, unknown>, key: string): number | null => (typeof d[key] === 'number' && Number.isFinite(d[key]) ? (d[key] as number) : null);

const GT_NORM = ['gt_norm', 'gt_normalised', 'normalized_gt', 'gt_normalized'];
const PRED_NORM = ['pred_norm', 'pred_normalised', 'normalized_pred', 'pred_normalized'];
const GT_RAW = ['gt_text'];
const PRED_RAW = ['pred_text'];
const RAW = ['raw_answer', 'raw_output', 'raw', 'answer', 'output', 'response'];
const RULE = ['rule', 'parse_rule', 'extraction_rule', 'extract_path', 'parser'];
/** Shown by the panel in their own places, or redundant with what it computes (diff, distance). */
const USED = new Set([...GT_NORM, ...PRED_NORM, ...GT_RAW, ...PRED_RAW, ...RAW, ...RULE, 'thinking', 'cer', 'ned', 'extract', 'question', 'query', 'extraction', 'parse_steps', 'judged', 'diff', 'edit_distance']);

export interface TextComparison {
  gt: string;
  pred: string;
  normalised: boolean;
  ops: DiffOp[];
  distance: number;
  /** lev / max(1, |gt|), code points. */
  cer: number;
  /** lev / max(|gt|, |pred|), 0 when both are empty. */
  ned: number;
  officialCer: number | null;
  officialNed: number | null;
}

function onlyText(list: readonly Instance[]): string | null {
  const withText = list.filter((i) => i.state !== 'info' && textOf(i) !== undefined);
  return withText.length === 1 ? textOf(withText[0])! : null;
}

export function textComparison(rec: CaseRecord): TextComparison | null {
  const d = rec.detail ?? {};
  let gt = pick(d, GT_NORM);
  let pred = pick(d, PRED_NORM);
  const normalised = gt !== null || pred !== null;
  if (!normalised) {
    gt = pick(d, GT_RAW) ?? onlyText(rec.gt);
    pred = pick(d, PRED_RAW) ?? onlyText(rec.pred);
    // A detection case with many instances is not a text comparison.
    if (gt === null && pred === null) return null;
    if (rec.gt.some((g) => g.shape && g.state !== 'info') && pick(d, GT_RAW) === null) return null;
  }
  gt ??= '';
  pred ??= '';
  const distance = levenshtein(gt, pred);
  const lg = codePointLength(gt);
  const lp = codePointLength(pred);
  return {
    gt,
    pred,
    normalised,
    ops: charDiff(gt, pred),
    distance,
    cer: distance / Math.max(1, lg),
    ned: lg === 0 && lp === 0 ? 0 : distance / Math.max(lg, lp),
    officialCer: pickNum(d, 'cer'),
    officialNed: pickNum(d, 'ned'),
  };
}

/**
 * Splits a raw answer into its thinking part and the rest: a closed <think>/<thinking>/<reasoning>
 * block, or everything before a lone closing tag.
 */
export function splitThinking(raw: string): { thinking: string | null; answer: string } {
  const closed = /<\s*(think|thinking|reasoning)\s*>([\s\S]*?)<\s*\/\s*\1\s*>/gi;
  const parts: string[] = [];
  let answer = raw.replace(closed, (_m, _t, body: string) => {
    parts.push(body.trim());
    return '';
  });
  const lone = /<\s*\/\s*(think|thinking|reasoning)\s*>/gi;
  let last: RegExpExecArray | null = null;
  for (let m = lone.exec(answer); m; m = lone.exec(answer)) last = m;
  if (last) {
    parts.push(answer.slice(0, last.index).trim());
    answer = answer.slice(last.index + last[0].length);
  }
  return { thinking: parts.length > 0 ? parts.join('\n\n') : null, answer: answer.trim() };
}

export interface RawAnswer {
  thinking: string | null;
  answer: string;
}

export function rawAnswer(rec: CaseRecord): RawAnswer | null {
  const d = rec.detail ?? {};
  const raw = pick(d, RAW);
  const thinking = str(d.thinking);
  if (raw === null && thinking === null) return null;
  if (thinking !== null) return { thinking: thinking || null, answer: raw ?? '' };
  return splitThinking(raw ?? '');
}

export function extractionRule(rec: CaseRecord): string | null {
  const d = rec.detail ?? {};
  const parts: string[] = [];
  const judged = str(d.judged);
  if (judged) parts.push(`judged the ${judged} extract`);
  const rule = pick(d, RULE);
  if (rule) parts.push(rule);
  const steps = Array.isArray(d.parse_steps) ? d.parse_steps.filter((x) => typeof x === 'string') : [];
  if (steps.length > 0) parts.push(`steps: ${steps.join(' → ')}`);
  const ex = d.extraction;
  if (ex && typeof ex === 'object' && !Array.isArray(ex)) {
    const e = ex as Record<string, unknown>;
    const path = Array.isArray(e.path) ? e.path.map(String).join(' → ') : str(e.path);
    if (path) parts.push(`extraction path: ${path}`);
    if (e.ok === false) parts.push(`extraction failed${str(e.reason) ? `: ${e.reason}` : ''}`);
  }
  return parts.length > 0 ? parts.join('; ') : null;
}

export function extracted(rec: CaseRecord): string | null {
  const e = rec.detail?.extract;
  if (e === undefined || e === null) return null;
  return typeof e === 'string' ? e : JSON.stringify(e);
}

/** The remaining detail entries, as text (objects as JSON), for a key / value list. */
export function otherDetails(rec: CaseRecord): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(rec.detail ?? {})) {
    if (USED.has(k) || v === undefined) continue;
    out.push([k, typeof v === 'string' ? v : JSON.stringify(v)]);
  }
  return out;
}

/** The question of a query-based case (TABench T2R shows it instead of a query box). */
export function query(rec: CaseRecord): string | null {
  return pick(rec.detail ?? {}, ['question', 'query']);
}
