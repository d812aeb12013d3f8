/**
 * The plots of a report layout: bars per group (clickable → that facet of the case list), the
 * metric against a swept threshold for the selected unit (clickable points), and the
 * distribution of per-case scores (clickable bins → those cases).
 */
import type { OptionValue, PlotSpec, Report } from '../../core';
import { countsText, emptyGroupCounts, fillKey, resolveRows, type LayoutItem } from '../../core/reportLayout';
import type { Series } from './plots';
import { setOptions } from './setOptions';
import { useBench } from '../store';
import { useFacetLookup, useListCases, useSetFacet } from './facets';
import { BarChart, LineChart } from './plots';
import { ScoreHistogram } from './ScoreHistogram';
import { useIntervals } from './uncertainty/context';
import { intervalOf, levelText, prefixGroupOfKey, SMALL_GROUP } from './uncertainty/intervals';

export function LayoutPlot({ report, plot, unit, unitLabel }: { report: Report; plot: PlotSpec; unit: string | null; unitLabel: string }) {
  const lookup = useFacetLookup();
  const setFacet = useSetFacet();
  const block = useIntervals();
  const models = Object.keys(report.models);
  switch (plot.kind) {
    case 'bars': {
      const groups = resolveRows(plot.groups, report);
      const values = (m: string) => groups.map((g) => report.models[m].metrics[fillKey(plot.metric, { group: g.key })]);
      const shown = groups.filter((_, gi) => models.some((m) => values(m)[gi] !== undefined));
      if (shown.length === 0) return null;
      const keys = plot.facetKeys ?? [];
      return (
        <BarChart
          title={plot.title}
          metric={fillKey(plot.metric, { group: shown[0].key })}
          groups={shown.map((g) => ({ label: g.label, facet: keys.length ? [g.key, ...(g.facetValues ?? [])].map((v) => lookup(keys, v)).find(Boolean) : undefined }))}
          note={smallGroupsNote(shown.map((g) => ({ label: g.label, units: prefixGroupOfKey(block, fillKey(plot.metric, { group: g.key }))?.units })))}
          series={models.map((m) => {
            const s = barSeries(plot, m, report.models[m].metrics, shown);
            // No whisker where the group has no data (its value is not drawn either).
            const intervals = shown.map((g, i) => (s.noData?.[i] !== undefined ? undefined : intervalOf(block, m, fillKey(plot.metric, { group: g.key }))));
            return { ...s, intervals, intervalLabel: block ? `${levelText(block.level)} interval` : undefined };
          })}
          onSelect={keys.length ? setFacet : undefined}
        />
      );
    }
    case 'curve':
      if (!unit) return null;
      return <CurvePlot report={report} plot={plot} unit={unit} unitLabel={unitLabel} />;
    case 'score-histogram':
      return <ScoreHistogram title={plot.title} scoreLabel={plot.scoreLabel} bins={plot.bins} />;
  }
}

/** "n < 30 (rough intervals): Blurred, Glass" — or "every group" when all are small; undefined when none is. */
function smallGroupsNote(groups: { label: string; units: number | undefined }[]): string | undefined {
  const small = groups.filter((g) => g.units !== undefined && g.units < SMALL_GROUP);
  if (small.length === 0) return undefined;
  const which = small.length === groups.length ? 'every group' : small.map((g) => g.label).join(', ');
  return `n < ${SMALL_GROUP} (rough intervals): ${which}`;
}

function CurvePlot({ report, plot, unit, unitLabel }: { report: Report; plot: Extract<PlotSpec, { kind: 'curve' }>; unit: string; unitLabel: string }) {
  const models = Object.keys(report.models);
  const setModels = useBench((s) => s.setModels);
  const caseB = useBench((s) => s.caseQuery.models.b);
  const listCases = useListCases();
  const values = (m: string) => plot.xs.map((x) => report.models[m].metrics[fillKey(plot.metric, { unit, x: x.toFixed(1) })]);
  if (!models.some((m) => values(m).some((v) => v !== undefined))) return null;
  const option = plot.pointOption;
  // A point is one model at one threshold of this unit: it opens that unit's cases at that
  // threshold (LTB: case_split and case_threshold, options that change no metric) with the
  // model as A. At the model's best threshold (marked white) the cases carry the classes the
  // class bars count.
  const onPoint = option
    ? (si: number, xi: number) => {
        const m = models[si];
        const change: Record<string, OptionValue | null> = { [option]: unit };
        if (plot.pointXOption) change[plot.pointXOption] = plot.xs[xi];
        void setOptions(change).then(() => listCases(() => setModels(m, caseB !== m ? caseB : null)));
      }
    : undefined;
  return (
    <LineChart
      title={`${unitLabel}: ${plot.title}`}
      metric={fillKey(plot.metric, { unit, x: '0.5' })}
      xs={plot.xs}
      series={models.map((m) => ({ name: m, values: values(m) }))}
      marks={models.map((m) => {
        const best = plot.best ? report.models[m].metrics[fillKey(plot.best, { unit })] : undefined;
        return best === undefined ? undefined : plot.xs.findIndex((t) => Math.abs(t - best) < 1e-6);
      })}
      onPoint={onPoint}
      pointHint={`list this ${unitLabel}'s cases at this threshold`}
    />
  );
}

/**
 * One model's bars. A group that measures nothing (its `emptyGroup` counts all 0: LTB gt 0,
 * pred 0) has no bar but a "no data" note, as the table's "—": the official value there (MMOCR's
 * 100 for an empty split) is no score of the model.
 */
export function barSeries(plot: Extract<PlotSpec, { kind: 'bars' }>, model: string, metrics: Readonly<Record<string, number>>, groups: readonly LayoutItem[]): Series {
  const noData = groups.map((g) => {
    const counts = emptyGroupCounts(plot, metrics, g.key);
    return counts ? countsText(counts) : undefined;
  });
  return {
    name: model,
    values: groups.map((g, i) => (noData[i] !== undefined ? undefined : metrics[fillKey(plot.metric, { group: g.key })])),
    ...(noData.some((n) => n !== undefined) ? { noData } : {}),
  };
}
