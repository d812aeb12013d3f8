/**
 * LTB: a unit is an image, a group a split file. Each image's row (recorded by
 * ltb/splitCounts.addImageToSplit while scoring) holds its care GT, hits per threshold and
 * predictions per threshold; a replicate pools them and picks the best threshold again, as
 * ltb/score.ts does (MMOCR's compute_hmean, strict ">" upward so ties keep the lowest).
 */
import type { ModelResult, Protocol } from '../../model';
import type { LtbDataset } from '../../benchmarks/ltb/dataset';
import { variantOf } from '../../benchmarks/ltb/protocol';
import { SPLITS, thresholdLabel } from '../../benchmarks/ltb/splits';
import { ratesInto } from '../../benchmarks/ltb/splitCounts';
import type { GroupTable } from '../table';
import { sortedUnits, statsOf } from './common';

export function ltbTables(ds: LtbDataset, results: readonly ModelResult[], protocol: Protocol): GroupTable[] {
  const v = variantOf(protocol);
  const nT = v.thresholds.length;
  const W = 1 + 2 * nT;
  const labels = v.thresholds.map(thresholdLabel);
  const present = new Set(ds.splitFiles.map((f) => f.split));
  // precision, recall, hmean per threshold of the replicate being evaluated.
  const prh = new Float64Array(3 * nT);
  const tables: GroupTable[] = [];
  for (let s = 0; s < SPLITS.length; s++) {
    if (!present.has(s)) continue;
    const key = SPLITS[s].key;
    // Rows are in image order among the split's members; the spec orders units by case_id (the image name).
    const names: string[] = [];
    for (const img of ds.images) if (img.splits & (1 << s)) names.push(img.name);
    const { units, order } = sortedUnits(names);
    const keys = [`${key}/precision`, `${key}/recall`, `${key}/hmean`, ...labels.map((l) => `${key}/hmean@${l}`)];
    tables.push({
      id: key,
      units,
      width: W,
      stats: results.map((r) => statsOf(r, key, W, order)),
      keys,
      pairKeys: [{ index: 2, family: 'hmean' }],
      evaluate(sums, out) {
        const gt = sums[0];
        let best = 0;
        for (let i = 0; i < nT; i++) {
          ratesInto(sums[1 + i], gt, sums[1 + nT + i], prh, 3 * i);
          out[3 + i] = prh[3 * i + 2];
          // Strict ">" upward: ties keep the lowest threshold, as ltb/score.ts.
          if (prh[3 * i + 2] > prh[3 * best + 2]) best = i;
        }
        out[0] = prh[3 * best];
        out[1] = prh[3 * best + 1];
        out[2] = prh[3 * best + 2];
      },
    });
  }
  return tables;
}
