/** PulseBench-Select: selection P / R / F1, and the dataset's own leaderboard beside your models. */
import type { ReportLayout } from '../../reportLayout';

/** Built in a function marked pure, so a bundle that imports the adapter module without using it drops this too. */
export const PULSE_REPORT_LAYOUT: ReportLayout = /* @__PURE__ */ layout();

function layout(): ReportLayout {
  return {
    headlines: ['precision', 'recall', 'f1'],
    sections: [
      {
        kind: 'keys',
        caption: 'Selection F1, positive class only (rates × 100)',
        rows: [
          { label: 'precision', key: 'precision' },
          { label: 'recall', key: 'recall' },
          { label: 'selection F1', key: 'f1' },
          { label: 'macro precision', key: 'macro_precision' },
          { label: 'macro recall', key: 'macro_recall' },
          { label: 'macro skipped samples', key: 'macro_skipped_samples' },
          { label: 'TP', key: 'tp' },
          { label: 'FP', key: 'fp' },
          { label: 'FN', key: 'fn' },
          { label: 'samples', key: 'samples' },
        ],
      },
      {
        kind: 'leaderboard',
        caption: "The dataset's leaderboard (results/) beside your models",
        columns: [
          { col: 'precision', key: 'precision' },
          { col: 'recall', key: 'recall' },
          { col: 'selection_f1', key: 'f1' },
          { col: 'macro_precision', key: 'macro_precision' },
          { col: 'macro_recall', key: 'macro_recall' },
          { col: 'macro_skipped_samples', key: 'macro_skipped_samples' },
        ],
      },
    ],
    plots: [
      {
        kind: 'bars',
        title: 'selection precision / recall / F1 (micro) and macro precision / recall',
        metric: '{group}',
        groups: [
          { key: 'precision', label: 'precision' },
          { key: 'recall', label: 'recall' },
          { key: 'f1', label: 'F1' },
          { key: 'macro_precision', label: 'macro precision' },
          { key: 'macro_recall', label: 'macro recall' },
        ],
      },
      { kind: 'score-histogram', title: 'per-sample selection F1', scoreLabel: 'F1', bins: 10 },
    ],
  };
}

