import type { Report } from '../../core';
import { formatMetric } from './format';
import { intervalTitle } from './uncertainty/intervals';
import { useIntervals } from './uncertainty/context';

/**
 * One number of the report: formatted for reading, exact in the tooltip. Its interval (when the
 * uncertainty block has one) is in `data-ci`, which the report's IntervalPopover shows on hover,
 * so the cell's text and title stay the number alone; `aria-description` reads it out.
 */
export function MetricCell({ report, model, metric, decimals }: { report: Report; model: string; metric: string; decimals?: number }) {
  const v = report.models[model]?.metrics[metric];
  const ci = intervalTitle(useIntervals(), model, metric, decimals) ?? undefined;
  return (
    <td
      className={ci ? 'num has-ci' : 'num'}
      title={v === undefined ? `${metric}: not reported` : `${metric} = ${String(v)}`}
      data-model={model}
      data-key={metric}
      data-ci={ci}
      aria-description={ci}
    >
      {formatMetric(metric, v, decimals)}
    </td>
  );
}
