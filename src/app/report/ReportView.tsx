/**
 * The report as the benchmark's official output lays it out, one column per model, with the
 * protocol that produced the numbers named above them. One view for every benchmark: the
 * adapter's report layout (src/core/reportLayout.ts, sent by the worker with the opened dataset)
 * says which tables, unit selector and plots there are.
 */
import { useRef, useState } from 'react';
import type { Report, ReportLayout } from '../../core';
import { presentUnits } from '../../core/reportLayout';
import { useBench } from '../store';
import { CorrectedScore } from './CorrectedScore';
import { ErrorBars } from './ErrorBars';
import { Exports } from './Exports';
import { formatOptions } from './format';
import { GenericReport } from './GenericReport';
import { LayoutPlot } from './LayoutPlots';
import { LayoutSection } from './LayoutSections';
import { Comparison } from './uncertainty/Comparison';
import { IntervalsContext } from './uncertainty/context';
import { IntervalPopover } from './uncertainty/IntervalPopover';
import { IntervalsStatus } from './uncertainty/IntervalsStatus';

export function ReportView() {
  const report = useBench((s) => s.report);
  const layout = useBench((s) => s.dataset?.reportLayout);
  const elapsed = useBench((s) => s.elapsedMs);
  const stale = useBench((s) => s.scoring);
  const intervals = useBench((s) => s.uncertainty);
  const section = useRef<HTMLElement>(null);
  if (!report) return null;
  const n = Object.keys(report.models).length;
  return (
    // The intervals reach every cell and plot through context (one subscription, not one per cell).
    <IntervalsContext value={intervals}>
      <section ref={section} className={stale ? 'report stale' : 'report'} aria-label="Report" aria-busy={stale}>
        <header className="report-head">
          <h2>Report</h2>
          <p className="protocol-line" data-testid="report-protocol">
            Protocol <strong>{report.protocol.name}</strong> ({formatOptions(report.protocol.options)}) · {n} model{n === 1 ? '' : 's'} ·{' '}
            {report.dataset.cases} cases
            {elapsed !== null ? ` · scored in ${(elapsed / 1000).toFixed(2)} s` : ''}
          </p>
          <IntervalsStatus />
          <Exports />
        </header>
        {layout ? (
          <LayoutReport report={report} layout={layout} />
        ) : (
          <>
            <GenericReport report={report} />
            <Comparison report={report} layout={layout} />
          </>
        )}
        <CorrectedScore headlines={layout?.headlines ?? []} />
        <details className="all-metrics">
          <summary>All metric keys (as in report.json)</summary>
          <GenericReport report={report} progressive />
        </details>
        <IntervalPopover container={section} />
      </section>
    </IntervalsContext>
  );
}

/** The layout's tables, then the unit selector with the diagnostics and the plots it drives. */
export function LayoutReport({ report, layout }: { report: Report; layout: ReportLayout }) {
  const units = presentUnits(layout, report);
  const [picked, setPicked] = useState<string | null>(null);
  const unit = units.find((u) => u.key === picked)?.key ?? units.find((u) => u.key === layout.units?.default)?.key ?? units[0]?.key ?? null;
  const unitLabel = layout.units?.label ?? '';
  return (
    <>
      <div className="report-body">
        {layout.sections.map((s, i) => (
          <LayoutSection key={i} report={report} section={s} />
        ))}
      </div>
      <Comparison report={report} layout={layout} />
      <div className="report-analysis">
        {units.length > 1 && (
          <label className="inline unit-select">
            {unitLabel}{' '}
            <select aria-label="Report unit" value={unit ?? ''} onChange={(e) => setPicked(e.target.value)}>
              {units.map((u) => (
                <option key={u.key} value={u.key}>
                  {u.label}
                </option>
              ))}
            </select>
          </label>
        )}
        <div className="plots">
          {unit && <ErrorBars report={report} layout={layout} unit={unit} unitLabel={unitLabel} />}
          {layout.plots.map((p, i) => (
            <LayoutPlot key={i} report={report} plot={p} unit={unit} unitLabel={units.find((u) => u.key === unit)?.label ?? unitLabel} />
          ))}
        </div>
      </div>
    </>
  );
}
