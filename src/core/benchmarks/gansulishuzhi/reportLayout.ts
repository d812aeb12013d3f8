/** gansulishuzhi: precision / recall / F1 of figure boxes at IoU 0.3, 0.5 and 0.7. */
import type { ReportLayout } from '../../reportLayout';

/** Built in a function marked pure, so a bundle that imports the adapter module without using it drops this too. */
export const GANSU_REPORT_LAYOUT: ReportLayout = /* @__PURE__ */ layout();

function layout(): ReportLayout {
  const IOUS = ['0.3', '0.5', '0.7'];

  return {
    headlines: IOUS.map((t) => `iou${t}/f1`),
    sections: [
      // One row per IoU threshold, its measures as columns (issue #42 item 15: the 21 metrics of the
      // three thresholds used to be a list of 26 rows, the thresholds hard to compare).
      {
        kind: 'grid',
        caption: 'Figure detection at three IoU thresholds (rates × 100)',
        corner: 'IoU',
        rows: IOUS.map((t) => ({ key: `iou${t}`, label: t, title: `iou${t}/…` })),
        columns: [
          { key: 'precision', label: 'P', title: 'precision' },
          { key: 'recall', label: 'R', title: 'recall' },
          { key: 'f1', label: 'F1', title: 'F1' },
          { key: 'mean_iou', label: 'IoU', title: 'mean IoU of the matched pairs' },
          { key: 'tp', label: 'TP', title: 'true positives' },
          { key: 'fp', label: 'FP', title: 'false positives' },
          { key: 'fn', label: 'FN', title: 'false negatives (missed GT)' },
        ],
        perModel: 'colgroup',
      },
      {
        kind: 'keys',
        caption: 'Totals',
        rows: [
          { label: 'mean IoU (rates × 100)', key: 'mean_iou' },
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

