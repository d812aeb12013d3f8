import type { Report } from '../../core';
import { formatMetric } from './format';
import type { UncertaintyBlockView } from './uncertainty/block';
import { intervalTitle } from './uncertainty/intervals';
import { useIntervals } from './uncertainty/context';

/**
 * One number of the report: formatted for reading, exact in the tooltip. Its interval (when the
 * uncertainty block has one) is in `data-ci`, which the report's IntervalPopover shows on hover,
 * so the cell's text and title stay the number alone; `aria-description` reads it out.
 *
 * `intervals`: another block than the report's (the corrected-GT table's own; null: none yet).
 * `kind` and `changed` mark a cell of that table (`changed`: differs from the official number,
 * shown bold).
 */
export function MetricCell({
  report,
  model,
  metric,
  decimals,
  intervals,
  kind,
  changed,
}: {
  report: Report;
  model: string;
  metric: string;
  decimals?: number;
  intervals?: UncertaintyBlockView | null;
  kind?: string;
  changed?: boolean;
}) {
  const v = report.models[model]?.metrics[metric];
  const reportIntervals = useIntervals();
  const ci = intervalTitle(intervals === undefined ? reportIntervals : intervals, model, metric, decimals) ?? undefined;
  const text = formatMetric(metric, v, decimals);
  return (
    <td
      className={ci ? 'num has-ci' : 'num'}
      title={v === undefined ? `${metric}: not reported` : `${metric} = ${String(v)}`}
      data-model={model}
      data-key={metric}
      data-kind={kind}
      data-changed={changed}
      data-ci={ci}
      aria-description={ci}
    >
      {changed ? <strong>{text}</strong> : text}
    </td>
  );
}
