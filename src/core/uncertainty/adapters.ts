/** Each benchmark's groups as GroupTables, from the scored results' per-unit statistics. */
import { InputError, type BenchmarkId, type ModelResult, type Protocol } from '../model';
import type { GroupTable } from './table';

export function groupTablesFor(benchmark: BenchmarkId, dataset: unknown, results: readonly ModelResult[], protocol: Protocol): GroupTable[] {
  void dataset;
  void results;
  void protocol;
  throw new InputError(`uncertainty: not yet available for ${benchmark}`);
}
