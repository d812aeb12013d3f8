/** Each benchmark's groups as GroupTables, from the scored results' per-unit statistics. */
import { InputError, type BenchmarkId, type ModelResult, type Protocol } from '../model';
import type { LtbDataset } from '../benchmarks/ltb/dataset';
import type { GroupTable } from './table';
import { ltbTables } from './benchmarks/ltb';

export function groupTablesFor(benchmark: BenchmarkId, dataset: unknown, results: readonly ModelResult[], protocol: Protocol): GroupTable[] {
  switch (benchmark) {
    case 'ltb':
      return ltbTables(dataset as LtbDataset, results, protocol);
    default:
      throw new InputError(`uncertainty: not yet available for ${benchmark}`);
  }
}
