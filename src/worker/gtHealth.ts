/**
 * The GT health view's bookkeeping around the core lint (src/core/lint): findings of the
 * corrected GT told in the numbering the viewer shows, and the changelog that goes with a
 * corrected-GT export.
 *
 * Numbering: the viewer draws a case's original GT (instance i = `gt[i]`) with the corrections
 * on top, while a lint of `applyCorrections(dataset)` numbers the corrected list, in which
 * deleted instances are gone (later ones move down) and added ones follow the kept ones — the
 * order every adapter's applyCorrections builds. A finding on corrected instance j is told on
 * the original instance it came from, or on "added GT k".
 */
import type { GtCorrection, Instance, Shape } from '../core';
import type { LintFinding, LintReport } from '../core/lint';

/** A finding as the page shows it: `instance` in the original numbering, or `added` for an added instance. */
export interface GtHealthFinding extends LintFinding {
  /** Set when the instance is one the user added (k-th added of the case); `instance` is then absent. */
  added?: number;
}

export interface GtHealth {
  benchmark: string;
  dataset: LintReport['dataset'];
  /** Findings of the GT as corrected now, in the viewer's numbering, sorted as lint.json sorts them. */
  findings: GtHealthFinding[];
  counts: Record<string, number>;
  /** Findings of the original GT that the corrections made disappear. */
  fixed: LintFinding[];
  /** How many corrections were applied. */
  corrections: number;
}

/** Deleted original ids per case, sorted. */
function deletedByCase(corrections: readonly GtCorrection[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const c of corrections) {
    if (!c.deleted || c.gt_id === null) continue;
    const list = out.get(c.case_id) ?? [];
    if (!list.includes(c.gt_id)) list.push(c.gt_id);
    out.set(c.case_id, list);
  }
  for (const l of out.values()) l.sort((a, b) => a - b);
  return out;
}

/**
 * Maps findings of the corrected GT to the original numbering. `gtCount(case)` is the number of
 * GT instances the case had before any correction.
 */
export function toOriginalNumbering(findings: readonly LintFinding[], corrections: readonly GtCorrection[], gtCount: (caseId: string) => number): GtHealthFinding[] {
  const deleted = deletedByCase(corrections);
  return findings.map((f) => {
    const del = deleted.get(f.case_id);
    if (f.instance === undefined || !del) return f;
    const kept = gtCount(f.case_id) - del.length;
    if (f.instance >= kept) {
      const { instance: _drop, ...rest } = f;
      return { ...rest, added: f.instance - kept };
    }
    // The j-th kept original id: step over the deleted ids at or below it.
    let id = f.instance;
    for (const d of del) if (d <= id) id++;
    return { ...f, instance: id };
  });
}

const findingKey = (f: GtHealthFinding) => `${f.case_id}\u0000${f.instance ?? ''}\u0000${f.added ?? ''}\u0000${f.kind}`;

/** Findings of `before` (original GT) with no finding of the same kind on the same instance in `after`. */
export function fixedFindings(before: readonly LintFinding[], after: readonly GtHealthFinding[]): LintFinding[] {
  const now = new Set(after.map(findingKey));
  return before.filter((f) => !now.has(findingKey(f)));
}

export interface ChangelogEntry {
  case_id: string;
  /** The original GT instance, or null for an added one. */
  instance: number | null;
  change: string[];
  /** The findings this change made disappear (kind and detail as the original GT had them). */
  fixed: { kind: string; severity: string; instance?: number; detail: string }[];
}

function describeShape(s: Shape | undefined): string {
  if (!s) return '(none)';
  if (s.type === 'box') return `box [${s.box.map(round).join(', ')}]`;
  const pts: string[] = [];
  for (let i = 0; i + 1 < s.points.length; i += 2) pts.push(`${round(s.points[i])},${round(s.points[i + 1])}`);
  return `polygon ${pts.join(' ')}`;
}

const round = (v: number) => String(Math.round(v * 100) / 100);
const quote = (t: string | undefined) => JSON.stringify(t ?? '');

/** What one correction changes on its original instance, in words. */
function describeChange(c: GtCorrection, original: Instance | undefined): string[] {
  if (c.gt_id === null) {
    const out = [`added ${describeShape(c.shape)}`];
    if (c.text !== undefined) out.push(`text ${quote(c.text)}`);
    if (c.care === false) out.push("don't care");
    return out;
  }
  if (c.deleted) return ['deleted'];
  const out: string[] = [];
  if (c.shape) out.push(`shape ${describeShape(original?.shape)} → ${describeShape(c.shape)}`);
  if (c.text !== undefined && c.text !== original?.text) out.push(`text ${quote(original?.text)} → ${quote(c.text)}`);
  if (c.care !== undefined) {
    const was = original ? original.state !== 'dontcare' : null;
    if (was !== c.care) out.push(c.care ? "don't care → care" : "care → don't care");
  }
  return out.length > 0 ? out : ['no change (same values as the original)'];
}

/**
 * One entry per correction: the case, the instance, what changed, and the findings it fixed. A
 * fixed finding is credited to the correction of its own instance; one whose instance was not
 * corrected (a duplicate reported on the later instance, fixed by moving the earlier one; a
 * whole-case finding) to every correction of its case.
 */
export function gtChangelog(corrections: readonly GtCorrection[], fixed: readonly LintFinding[], originalGt: (caseId: string) => Instance[] | undefined): ChangelogEntry[] {
  const corrected = new Set(corrections.filter((c) => c.gt_id !== null).map((c) => `${c.case_id}\u0000${c.gt_id}`));
  const entries = corrections.map((c) => {
    const gt = originalGt(c.case_id);
    const own = fixed.filter((f) => f.case_id === c.case_id && ((c.gt_id !== null && f.instance === c.gt_id) || f.instance === undefined || !corrected.has(`${f.case_id}\u0000${f.instance}`)));
    return {
      case_id: c.case_id,
      instance: c.gt_id,
      change: describeChange(c, c.gt_id === null ? undefined : gt?.[c.gt_id]),
      fixed: own.map((f) => ({ kind: f.kind, severity: f.severity, ...(f.instance !== undefined ? { instance: f.instance } : {}), detail: f.detail })),
    };
  });
  return entries.sort((a, b) => (a.case_id !== b.case_id ? (a.case_id < b.case_id ? -1 : 1) : (a.instance ?? Infinity) - (b.instance ?? Infinity)));
}

/** The changelog as people read it (Markdown), written beside the corrected GT files. */
export function changelogMarkdown(benchmark: string, entries: readonly ChangelogEntry[], fixedTotal: number, remaining: number): string {
  const lines = [
    `# Ground-truth changes (${benchmark})`,
    '',
    `${entries.length} corrected instance${entries.length === 1 ? '' : 's'}; ${fixedTotal} GT health finding${fixedTotal === 1 ? '' : 's'} fixed, ${remaining} remaining.`,
    'Instances are numbered as in the original GT (the viewer\'s numbering). Made with Benchlens; the original files were not modified.',
    '',
  ];
  for (const e of entries) {
    lines.push(`## ${e.case_id} — ${e.instance === null ? 'added GT' : `GT ${e.instance}`}`, '');
    for (const c of e.change) lines.push(`- ${c}`);
    if (e.fixed.length === 0) lines.push('- fixed: no GT health finding');
    for (const f of e.fixed) lines.push(`- fixed \`${f.kind}\` (${f.severity}${f.instance !== undefined && f.instance !== e.instance ? `, on GT ${f.instance}` : ''}): ${f.detail}`);
    lines.push('');
  }
  return lines.join('\n');
}

/** Counts per kind, keys sorted (as lint.json's `counts`). */
export function countKinds(findings: readonly LintFinding[]): Record<string, number> {
  const tally: Record<string, number> = {};
  for (const f of findings) tally[f.kind] = (tally[f.kind] ?? 0) + 1;
  return Object.fromEntries(Object.keys(tally).sort().map((k) => [k, tally[k]]));
}
