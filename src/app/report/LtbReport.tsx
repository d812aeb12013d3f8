/**
 * LTB as the paper's Table 4 reads it: the 13 challenge categories, Hard and Norm, each scored on
 * its own file at its own best threshold — hmean, precision, recall and that threshold per model.
 */
import { useState } from 'react';
import type { Report } from '../../core';
import { useFacetLookup, useSetFacet } from './facets';
import { MetricCell } from './MetricCell';
import { EMPTY_SPLIT_COLUMNS, emptySplit } from './emptySplit';

/** A split's row name: a button that lists its cases in the workspace when the case table has that facet. */
function SplitName({ label, facet, onPick }: { label: string; facet: { key: string; value: string } | undefined; onPick(f: { key: string; value: string }): void }) {
  if (!facet) return <>{label}</>;
  return (
    <button type="button" className="link" data-testid="split-cases" data-facet-value={facet.value} title={`List the ${facet.key} = ${facet.value} cases in the workspace`} onClick={() => onPick(facet)}>
      {label}
    </button>
  );
}

/** "—" for a split with gt 0 and pred 0; the official value (kept in report.json) in the tooltip. */
function EmptyCell({ report, model, metric }: { report: Report; model: string; metric: string }) {
  const v = report.models[model]?.metrics[metric];
  return (
    <td className="num muted" data-model={model} data-key={metric} data-empty="true" title={`${metric} = ${String(v)} (official; this split has gt 0, pred 0, so the page shows —)`}>
      — <span className="small">(gt 0, pred 0)</span>
    </td>
  );
}
import { BarChart, LineChart } from './plots';

export const LTB_SPLITS: { key: string; label: string }[] = [
  { key: 'blurred', label: 'Blurred' },
  { key: 'artistic', label: 'Artistic' },
  { key: 'glass', label: 'Glass' },
  { key: 'single_char', label: 'Single char' },
  { key: 'distorted', label: 'Distorted' },
  { key: 'inverse', label: 'Inverse' },
  { key: 'delimited', label: 'Delimited' },
  { key: 'dense', label: 'Dense' },
  { key: 'overlapped', label: 'Overlapped' },
  { key: 'occluded', label: 'Occluded' },
  { key: 'low_contrast', label: 'Low contrast' },
  { key: 'complex_bg', label: 'Complex bg' },
  { key: 'others', label: 'Others' },
  { key: 'hard', label: 'Hard' },
  { key: 'norm', label: 'Norm' },
];

const THRESHOLDS = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
const COLUMNS = [
  { m: 'hmean', label: 'H' },
  { m: 'precision', label: 'P' },
  { m: 'recall', label: 'R' },
  { m: 'threshold', label: 'thr' },
];
/** Facet keys the LTB cases may carry their challenge tags under. */
const CHALLENGE_FACETS = ['challenge', 'splits'];

export function LtbReport({ report }: { report: Report }) {
  const models = Object.keys(report.models);
  const splits = LTB_SPLITS.filter((s) => models.some((m) => `${s.key}/hmean` in report.models[m].metrics));
  const [plotSplit, setPlotSplit] = useState('hard');
  const lookup = useFacetLookup();
  const setFacet = useSetFacet();
  const pinned = report.protocol.options.score_thr;
  return (
    <div className="report-body">
      <table className="metrics ltb">
        <caption>
          hmean / precision / recall × 100 per split file, {pinned !== undefined && pinned !== '' ? `at the pinned score threshold ${String(pinned)}` : 'each at its own best score threshold (thr)'}
        </caption>
        <thead>
          <tr>
            <th rowSpan={2} scope="col">
              split
            </th>
            {models.map((m) => (
              <th key={m} colSpan={COLUMNS.length} scope="colgroup">
                <bdi>{m}</bdi>
              </th>
            ))}
          </tr>
          <tr>
            {models.flatMap((m) =>
              COLUMNS.map((c) => (
                <th key={`${m}-${c.m}`} scope="col" className="sub">
                  {c.label}
                </th>
              )),
            )}
          </tr>
        </thead>
        <tbody>
          {splits.map((s) => (
            <tr key={s.key} className={s.key === 'hard' || s.key === 'norm' ? 'summary-row' : undefined}>
              <th scope="row" title={`challenging_${s.key}.json`}>
                <SplitName label={s.label} facet={lookup(CHALLENGE_FACETS, s.key)} onPick={setFacet} />
              </th>
              {models.flatMap((m) => {
                const empty = emptySplit(report.models[m]?.metrics, s.key);
                return COLUMNS.map((c) =>
                  empty && EMPTY_SPLIT_COLUMNS.has(c.m) ? (
                    <EmptyCell key={`${m}-${c.m}`} report={report} model={m} metric={`${s.key}/${c.m}`} />
                  ) : (
                    <MetricCell key={`${m}-${c.m}`} report={report} model={m} metric={`${s.key}/${c.m}`} />
                  ),
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="plots">
        <BarChart
          title="hmean per split (click a category to list its cases)"
          metric="x/hmean"
          groups={splits.map((s) => ({ label: s.label, facet: lookup(CHALLENGE_FACETS, s.key) }))}
          series={models.map((m) => ({ name: m, values: splits.map((s) => report.models[m].metrics[`${s.key}/hmean`]) }))}
          onSelect={setFacet}
        />
        <div>
          <label className="inline">
            hmean vs score threshold for{' '}
            <select value={plotSplit} onChange={(e) => setPlotSplit(e.target.value)}>
              {splits.map((s) => (
                <option key={s.key} value={s.key}>
                  {s.label}
                </option>
              ))}
            </select>
          </label>
          <LineChart
            title={`${LTB_SPLITS.find((s) => s.key === plotSplit)?.label ?? plotSplit}: hmean at each threshold`}
            metric="x/hmean"
            xs={THRESHOLDS}
            series={models.map((m) => ({ name: m, values: THRESHOLDS.map((t) => report.models[m].metrics[`${plotSplit}/hmean@${t.toFixed(1)}`]) }))}
            marks={models.map((m) => {
              const thr = report.models[m].metrics[`${plotSplit}/threshold`];
              return thr === undefined ? undefined : THRESHOLDS.findIndex((t) => Math.abs(t - thr) < 1e-6);
            })}
          />
        </div>
      </div>
    </div>
  );
}
