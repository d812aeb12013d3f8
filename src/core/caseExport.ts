/**
 * case_analysis.jsonl, schema `benchlens.case/1`: one line per (model, case), in the dataset's
 * own coordinates so a line can be drawn again without the app.
 */
import type { BenchmarkId, CaseRecord } from './model';
import type { QaState } from './qa';

export const CASE_SCHEMA = 'benchlens.case/1';

export interface CaseLine extends Omit<CaseRecord, 'image_file'> {
  schema: typeof CASE_SCHEMA;
  benchmark: BenchmarkId;
  model: string;
  qa?: QaState;
}

export function caseLine(benchmark: BenchmarkId, model: string, c: CaseRecord, qa?: QaState): CaseLine {
  const { image_file: _dropped, ...rest } = c;
  const line: CaseLine = { schema: CASE_SCHEMA, benchmark, model, ...rest };
  if (qa) line.qa = qa;
  return line;
}

export function serializeCaseLine(line: CaseLine): string {
  return JSON.stringify(line);
}

export interface ParsedCaseFile {
  lines: CaseLine[];
  warnings: string[];
}

/** Reads a case_analysis.jsonl back; a bad line costs that line and is listed. */
export function parseCaseAnalysis(text: string): ParsedCaseFile {
  const lines: CaseLine[] = [];
  const warnings: string[] = [];
  text.split('\n').forEach((raw, i) => {
    const t = raw.trim();
    if (t === '') return;
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch {
      warnings.push(`line ${i + 1}: not valid JSON`);
      return;
    }
    const o = v as Partial<CaseLine>;
    if (!o || typeof o !== 'object' || o.schema !== CASE_SCHEMA) {
      warnings.push(`line ${i + 1}: not a ${CASE_SCHEMA} line`);
      return;
    }
    if (typeof o.case_id !== 'string' || typeof o.model !== 'string') {
      warnings.push(`line ${i + 1}: missing case_id or model`);
      return;
    }
    lines.push(o as CaseLine);
  });
  return { lines, warnings };
}
