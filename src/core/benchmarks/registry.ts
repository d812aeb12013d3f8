/** Every benchmark Benchlens knows, in the order detection tries them. */
import type { BenchmarkAdapter, BenchmarkId } from '../model';
import { InputError } from '../model';
import { ltbAdapter } from './ltb';
import { chroniclesAdapter } from './chronicles';
import { tabenchAdapter } from './tabench';
import { gansulishuzhiAdapter } from './gansulishuzhi';
import { pulsebenchAdapter } from './pulsebench-select';

export const ADAPTERS: readonly BenchmarkAdapter[] = [
  ltbAdapter,
  chroniclesAdapter,
  tabenchAdapter,
  gansulishuzhiAdapter,
  pulsebenchAdapter,
];

export const BENCHMARK_IDS: readonly BenchmarkId[] = ['ltb', 'chronicles', 'tabench', 'gansulishuzhi', 'pulsebench-select'];

export function adapterFor(id: string): BenchmarkAdapter {
  const a = ADAPTERS.find((x) => x.id === id);
  if (!a) throw new InputError(`unknown benchmark "${id}" (known: ${BENCHMARK_IDS.join(', ')})`);
  return a;
}
