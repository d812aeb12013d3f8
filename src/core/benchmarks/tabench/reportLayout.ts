/** TABench: R2T, T2R and Overall, then the same per category, source dataset and annotation level. */
import type { ReportLayout, ReportSection } from '../../reportLayout';

/** Built in a function marked pure, so a bundle that imports the adapter module without using it drops this too. */
export const TABENCH_REPORT_LAYOUT: ReportLayout = /* @__PURE__ */ layout();

function layout(): ReportLayout {
  const GROUP_COLS = [
    { key: 'r2t/accuracy', label: 'R2T acc', facetValues: ['R2T'] },
    { key: 't2r/f1', label: 'T2R F1', facetValues: ['T2R'] },
    { key: 'overall', label: 'Overall' },
  ];
  // `facet`: the case facet a row of this grouping is a value of (a cell lists its cases).
  const grouping = (prefix: string, caption: string, facet: string): ReportSection => ({
    kind: 'grid',
    caption,
    corner: prefix,
    rows: { fromPrefix: prefix },
    columns: GROUP_COLS,
    perModel: 'colgroup',
    rowFacets: [facet],
    columnFacets: ['task'],
  });

  return {
    headlines: ['r2t/accuracy', 't2r/f1', 'overall'],
    sections: [
      {
        kind: 'keys',
        caption: 'R2T / T2R / Overall (× 100)',
        rows: [
          { label: 'R2T accuracy', key: 'r2t/accuracy' },
          { label: 'R2T CER', key: 'r2t/cer' },
          { label: 'R2T queries', key: 'r2t/n' },
          { label: 'T2R precision', key: 't2r/precision' },
          { label: 'T2R recall', key: 't2r/recall' },
          { label: 'T2R F1', key: 't2r/f1' },
          { label: 'T2R QSR@1', key: 't2r/qsr@1' },
          { label: 'T2R QSR@3', key: 't2r/qsr@3' },
          { label: 'T2R QSR@5', key: 't2r/qsr@5' },
          { label: 'T2R TP', key: 't2r/tp' },
          { label: 'T2R FP', key: 't2r/fp' },
          { label: 'T2R FN', key: 't2r/fn' },
          { label: 'T2R queries', key: 't2r/n' },
          { label: 'Overall', key: 'overall' },
        ],
      },
      grouping('category', 'per category', 'category'),
      grouping('source', 'per source dataset', 'source_dataset'),
      grouping('level', 'per annotation level', 'annotation_level'),
    ],
    units: { label: 'task', units: [{ key: 't2r', label: 'T2R' }], default: 't2r', caseUnits: ['t2r'] },
    plots: [
      { kind: 'bars', title: 'Overall per category (click to list its cases)', metric: 'category/{group}/overall', groups: { fromPrefix: 'category' }, facetKeys: ['category'] },
      { kind: 'score-histogram', title: 'per-query score (R2T: correct 1 / wrong 0; T2R: F1 of the boxes)', scoreLabel: 'score', bins: 10 },
    ],
  };
}

