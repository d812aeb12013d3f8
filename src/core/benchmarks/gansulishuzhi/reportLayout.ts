/** gansulishuzhi: precision / recall / F1 of figure boxes at IoU 0.3, 0.5 and 0.7. */
import type { ReportLayout } from '../../reportLayout';

/** Built in a function marked pure, so a bundle that imports the adapter module without using it drops this too. */
export const GANSU_REPORT_LAYOUT: ReportLayout = /* @__PURE__ */ layout();

function layout(): ReportLayout {
  const IOUS = ['0.3', '0.5', '0.7'];
  const PER = ['precision', 'recall', 'f1', 'mean_iou', 'tp', 'fp', 'fn'];

  return {
    headlines: IOUS.map((t) => `iou${t}/f1`),
    sections: [
      {
        kind: 'keys',
        caption: 'Figure detection at three IoU thresholds (rates × 100)',
        rows: [
          ...IOUS.flatMap((t) => PER.map((m) => ({ label: `IoU ${t} · ${m}`, key: `iou${t}/${m}` }))),
          { label: 'mean IoU', key: 'mean_iou' },
          { label: 'pages', key: 'pages' },
          { label: 'GT boxes', key: 'gt' },
          { label: 'predicted boxes', key: 'pred' },
        ],
      },
    ],
    units: { label: 'IoU threshold', units: IOUS.map((t) => ({ key: `iou${t}`, label: `IoU ${t}` })), default: 'iou0.5', caseUnits: ['iou0.5'] },
    plots: [
      { kind: 'bars', title: 'F1 at each IoU threshold', metric: '{group}/f1', groups: IOUS.map((t) => ({ key: `iou${t}`, label: `IoU ${t}` })) },
      { kind: 'score-histogram', title: 'per-page F1 at IoU 0.5', scoreLabel: 'F1', bins: 10 },
    ],
  };
}

