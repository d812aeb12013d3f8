/**
 * GT health (shared/specs/lint.md): every finding of a benchmark's ground truth, per case and
 * instance, from the loaded dataset alone (no predictions). The same function serves the CLI
 * (`lint`), the page's worker, and the fix loop: lint `adapter.applyCorrections(dataset, …)` and
 * the fixed findings are gone.
 */
import type { BenchmarkId, RunContext } from '../model';
import type { FileSource } from '../io/fileSource';
import type { LintFinding, LintReport } from './types';
import { lintLtb } from '../benchmarks/ltb/lint';
import { lintChronicles } from '../benchmarks/chronicles/lint';
import { lintTabench } from '../benchmarks/tabench/lint';
import { lintGansu } from '../benchmarks/gansulishuzhi/lint';
import { lintPulse } from '../benchmarks/pulsebench-select/lint';
import type { LtbDataset } from '../benchmarks/ltb/dataset';
import type { ChroniclesDataset } from '../benchmarks/chronicles/gt';
import type { TabenchDataset } from '../benchmarks/tabench/dataset';
import type { GansuDataset } from '../benchmarks/gansulishuzhi/dataset';
import type { PulseDataset } from '../benchmarks/pulsebench-select/dataset';

export * from './types';
export type { BenchmarkLint } from './run';

/** Orders findings as lint.json lists them: case id (JS string order), instance (whole case first), kind. */
export function compareFindings(a: LintFinding, b: LintFinding): number {
  if (a.case_id !== b.case_id) return a.case_id < b.case_id ? -1 : 1;
  const ia = a.instance ?? -1, ib = b.instance ?? -1;
  if (ia !== ib) return ia - ib;
  if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1;
  return a.detail < b.detail ? -1 : a.detail > b.detail ? 1 : 0;
}

export async function lintDataset(benchmark: BenchmarkId, dataset: unknown, src: FileSource, ctx?: RunContext): Promise<LintReport> {
  const run =
    benchmark === 'ltb'
      ? lintLtb(dataset as LtbDataset, src, ctx)
      : benchmark === 'chronicles'
        ? lintChronicles(dataset as ChroniclesDataset, src, ctx)
        : benchmark === 'tabench'
          ? lintTabench(dataset as TabenchDataset, src, ctx)
          : benchmark === 'gansulishuzhi'
            ? lintGansu(dataset as GansuDataset, src, ctx)
            : lintPulse(dataset as PulseDataset, src, ctx);
  const { findings, cases, instances } = await run;
  findings.sort(compareFindings);
  const tally: Record<string, number> = {};
  for (const f of findings) tally[f.kind] = (tally[f.kind] ?? 0) + 1;
  const counts: Record<string, number> = {};
  for (const k of Object.keys(tally).sort()) counts[k] = tally[k];
  return { schema: 'benchlens.lint/1', benchmark, dataset: { cases, instances }, counts, findings };
}

/** lint.json as written: 2-space JSON and a final newline. */
export function serializeLintReport(r: LintReport): string {
  return JSON.stringify(r, null, 2) + '\n';
}
