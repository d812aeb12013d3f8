/** TABench: R2T, T2R and Overall, then the same per category, source dataset and annotation level. */
import type { Report } from '../../core';
import { useFacetLookup, useSetFacet } from './facets';
import { groupValues, KeyTable } from './KeyTable';
import { MetricCell } from './MetricCell';
import { BarChart } from './plots';

const MAIN = [
  { label: 'R2T accuracy', key: 'r2t/accuracy' },
  { label: 'R2T CER', key: 'r2t/cer' },
  { label: 'R2T queries', key: 'r2t/n' },
  { label: 'T2R precision', key: 't2r/precision' },
  { label: 'T2R recall', key: 't2r/recall' },
  { label: 'T2R F1', key: 't2r/f1' },
  { label: 'T2R QSR@1', key: 't2r/qsr@1' },
  { label: 'T2R QSR@3', key: 't2r/qsr@3' },
  { label: 'T2R QSR@5', key: 't2r/qsr@5' },
  { label: 'T2R TP', key: 't2r/tp' },
  { label: 'T2R FP', key: 't2r/fp' },
  { label: 'T2R FN', key: 't2r/fn' },
  { label: 'T2R queries', key: 't2r/n' },
  { label: 'Overall', key: 'overall' },
];
const GROUP_COLS = [
  { m: 'r2t/accuracy', label: 'R2T acc' },
  { m: 't2r/f1', label: 'T2R F1' },
  { m: 'overall', label: 'Overall' },
];
const GROUPINGS = [
  { prefix: 'category', title: 'per category', facets: ['category'] },
  { prefix: 'source', title: 'per source dataset', facets: ['source_dataset', 'source'] },
  { prefix: 'level', title: 'per annotation level', facets: ['annotation_level', 'level'] },
];

export function TabenchReport({ report }: { report: Report }) {
  const models = Object.keys(report.models);
  const lookup = useFacetLookup();
  const setFacet = useSetFacet();
  const categories = groupValues(report, 'category');
  return (
    <div className="report-body">
      <KeyTable report={report} rows={MAIN} caption="R2T / T2R / Overall (× 100)" />
      {GROUPINGS.map((g) => {
        const values = groupValues(report, g.prefix);
        if (values.length === 0) return null;
        return (
          <table key={g.prefix} className="metrics">
            <caption>{g.title}</caption>
            <thead>
              <tr>
                <th rowSpan={2} scope="col">
                  {g.prefix}
                </th>
                {models.map((m) => (
                  <th key={m} colSpan={GROUP_COLS.length} scope="colgroup">
                    {m}
                  </th>
                ))}
              </tr>
              <tr>
                {models.flatMap((m) =>
                  GROUP_COLS.map((c) => (
                    <th key={`${m}-${c.m}`} className="sub" scope="col">
                      {c.label}
                    </th>
                  )),
                )}
              </tr>
            </thead>
            <tbody>
              {values.map((v) => (
                <tr key={v}>
                  <th scope="row">{v}</th>
                  {models.flatMap((m) => GROUP_COLS.map((c) => <MetricCell key={`${m}-${c.m}`} report={report} model={m} metric={`${g.prefix}/${v}/${c.m}`} />))}
                </tr>
              ))}
            </tbody>
          </table>
        );
      })}
      {categories.length > 0 && (
        <div className="plots">
          <BarChart
            title="Overall per category (click to list its cases)"
            metric="x/overall"
            groups={categories.map((c) => ({ label: c, facet: lookup(['category'], c) }))}
            series={models.map((m) => ({ name: m, values: categories.map((c) => report.models[m].metrics[`category/${c}/overall`]) }))}
            onSelect={setFacet}
          />
        </div>
      )}
    </div>
  );
}
