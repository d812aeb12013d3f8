/**
 * The error taxonomy of a report (shared/specs/errors.md) as the page reads it: per model and
 * unit `diagnostics.errors[unit]`, and the top-level `diagnostics.suspects`. Read loosely, since
 * a report.json written before the taxonomy (or by a benchmark without it) has none.
 */
// Values from their own modules, never from '../../core': its index pulls every adapter into the page bundle.
import type { Report, Suspect, UnitErrors } from '../../core';
import { ERROR_CLASSES } from '../../core/errorClassKinds';

export function unitErrors(report: Report, model: string, unit: string): UnitErrors | undefined {
  return report.models[model]?.diagnostics?.errors?.[unit];
}

export function suspectsOf(report: Report): Suspect[] {
  const s = report.diagnostics?.suspects;
  return Array.isArray(s) ? s : [];
}

export interface ClassCell {
  fn: number;
  fp: number;
  /** null when the report gives no dHmean for the class. */
  dhmean: number | null;
}

export interface ClassRow {
  cls: string;
  /** One cell per model, in the order asked; undefined = the model has no diagnostics for the unit. */
  cells: (ClassCell | undefined)[];
}

/**
 * One row per error class any of `models` has in `unit` (the spec's order, then any other class
 * the report names), each with every model's FN / FP count and dHmean. Classes with a zero count
 * for every model are left out, as the spec lets report.json leave them out.
 */
export function classRows(report: Report, models: readonly string[], unit: string): ClassRow[] {
  const per = models.map((m) => unitErrors(report, m, unit));
  const named = new Set<string>();
  for (const e of per) for (const k of [...Object.keys(e?.fn ?? {}), ...Object.keys(e?.fp ?? {})]) named.add(k);
  const known: readonly string[] = ERROR_CLASSES;
  const order = [...known.filter((c) => named.has(c)), ...[...named].filter((c) => !known.includes(c)).sort()];
  return order
    .map((cls) => ({
      cls,
      cells: per.map((e) => {
        if (!e) return undefined;
        const fn = (e.fn as Record<string, number | undefined>)[cls] ?? 0;
        const fp = (e.fp as Record<string, number | undefined>)[cls] ?? 0;
        const d = (e.dhmean as Record<string, number | undefined>)[cls];
        return { fn, fp, dhmean: typeof d === 'number' ? d : null };
      }),
    }))
    .filter((r) => r.cells.some((c) => c && c.fn + c.fp > 0));
}

/** The largest dHmean shown (the bars' full length), at least a tiny positive number. */
export function maxGain(rows: readonly ClassRow[], totals: readonly (UnitErrors | undefined)[]): number {
  let max = 1e-9;
  for (const r of rows) for (const c of r.cells) if (c?.dhmean != null && c.dhmean > max) max = c.dhmean;
  for (const t of totals) for (const k of ['all_fp', 'all_fn'] as const) if (t && (t.dhmean[k] ?? 0) > max) max = t.dhmean[k]!;
  return max;
}
