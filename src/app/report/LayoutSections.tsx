/**
 * The tables of a report layout (src/core/reportLayout.ts): metric rows × models, a grid of rows ×
 * columns per model, and a table the dataset ships (leaderboard). Every number cell is a
 * MetricCell (data-model / data-key, exact value in the title).
 */
import { useEffect, useState } from 'react';
import type { Report, ReportSection } from '../../core';
import { countsText, emptyRowCounts, gridCaption, gridKey, gridRows } from '../../core/reportLayout';
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
  const cell = (m: string, r: string, c: string) => <MetricCell key={`${m}-${c}`} report={report} model={m} metric={gridKey(section, r, c)} decimals={section.decimals} />;
  // The cells of one row for the models `ms`. A row that measures nothing (emptyRow) says so once:
  // one cell over its columns for a model, or over the whole row when no model has data there.
  const rowCells = (ms: readonly string[], r: string) => {
    const spans = ms.map((m) => emptyRun(section, report.models[m]?.metrics, r));
    if (spans.every((e) => e?.all)) {
      return [<EmptyCell key="empty" report={report} models={ms} metrics={section.columns.map((c) => gridKey(section, r, c.key))} counts={spans[0]!.counts} span={ms.length * section.columns.length} />];
    }
    return ms.flatMap((m, mi) => {
      const e = spans[mi];
      if (!e) return section.columns.map((c) => cell(m, r, c.key));
      return section.columns.flatMap((c, ci) => {
        if (ci < e.from || ci >= e.from + e.length) return [cell(m, r, c.key)];
        if (ci > e.from) return [];
        const metrics = section.columns.slice(e.from, e.from + e.length).map((x) => gridKey(section, r, x.key));
        return [<EmptyCell key={`${m}-${c.key}`} report={report} models={[m]} metrics={metrics} counts={e.counts} span={e.length} />];
      });
    });
  };
  // The rows, each with the cells of `ms` (one model per table, or all of them in column groups).
  const body = (ms: readonly string[]) => (
    <tbody>
      {rows.map((r) => (
        <tr key={r.key} className={r.summary ? 'summary-row' : undefined}>
          {rowHead(r)}
          {rowCells(ms, r.key)}
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

/**
 * Where a model's row measures nothing (emptyRow counts all 0): the run of its empty columns
 * (contiguous in every layout so far; the first run when not), and whether it is the whole row.
 */
export function emptyRun(section: Grid, metrics: Readonly<Record<string, number>> | undefined, row: string): { from: number; length: number; all: boolean; counts: Record<string, number> } | null {
  const cols = section.emptyRow?.columns;
  const counts = cols ? emptyRowCounts(section, metrics, row) : null;
  if (!cols || !counts) return null;
  const from = section.columns.findIndex((c) => cols.includes(c.key));
  if (from < 0) return null;
  let length = 0;
  while (from + length < section.columns.length && cols.includes(section.columns[from + length].key)) length++;
  return { from, length, all: from === 0 && length === section.columns.length, counts };
}

/**
 * "no data (gt 0, pred 0)" once for a row (or a model's part of it) that measures nothing; the
 * official values (kept in report.json) in the tooltip. `data-key` is the first metric it covers.
 */
function EmptyCell({ report, models, metrics, counts, span }: { report: Report; models: readonly string[]; metrics: readonly string[]; counts: Record<string, number>; span: number }) {
  const what = countsText(counts);
  const official = models
    .map((m) => `${models.length > 1 ? `${m}: ` : ''}${metrics.map((k) => `${k} = ${String(report.models[m]?.metrics[k])}`).join(', ')}`)
    .join('; ');
  return (
    <td
      className="num muted empty-row"
      colSpan={span}
      data-model={models.join(',')}
      data-key={metrics[0]}
      data-empty="true"
      title={`${official} (official; this row has ${what}: nothing to measure, so the page shows no number)`}
    >
      no data <span className="small">({what})</span>
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
