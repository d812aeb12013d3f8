/**
 * PulseBench-Select: a unit is a sample, one group `all`. A sample's row (pulsebench-select/score
 * sampleRow) holds its TP / FP / FN and its share of the macro means; a replicate pools them with
 * the official selectionRates.
 */
import type { ModelResult } from '../../model';
import type { PulseDataset } from '../../benchmarks/pulsebench-select/dataset';
import { PULSE_RATE_KEYS, PULSE_UNIT_COLUMNS, selectionRates } from '../../benchmarks/pulsebench-select/score';
import type { GroupTable } from '../table';
import { sortedUnits, statsOf } from './common';

export function pulseTables(ds: PulseDataset, results: readonly ModelResult[]): GroupTable[] {
  const { units, order } = sortedUnits(ds.samples.map((s) => s.id));
  const W = PULSE_UNIT_COLUMNS.length;
  return [
    {
      id: 'all',
      units,
      width: W,
      stats: results.map((r) => statsOf(r, 'samples', W, order)),
      keys: [...PULSE_RATE_KEYS],
      pairKeys: [{ index: PULSE_RATE_KEYS.indexOf('f1'), family: 'f1' }],
      evaluate: selectionRates,
    },
  ];
}
