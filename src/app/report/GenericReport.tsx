/** Any metric keys, grouped by their first segment — the fallback when no sheet layout applies. */
import { useEffect, useMemo, useState } from 'react';
import type { Report } from '../../core';
import { KeyTable, type KeyRow } from './KeyTable';

/**
 * `progressive`: render one group per task after the first (for the collapsed "all metric keys"
 * copy under a benchmark's own layout — hundreds of rows for LTB, which would otherwise hold the
 * main thread in one long task right when the report appears).
 */
export function GenericReport({ report, progressive = false }: { report: Report; progressive?: boolean }) {
  const [shown, setShown] = useState({ report, groups: progressive ? 1 : Infinity });
  const limit = shown.report === report ? shown.groups : progressive ? 1 : Infinity;
  // Built once per report, and KeyTable is memoised on these rows: each progressive step then
  // renders only its new group rather than every group again.
  const groups = useMemo(() => metricGroups(report), [report]);
  const total = groups.length;
  useEffect(() => {
    if (limit >= total) return;
    const t = setTimeout(() => setShown({ report, groups: limit + 1 }), 0);
    return () => clearTimeout(t);
  }, [report, limit, total]);
  return (
    <div className="report-body">
      {groups.slice(0, limit).map(({ group, rows }) => (
        <KeyTable key={group} report={report} caption={group || undefined} rows={rows} />
      ))}
    </div>
  );
}

/** Metric keys of every model grouped by their first segment, in first-seen order. */
function metricGroups(report: Report): { group: string; rows: KeyRow[] }[] {
  const keys = [...new Set(Object.values(report.models).flatMap((m) => Object.keys(m.metrics)))];
  const groups = new Map<string, KeyRow[]>();
  for (const k of keys) {
    const g = k.includes('/') ? k.slice(0, k.indexOf('/')) : '';
    const rows = groups.get(g);
    if (rows) rows.push({ key: k, label: k });
    else groups.set(g, [{ key: k, label: k }]);
  }
  return [...groups].map(([group, rows]) => ({ group, rows }));
}
