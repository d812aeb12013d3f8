/**
 * The report as the benchmark's official output lays it out, one column per model, with the
 * protocol that produced the numbers named above them.
 */
import type { BenchmarkId, Report } from '../../core';
import { useBench } from '../store';
import { ChroniclesReport } from './ChroniclesReport';
import { CorrectedScore } from './CorrectedScore';
import { Exports } from './Exports';
import { formatOptions } from './format';
import { GansuReport } from './GansuReport';
import { GenericReport } from './GenericReport';
import { LtbReport } from './LtbReport';
import { PulseReport } from './PulseReport';
import { TabenchReport } from './TabenchReport';

const VIEWS: Record<BenchmarkId, (p: { report: Report }) => React.ReactNode> = {
  ltb: LtbReport,
  chronicles: ChroniclesReport,
  tabench: TabenchReport,
  gansulishuzhi: GansuReport,
  'pulsebench-select': PulseReport,
};

export function ReportView() {
  const report = useBench((s) => s.report);
  const elapsed = useBench((s) => s.elapsedMs);
  const stale = useBench((s) => s.scoring);
  if (!report) return null;
  const View = VIEWS[report.benchmark] ?? GenericReport;
  const n = Object.keys(report.models).length;
  return (
    <section className={stale ? 'report stale' : 'report'} aria-label="Report" aria-busy={stale}>
      <header className="report-head">
        <h2>Report</h2>
        <p className="protocol-line" data-testid="report-protocol">
          Protocol <strong>{report.protocol.name}</strong> ({formatOptions(report.protocol.options)}) · {n} model{n === 1 ? '' : 's'} ·{' '}
          {report.dataset.cases} cases
          {elapsed !== null ? ` · scored in ${(elapsed / 1000).toFixed(2)} s` : ''}
        </p>
        <Exports />
      </header>
      <View report={report} />
      <CorrectedScore />
      <details className="all-metrics">
        <summary>All metric keys (as in report.json)</summary>
        <GenericReport report={report} progressive />
      </details>
    </section>
  );
}
