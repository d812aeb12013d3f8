import type { Report } from '../../core';
import { formatMetric } from './format';

/** One number of the report: formatted for reading, exact in the tooltip. */
export function MetricCell({ report, model, metric, decimals }: { report: Report; model: string; metric: string; decimals?: number }) {
  const v = report.models[model]?.metrics[metric];
  return (
    <td className="num" title={v === undefined ? `${metric}: not reported` : `${metric} = ${String(v)}`} data-model={model} data-key={metric}>
      {formatMetric(metric, v, decimals)}
    </td>
  );
}
