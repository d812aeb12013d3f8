/**
 * Chronicles-OCR as its summarize.py sheets show it: the per-group summary (Ancient / Modern) and
 * the per-script breakdown, round(100·v, 1). Detection is a diagnostic (not in the official sheet).
 */
import type { LayoutItem, ReportLayout } from '../../reportLayout';

/** Built in a function marked pure, so a bundle that imports the adapter module without using it drops this too. */
export const CHRONICLES_REPORT_LAYOUT: ReportLayout = /* @__PURE__ */ layout();

function layout(): ReportLayout {
  const SCRIPTS: LayoutItem[] = [
    { key: 'oracle_bone', label: '甲骨文 Oracle bone', facetValues: ['甲骨文'] },
    { key: 'bronze', label: '金文 Bronze', facetValues: ['金文'] },
    { key: 'seal', label: '篆书 Seal', facetValues: ['篆书'] },
    { key: 'clerical', label: '隶书 Clerical', facetValues: ['隶书'] },
    { key: 'regular', label: '楷书 Regular', facetValues: ['楷书'] },
    { key: 'running', label: '行书 Running', facetValues: ['行书'] },
    { key: 'cursive', label: '草书 Cursive', facetValues: ['草书'] },
  ];
  const TASKS = ['spotting', 'recognition', 'parsing', 'classification'];

  return {
    headlines: ['ancient/average', 'modern/average', 'all/average'],
    sections: [
      {
        kind: 'keys',
        caption: 'Per-group summary (× 100, one decimal as in the official sheet)',
        decimals: 1,
        rows: [
          ...TASKS.map((t) => ({ label: `Ancient · ${t}`, key: `ancient/${t}` })),
          { label: 'Ancient · average', key: 'ancient/average' },
          { label: 'Modern · parsing', key: 'modern/parsing' },
          { label: 'Modern · classification', key: 'modern/classification' },
          { label: 'Modern · average', key: 'modern/average' },
        ],
      },
      {
        kind: 'grid',
        caption: 'Per-script breakdown — {model}',
        corner: 'script',
        rows: [...SCRIPTS, { key: 'all', label: 'all scripts', summary: true }],
        columns: [
          ...TASKS.map((t) => ({ key: t, label: t })),
          { key: 'average', label: 'average' },
          { key: 'detection', label: 'detection*', title: 'diagnostic: not in the official sheet' },
        ],
        perModel: 'table',
        decimals: 1,
        rowFacets: ['script', 'font_type'],
        columnFacets: ['task'],
      },
    ],
    units: {
      label: 'script (spotting)',
      units: [...SCRIPTS.map((s) => ({ ...s, key: `${s.key}/spotting` })), { key: 'all/spotting', label: 'all scripts' }],
      default: 'all/spotting',
      caseUnits: ['all/spotting'],
      unitFacets: ['script', 'font_type'],
    },
    plots: [
      { kind: 'bars', title: 'average per script (click to list its cases)', metric: '{group}/average', groups: SCRIPTS.map((s) => ({ ...s, label: s.label.split(' ')[0] })), facetKeys: ['script', 'font_type'] },
      { kind: 'score-histogram', title: 'per-case score (1 − NED for recognition, the task score otherwise)', scoreLabel: 'score', bins: 10 },
    ],
  };
}

