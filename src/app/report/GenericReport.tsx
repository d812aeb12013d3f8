/** Any metric keys, grouped by their first segment — the fallback when no sheet layout applies. */
import { useEffect, useState } from 'react';
import type { Report } from '../../core';
import { KeyTable } from './KeyTable';

/**
 * `progressive`: render one group per task after the first (for the collapsed "all metric keys"
 * copy under a benchmark's own layout — hundreds of rows for LTB, which would otherwise hold the
 * main thread in one long task right when the report appears).
 */
export function GenericReport({ report, progressive = false }: { report: Report; progressive?: boolean }) {
  const [shown, setShown] = useState({ report, groups: progressive ? 1 : Infinity });
  const limit = shown.report === report ? shown.groups : progressive ? 1 : Infinity;
  const keys = [...new Set(Object.values(report.models).flatMap((m) => Object.keys(m.metrics)))];
  const groups = new Map<string, string[]>();
  for (const k of keys) {
    const g = k.includes('/') ? k.slice(0, k.indexOf('/')) : '';
    groups.set(g, [...(groups.get(g) ?? []), k]);
  }
  const total = groups.size;
  useEffect(() => {
    if (limit >= total) return;
    const t = setTimeout(() => setShown({ report, groups: limit + 1 }), 0);
    return () => clearTimeout(t);
  }, [report, limit, total]);
  return (
    <div className="report-body">
      {[...groups.entries()].slice(0, limit).map(([g, ks]) => (
        <KeyTable key={g} report={report} caption={g || undefined} rows={ks.map((k) => ({ key: k, label: k }))} />
      ))}
    </div>
  );
}
