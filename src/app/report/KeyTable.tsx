/** A table with one row per metric and one column per model (the layout most official sheets use). */
import { memo } from 'react';
import type { Report } from '../../core';
import { MetricCell } from './MetricCell';
import { GroupSize } from './uncertainty/GroupSize';
import { groupOfKey } from './uncertainty/intervals';
import { useIntervals } from './uncertainty/context';

export interface KeyRow {
  label: string;
  key: string;
}

/** Memoised: the progressive "all metric keys" list re-renders its parent once per group. */
export const KeyTable = memo(function KeyTable({ report, rows, caption, decimals }: { report: Report; rows: KeyRow[]; caption?: string; decimals?: number }) {
  const models = Object.keys(report.models);
  const present = rows.filter((r) => models.some((m) => r.key in report.models[m].metrics));
  const block = useIntervals();
  if (present.length === 0) return null;
  // A table whose numbers are all of one group (TABench's dataset-wide table) names its size once,
  // in the caption; else each row of a group says it (Chronicles' ancient / modern rows).
  const groups = new Set(present.map((r) => groupOfKey(block, r.key)?.id));
  const oneGroup = groups.size === 1 && !groups.has(undefined);
  return (
    <table className="metrics">
      {caption && (
        <caption>
          {caption}
          {oneGroup && <GroupSize metricKey={present[0].key} orAll />}
        </caption>
      )}
      <thead>
        <tr>
          <th scope="col">metric</th>
          {models.map((m) => (
            <th key={m} scope="col">
              <bdi>{m}</bdi>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {present.map((r) => (
          <tr key={r.key}>
            <th scope="row" title={r.key}>
              {r.label}
              {!oneGroup && <GroupSize metricKey={r.key} />}
            </th>
            {models.map((m) => (
              <MetricCell key={m} report={report} model={m} metric={r.key} decimals={decimals} />
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
});
