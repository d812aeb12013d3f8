/** Any metric keys, grouped by their first segment — the fallback when no sheet layout applies. */
import type { Report } from '../../core';
import { KeyTable } from './KeyTable';

export function GenericReport({ report }: { report: Report }) {
  const keys = [...new Set(Object.values(report.models).flatMap((m) => Object.keys(m.metrics)))];
  const groups = new Map<string, string[]>();
  for (const k of keys) {
    const g = k.includes('/') ? k.slice(0, k.indexOf('/')) : '';
    groups.set(g, [...(groups.get(g) ?? []), k]);
  }
  return (
    <div className="report-body">
      {[...groups.entries()].map(([g, ks]) => (
        <KeyTable key={g} report={report} caption={g || undefined} rows={ks.map((k) => ({ key: k, label: k }))} />
      ))}
    </div>
  );
}
