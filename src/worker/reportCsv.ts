/**
 * The report table as CSV (RFC 4180 quoting): one row per metric key, one column per model, full
 * precision. Benchmark and protocol repeat on every row so the table stays rectangular and a row
 * copied elsewhere still says which protocol produced it.
 */
import type { Report } from '../core';

export function reportCsv(r: Report): string {
  const models = Object.keys(r.models);
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const m of models) {
    for (const k of Object.keys(r.models[m].metrics)) {
      if (!seen.has(k)) {
        seen.add(k);
        keys.push(k);
      }
    }
  }
  const options = JSON.stringify(r.protocol.options);
  const rows: string[][] = [['benchmark', 'protocol', 'options', 'metric', ...models]];
  for (const k of keys) {
    rows.push([r.benchmark, r.protocol.name, options, k, ...models.map((m) => (k in r.models[m].metrics ? String(r.models[m].metrics[k]) : ''))]);
  }
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

function csvCell(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}
