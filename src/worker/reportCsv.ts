/**
 * The report table as CSV (RFC 4180 quoting): one row per metric key, one column per model, full
 * precision. Benchmark and protocol repeat on every row so the table stays rectangular and a row
 * copied elsewhere still says which protocol produced it.
 *
 * Model names and metric keys come from user files, and a spreadsheet runs a cell that starts
 * with `=`, `+`, `-`, `@`, a tab or a carriage return as a formula (CSV injection). Such text
 * cells get a leading `'` (OWASP's advice), which spreadsheets show as text. Metric values are
 * numbers written by String(number) and stay as they are, so a negative value (a dHmean) is still
 * a number in the spreadsheet.
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
  const rows: Cell[][] = [['benchmark', 'protocol', 'options', 'metric', ...models]];
  for (const k of keys) {
    rows.push([r.benchmark, r.protocol.name, options, k, ...models.map((m) => (k in r.models[m].metrics ? numberCell(r.models[m].metrics[k]) : ''))]);
  }
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** A metric value: marked so that csvCell leaves it alone (String(number) is never a formula). */
const NUMBER = Symbol('number');
type Cell = string | { [NUMBER]: string };

function numberCell(v: number): Cell {
  return { [NUMBER]: String(v) };
}

const FORMULA_START = /^[=+\-@\t\r]/;

function csvCell(c: Cell): string {
  if (typeof c !== 'string') return c[NUMBER];
  const v = FORMULA_START.test(c) ? `'${c}` : c;
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}
