/**
 * gansulishuzhi: a unit is a manifest page, one group `all`. A page's row (recorded by
 * gansulishuzhi/score.ts) holds its GT, predictions, matched pairs and IoU sums; a replicate pools
 * them with the official formulas (score.ts ratesInto: micro P/R/F1 per IoU threshold, rates 0 on a
 * zero denominator).
 */
import type { ModelResult } from '../../model';
import type { GansuDataset } from '../../benchmarks/gansulishuzhi/dataset';
import { GANSU_UNIT_WIDTH, ratesInto, THRESHOLDS } from '../../benchmarks/gansulishuzhi/score';
import type { GroupTable } from '../table';
import { sortedUnits, statsOf } from './common';

export function gansuTables(ds: GansuDataset, results: readonly ModelResult[]): GroupTable[] {
  const { units, order } = sortedUnits(ds.pages.map((p) => p.id));
  const keys: string[] = [];
  for (const t of THRESHOLDS) keys.push(`iou${t}/precision`, `iou${t}/recall`, `iou${t}/f1`, `iou${t}/mean_iou`);
  keys.push('mean_iou');
  const nT = THRESHOLDS.length;
  return [
    {
      id: 'all',
      units,
      width: GANSU_UNIT_WIDTH,
      stats: results.map((r) => statsOf(r, 'all', GANSU_UNIT_WIDTH, order)),
      keys,
      pairKeys: THRESHOLDS.map((t, k) => ({ index: 4 * k + 2, family: `iou${t}/f1` })),
      evaluate(sums, out) {
        const nGt = sums[0];
        const nPred = sums[1];
        for (let k = 0; k < nT; k++) ratesInto(sums[4 + 2 * k], nGt, nPred, sums[5 + 2 * k], out, 4 * k);
        out[4 * nT] = sums[2] > 0 ? sums[3] / sums[2] : 0;
      },
    },
  ];
}
