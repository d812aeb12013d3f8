/**
 * Chronicles-OCR as its summarize.py sheets show it: the per-group summary (Ancient / Modern) and
 * the per-script breakdown, round(100·v, 1). Detection is a diagnostic (not in the official sheet).
 */
import type { Report } from '../../core';
import { useFacetLookup, useSetFacet } from './facets';
import { KeyTable } from './KeyTable';
import { MetricCell } from './MetricCell';
import { BarChart } from './plots';

export const SCRIPTS = [
  { key: 'oracle_bone', zh: '甲骨文', en: 'Oracle bone' },
  { key: 'bronze', zh: '金文', en: 'Bronze' },
  { key: 'seal', zh: '篆书', en: 'Seal' },
  { key: 'clerical', zh: '隶书', en: 'Clerical' },
  { key: 'regular', zh: '楷书', en: 'Regular' },
  { key: 'running', zh: '行书', en: 'Running' },
  { key: 'cursive', zh: '草书', en: 'Cursive' },
];
const TASKS = ['spotting', 'recognition', 'parsing', 'classification'];

export function ChroniclesReport({ report }: { report: Report }) {
  const models = Object.keys(report.models);
  const lookup = useFacetLookup();
  const setFacet = useSetFacet();
  const group = [
    ...TASKS.map((t) => ({ label: `Ancient · ${t}`, key: `ancient/${t}` })),
    { label: 'Ancient · average', key: 'ancient/average' },
    { label: 'Modern · parsing', key: 'modern/parsing' },
    { label: 'Modern · classification', key: 'modern/classification' },
    { label: 'Modern · average', key: 'modern/average' },
  ];
  const rows = [...SCRIPTS.map((s) => ({ key: s.key, label: `${s.zh} ${s.en}` })), { key: 'all', label: 'all scripts' }];
  return (
    <div className="report-body">
      <KeyTable report={report} rows={group} caption="Per-group summary (× 100, one decimal as in the official sheet)" decimals={1} />
      {models.map((m) => (
        <table key={m} className="metrics">
          <caption>Per-script breakdown — {m}</caption>
          <thead>
            <tr>
              <th scope="col">script</th>
              {TASKS.map((t) => (
                <th key={t} scope="col">
                  {t}
                </th>
              ))}
              <th scope="col">average</th>
              <th scope="col" title="diagnostic: not in the official sheet">
                detection*
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} className={r.key === 'all' ? 'summary-row' : undefined}>
                <th scope="row">{r.label}</th>
                {[...TASKS, 'average', 'detection'].map((t) => (
                  <MetricCell key={t} report={report} model={m} metric={`${r.key}/${t}`} decimals={1} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ))}
      <div className="plots">
        <BarChart
          title="average per script (click to list its cases)"
          metric="x/average"
          groups={SCRIPTS.map((s) => ({ label: s.zh, facet: lookup(['script', 'font_type'], s.key) ?? lookup(['script', 'font_type'], s.zh) }))}
          series={models.map((m) => ({ name: m, values: SCRIPTS.map((s) => report.models[m].metrics[`${s.key}/average`]) }))}
          onSelect={setFacet}
        />
      </div>
    </div>
  );
}
