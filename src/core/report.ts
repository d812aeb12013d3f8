/**
 * report.json, schema `benchlens.report/1` (see shared/specs/README.md). Rates are fractions at
 * full precision; nothing here rounds or scales.
 */
import type { BenchmarkId, ModelResult, Protocol, UnitErrors } from './model';
import type { Suspect } from './errors/suspects';
import type { BoxDialectDiagnosis } from './text/vlmBoxes/diagnose';
import type { UncertaintyBlock } from './uncertainty';

export type { Suspect };

export const REPORT_SCHEMA = 'benchlens.report/1';

export interface ReportModel {
  metrics: Record<string, number>;
  counts: Record<string, number>;
  warnings: string[];
  /** Additive (shared/specs/errors.md): the error taxonomy, one entry per unit keyed by its report key. */
  diagnostics?: { errors: Record<string, UnitErrors> };
  /** Additive (shared/specs/vlm-boxes.md): the file's box-dialect diagnosis, present when it has something to say. */
  box_dialect?: BoxDialectDiagnosis;
}

export interface Report {
  schema: typeof REPORT_SCHEMA;
  benchmark: BenchmarkId;
  protocol: Protocol;
  /** `warnings` (dataset-level problems such as missing images) is present only when there are some. */
  dataset: { cases: number; images: number; warnings?: string[] };
  models: Record<string, ReportModel>;
  /** Additive: GT suspects across the models, ranked (present when a benchmark has the taxonomy). */
  diagnostics?: { suspects: Suspect[] };
  /** Additive (shared/specs/uncertainty.md): intervals and paired tests; absent with `ci=off`. */
  uncertainty?: UncertaintyBlock;
}

export function buildReport(
  benchmark: BenchmarkId,
  protocol: Protocol,
  dataset: { cases: number; images: number; warnings?: string[] },
  results: readonly (Pick<ModelResult, 'model' | 'metrics' | 'counts' | 'warnings'> & Partial<Pick<ModelResult, 'diagnostics' | 'boxDialect'>>)[],
  suspects?: Suspect[],
): Report {
  const models: Record<string, ReportModel> = {};
  for (const r of results) {
    models[r.model] = { metrics: r.metrics, counts: r.counts, warnings: r.warnings };
    if (r.diagnostics) models[r.model].diagnostics = { errors: r.diagnostics.errors };
    if (r.boxDialect) models[r.model].box_dialect = r.boxDialect;
  }
  const ds = dataset.warnings?.length ? dataset : { cases: dataset.cases, images: dataset.images };
  const report: Report = { schema: REPORT_SCHEMA, benchmark, protocol, dataset: ds, models };
  if (suspects) report.diagnostics = { suspects };
  return report;
}

export function serializeReport(r: Report): string {
  return JSON.stringify(r, null, 2) + '\n';
}

/** Reads a report back (e.g. one exported earlier); throws on another schema. */
export function parseReport(text: string): Report {
  const v = JSON.parse(text) as Partial<Report>;
  if (v.schema !== REPORT_SCHEMA) throw new Error(`not a ${REPORT_SCHEMA} file (schema: ${String(v.schema)})`);
  return v as Report;
}
