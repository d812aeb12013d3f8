/** gansulishuzhi: precision / recall / F1 of figure boxes at IoU 0.3, 0.5 and 0.7. */
import type { Report } from '../../core';
import { KeyTable } from './KeyTable';
import { BarChart } from './plots';

const IOUS = ['0.3', '0.5', '0.7'];
const PER = ['precision', 'recall', 'f1', 'mean_iou', 'tp', 'fp', 'fn'];

export function GansuReport({ report }: { report: Report }) {
  const models = Object.keys(report.models);
  const rows = [
    ...IOUS.flatMap((t) => PER.map((m) => ({ label: `IoU ${t} · ${m}`, key: `iou${t}/${m}` }))),
    { label: 'mean IoU', key: 'mean_iou' },
    { label: 'pages', key: 'pages' },
    { label: 'GT boxes', key: 'gt' },
    { label: 'predicted boxes', key: 'pred' },
  ];
  return (
    <div className="report-body">
      <KeyTable report={report} rows={rows} caption="Figure detection at three IoU thresholds (rates × 100)" />
      <div className="plots">
        <BarChart
          title="F1 at each IoU threshold"
          metric="x/f1"
          groups={IOUS.map((t) => ({ label: `IoU ${t}` }))}
          series={models.map((m) => ({ name: m, values: IOUS.map((t) => report.models[m].metrics[`iou${t}/f1`]) }))}
        />
      </div>
    </div>
  );
}
