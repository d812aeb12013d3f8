/**
 * LTB as the paper's Table 4 reads it: the 13 challenge categories, Hard and Norm, each scored on
 * its own file at its own best threshold — hmean, precision, recall and that threshold per model.
 */
import type { LayoutItem, ReportLayout } from '../../reportLayout';
import { SWEEP_THRESHOLDS } from './splits';

/** Built in a function marked pure, so a bundle that imports the adapter module without using it drops this too. */
export const LTB_REPORT_LAYOUT: ReportLayout = /* @__PURE__ */ layout();

function layout(): ReportLayout {
  const LABELS: Record<string, string> = {
    blurred: 'Blurred',
    artistic: 'Artistic',
    glass: 'Glass',
    single_char: 'Single char',
    distorted: 'Distorted',
    inverse: 'Inverse',
    delimited: 'Delimited',
    dense: 'Dense',
    overlapped: 'Overlapped',
    occluded: 'Occluded',
    low_contrast: 'Low contrast',
    complex_bg: 'Complex bg',
    others: 'Others',
    hard: 'Hard',
    norm: 'Norm',
  };

  const SPLIT_ROWS: LayoutItem[] = Object.entries(LABELS).map(([key, label]) => ({
    key,
    label,
    title: `challenging_${key}.json`,
    ...(key === 'hard' || key === 'norm' ? { summary: true } : {}),
  }));

  return {
    headlines: ['hard/hmean', 'norm/hmean'],
    sections: [
      {
        kind: 'grid',
        caption: 'hmean / precision / recall × 100 per split file, each at its own best score threshold (thr)',
        captionWhenOption: { option: 'score_thr', caption: 'hmean / precision / recall × 100 per split file, at the pinned score threshold {value}' },
        corner: 'split',
        rows: SPLIT_ROWS,
        columns: [
          { key: 'hmean', label: 'H' },
          { key: 'precision', label: 'P' },
          { key: 'recall', label: 'R' },
          { key: 'threshold', label: 'thr' },
        ],
        perModel: 'colgroup',
        hideEmptyRows: true,
        emptyRow: { counts: ['{row}/gt', '{row}/pred'], columns: ['hmean', 'precision', 'recall', 'threshold'] },
        rowFacets: ['challenge', 'splits'],
      },
    ],
    units: { label: 'split', units: SPLIT_ROWS, default: 'hard', caseOption: 'case_split', caseThresholdOption: 'case_threshold', caseUnits: ['hard', 'norm'] },
    plots: [
      {
        kind: 'bars',
        title: 'hmean per split (click a category to list its cases)',
        metric: '{group}/hmean',
        groups: SPLIT_ROWS,
        facetKeys: ['challenge', 'splits'],
        emptyGroup: ['{group}/gt', '{group}/pred'],
      },
      {
        kind: 'curve',
        title: 'hmean at each score threshold (click a point: the cases of this split at that threshold)',
        metric: '{unit}/hmean@{x}',
        xs: [...SWEEP_THRESHOLDS],
        best: '{unit}/threshold',
        xLabel: 'score threshold',
        pointOption: 'case_split',
        pointXOption: 'case_threshold',
      },
      { kind: 'score-histogram', title: 'per-image hmean of the case split', scoreLabel: 'hmean', bins: 10 },
    ],
  };
}

