/**
 * The tables of a report layout (src/core/reportLayout.ts): metric rows × models, a grid of rows ×
 * columns per model, and a table the dataset ships (leaderboard). Every number cell is a
 * MetricCell (data-model / data-key, exact value in the title).
 */
import { useEffect, useState } from 'react';
import type { Report, ReportSection } from '../../core';
import { gridCaption, gridKey, gridRows } from '../../core/reportLayout';
import { scoringClient } from '../../worker/client';
import { useBench } from '../store';
import { formatMetric } from './format';
import { KeyTable } from './KeyTable';
import { MetricCell } from './MetricCell';

export function LayoutSection({ report, section }: { report: Report; section: ReportSection }) {
  switch (section.kind) {
    case 'keys':
      return <KeyTable report={report} rows={section.rows} caption={section.caption} decimals={section.decimals} />;
    case 'grid':
      return <GridSection report={report} section={section} />;
    case 'leaderboard':
      return <LeaderboardSection report={report} section={section} />;
  }
}

type Grid = Extract<ReportSection, { kind: 'grid' }>;

function GridSection({ report, section }: { report: Report; section: Grid }) {
  const models = Object.keys(report.models);
  const rows = gridRows(section, report);
  if (rows.length === 0) return null;
  const caption = gridCaption(section, report);
  const rowHead = (r: (typeof rows)[number]) => (
    <th scope="row" title={r.title}>
      {r.label}
    </th>
  );
  if (section.perModel === 'table') {
    return (
      <>
        {models.map((m) => (
          <table key={m} className="metrics">
            <caption>{caption.replace('{model}', m)}</caption>
            <thead>
              <tr>
                <th scope="col">{section.corner}</th>
                {section.columns.map((c) => (
                  <th key={c.key} scope="col" title={c.title}>
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.key} className={r.summary ? 'summary-row' : undefined}>
                  {rowHead(r)}
                  {section.columns.map((c) => (
                    <MetricCell key={c.key} report={report} model={m} metric={gridKey(section, r.key, c.key)} decimals={section.decimals} />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      </>
    );
  }
  return (
    <table className="metrics">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th rowSpan={2} scope="col">
            {section.corner}
          </th>
          {models.map((m) => (
            <th key={m} colSpan={section.columns.length} scope="colgroup">
              {m}
            </th>
          ))}
        </tr>
        <tr>
          {models.flatMap((m) =>
            section.columns.map((c) => (
              <th key={`${m}-${c.key}`} scope="col" className="sub" title={c.title}>
                {c.label}
              </th>
            )),
          )}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} className={r.summary ? 'summary-row' : undefined}>
            {rowHead(r)}
            {models.flatMap((m) => section.columns.map((c) => <MetricCell key={`${m}-${c.key}`} report={report} model={m} metric={gridKey(section, r.key, c.key)} decimals={section.decimals} />))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The dataset's own table (the worker's getLeaderboard), your models first. */
function LeaderboardSection({ report, section }: { report: Report; section: Extract<ReportSection, { kind: 'leaderboard' }> }) {
  const version = useBench((s) => s.resultVersion);
  const [board, setBoard] = useState<Record<string, unknown>[] | null>(null);
  useEffect(() => {
    let live = true;
    scoringClient()
      .getLeaderboard()
      .then((b) => live && setBoard(b))
      .catch(() => live && setBoard(null));
    return () => {
      live = false;
    };
  }, [version]);
  if (!board || board.length === 0) return null;
  const models = Object.keys(report.models);
  return (
    <table className="metrics">
      <caption>{section.caption}</caption>
      <thead>
        <tr>
          <th scope="col">provider</th>
          {section.columns.map((b) => (
            <th key={b.col} scope="col">
              {b.col}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {models.map((m) => (
          <tr key={`mine-${m}`} className="summary-row">
            <th scope="row">{m} (yours)</th>
            {section.columns.map((b) => {
              const v = report.models[m].metrics[b.key];
              return (
                <td key={b.col} className="num" title={String(v)}>
                  {formatMetric(b.key, v)}
                </td>
              );
            })}
          </tr>
        ))}
        {board.map((row, i) => (
          <tr key={i}>
            <th scope="row">{String(row.provider ?? row.model ?? `row ${i + 1}`)}</th>
            {section.columns.map((b) => {
              const v = row[b.col];
              return (
                <td key={b.col} className="num" title={String(v)}>
                  {typeof v === 'number' ? formatMetric(b.key, v) : String(v ?? '—')}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
