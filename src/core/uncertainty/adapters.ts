/** Each benchmark's groups as GroupTables, from the scored results' per-unit statistics. */
import { InputError, type BenchmarkId, type ModelResult, type Protocol } from '../model';
import type { LtbDataset } from '../benchmarks/ltb/dataset';
import type { GroupTable } from './table';
import { ltbTables } from './benchmarks/ltb';
import { gansuTables } from './benchmarks/gansulishuzhi';
import { tabenchTables } from './benchmarks/tabench';
import { chroniclesTables } from './benchmarks/chronicles';
import { pulseTables } from './benchmarks/pulsebench';
import type { PulseDataset } from '../benchmarks/pulsebench-select/dataset';
import type { ChroniclesDataset } from '../benchmarks/chronicles/gt';
import type { GansuDataset } from '../benchmarks/gansulishuzhi/dataset';

export function groupTablesFor(benchmark: BenchmarkId, dataset: unknown, results: readonly ModelResult[], protocol: Protocol): GroupTable[] {
  switch (benchmark) {
    case 'ltb':
      return ltbTables(dataset as LtbDataset, results, protocol);
    case 'gansulishuzhi':
      return gansuTables(dataset as GansuDataset, results);
    case 'tabench':
      return tabenchTables(results, protocol);
    case 'chronicles':
      return chroniclesTables(dataset as ChroniclesDataset, results);
    case 'pulsebench-select':
      return pulseTables(dataset as PulseDataset, results);
    default:
      throw new InputError(`uncertainty: unknown benchmark ${String(benchmark)}`);
  }
}
