/**
 * The tables of a report layout (src/core/reportLayout.ts): metric rows × models, a grid of rows ×
 * columns per model, and a table the dataset ships (leaderboard). Every number cell is a
 * MetricCell (data-model / data-key, exact value in the title).
 */
import { useEffect, useState } from 'react';
import type { Report, ReportSection } from '../../core';
import { emptyRowCounts, gridCaption, gridKey, gridRows } from '../../core/reportLayout';
import { scoringClient } from '../../worker/client';
import { useBench } from '../store';
import { formatMetric } from './format';
import { KeyTable } from './KeyTable';
import { MetricCell } from './MetricCell';
import { useFacetLookup, useListCases, useSetFacet } from './facets';
import { GroupSize } from './uncertainty/GroupSize';
import { intervalTitle } from './uncertainty/intervals';
import { useIntervals } from './uncertainty/context';

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
  const lookup = useFacetLookup();
  const setFacet = useSetFacet();
  const listCases = useListCases();
  const models = Object.keys(report.models);
  const rows = gridRows(section, report);
  if (rows.length === 0) return null;
  const caption = gridCaption(section, report);
  const rowFacet = (r: (typeof rows)[number]) =>
    section.rowFacets ? [r.key, ...(r.facetValues ?? [])].map((v) => lookup(section.rowFacets!, v)).find((f) => f !== undefined) : undefined;
  const rowHead = (r: (typeof rows)[number]) => (
    <th scope="row" title={r.title}>
      <RowName label={r.label} facet={rowFacet(r)} onPick={setFacet} />
      {section.columns.length > 0 && <GroupSize metricKey={gridKey(section, r.key, section.columns[0].key)} />}
    </th>
  );
  // A click on a number lists that model's cases of its row (and column, where the column is a
  // facet value too), as model A, other filters cleared: the cell's own cases in the workspace.
  const cellFilters = new Map<string, { key: string; value: string }[]>();
  for (const r of rows) {
    const rf = rowFacet(r);
    for (const c of section.columns) {
      const cf = section.columnFacets ? [c.key, ...(c.facetValues ?? [])].map((v) => lookup(section.columnFacets!, v)).find((f) => f !== undefined) : undefined;
      const fs = [rf, cf].filter((f): f is { key: string; value: string } => f !== undefined);
      if (fs.length > 0) cellFilters.set(gridKey(section, r.key, c.key), fs);
    }
  }
  const onCellClick = (e: React.MouseEvent) => {
    const td = (e.target as HTMLElement).closest('td[data-model][data-key]');
    const fs = td ? cellFilters.get(td.getAttribute('data-key')!) : undefined;
    if (!td || !fs || td.hasAttribute('data-empty')) return;
    const model = td.getAttribute('data-model')!;
    listCases(() => {
      const st = useBench.getState();
      st.clearCaseFilters();
      const b = st.caseQuery.models.b;
      st.setModels(model, b === model ? st.caseQuery.models.a : b);
      for (const f of fs) st.setFacetFilter(f.key, f.value);
    });
  };
  const tableClass = cellFilters.size > 0 ? 'metrics cells-link' : 'metrics';
  const cell = (m: string, r: string, c: string) => {
    const metric = gridKey(section, r, c);
    const empty = section.emptyRow?.columns.includes(c) ? emptyRowCounts(section, report.models[m]?.metrics, r) : null;
    return empty ? <EmptyCell key={`${m}-${c}`} report={report} model={m} metric={metric} counts={empty} /> : <MetricCell key={`${m}-${c}`} report={report} model={m} metric={metric} decimals={section.decimals} />;
  };
  // The rows, each with the cells of `ms` (one model per table, or all of them in column groups).
  const body = (ms: readonly string[]) => (
    <tbody>
      {rows.map((r) => (
        <tr key={r.key} className={r.summary ? 'summary-row' : undefined}>
          {rowHead(r)}
          {ms.flatMap((m) => section.columns.map((c) => cell(m, r.key, c.key)))}
        </tr>
      ))}
    </tbody>
  );
  if (section.perModel === 'table') {
    return (
      <>
        {models.map((m) => (
          <table key={m} className={tableClass} onClick={onCellClick}>
            <caption>
              {caption.split('{model}').map((part, i) => (i === 0 ? part : [<bdi key={i}>{m}</bdi>, part]))}
            </caption>
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
            {body([m])}
          </table>
        ))}
      </>
    );
  }
  return (
    <table className={tableClass} onClick={onCellClick}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th rowSpan={2} scope="col">
            {section.corner}
          </th>
          {models.map((m) => (
            <th key={m} colSpan={section.columns.length} scope="colgroup">
              <bdi>{m}</bdi>
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
      {body(models)}
    </table>
  );
}

/** A row's name: a button that lists its cases in the workspace when the case table has that facet. */
function RowName({ label, facet, onPick }: { label: string; facet: { key: string; value: string } | undefined; onPick(f: { key: string; value: string }): void }) {
  if (!facet) return <>{label}</>;
  return (
    <button type="button" className="link" data-testid="split-cases" data-facet-value={facet.value} title={`List the ${facet.key} = ${facet.value} cases in the workspace`} onClick={() => onPick(facet)}>
      {label}
    </button>
  );
}

/** "—" for a row that measures nothing (e.g. gt 0, pred 0); the official value (kept in report.json) in the tooltip. */
function EmptyCell({ report, model, metric, counts }: { report: Report; model: string; metric: string; counts: Record<string, number> }) {
  const v = report.models[model]?.metrics[metric];
  const what = Object.entries(counts)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return (
    <td className="num muted" data-model={model} data-key={metric} data-empty="true" title={`${metric} = ${String(v)} (official; this row has ${what}, so the page shows —)`}>
      — <span className="small">({what})</span>
    </td>
  );
}

/** The dataset's own table (the worker's getLeaderboard), your models first. */
function LeaderboardSection({ report, section }: { report: Report; section: Extract<ReportSection, { kind: 'leaderboard' }> }) {
  const version = useBench((s) => s.resultVersion);
  const block = useIntervals();
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
            <th scope="row">
              <bdi>{m}</bdi> (yours)
            </th>
            {section.columns.map((b) => {
              const v = report.models[m].metrics[b.key];
              // Your models' numbers carry their intervals like every report cell (the board's have none).
              const ci = intervalTitle(block, m, b.key) ?? undefined;
              return (
                <td key={b.col} className="num" title={String(v)} data-ci={ci} aria-description={ci}>
                  {formatMetric(b.key, v)}
                </td>
              );
            })}
          </tr>
        ))}
        {board.map((row, i) => (
          <tr key={i}>
            <th scope="row">
              <bdi>{String(row.provider ?? row.model ?? `row ${i + 1}`)}</bdi>
            </th>
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
