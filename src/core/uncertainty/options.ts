/**
 * The protocol options of the uncertainty block (`ci`, `ci_replicates`, `ci_permutations`,
 * `ci_level`, `ci_seed`), shared by every benchmark's protocols, and their range checks.
 */
import { InputError, type OptionSpec, type OptionValue, type Protocol } from '../model';
import type { UncertaintyOptions } from './block';

export const UNCERTAINTY_OPTION_SPECS: readonly OptionSpec[] = [
  { key: 'ci', kind: 'enum', default: 'on', choices: ['on', 'off'], help: 'confidence intervals and paired tests (report.json "uncertainty"); off leaves them out' },
  { key: 'ci_replicates', kind: 'number', default: 1000, help: 'bootstrap replicates per group (integer ≥ 2)' },
  { key: 'ci_permutations', kind: 'number', default: 1000, help: 'random assignments of the paired test for groups over 12 units (integer ≥ 1)' },
  { key: 'ci_level', kind: 'number', default: 0.95, help: 'interval level, strictly between 0 and 1' },
  { key: 'ci_seed', kind: 'number', default: 0, help: 'seed of the draws (integer 0 … 4294967294)' },
];

/** Upper bounds that keep a run finite and the spec's draws exact. */
const MAX_REPLICATES = 1_000_000;

/** Throws InputError when a ci_* option is out of range; called by every protocol resolver. */
export function checkUncertaintyOptions(benchmark: string, options: Record<string, OptionValue>): void {
  const bad = (key: string, why: string) => new InputError(`option ${key}=${String(options[key])} for ${benchmark}: ${why}`);
  const int = (key: string, min: number, max: number) => {
    const v = options[key];
    if (v === undefined) return;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw bad(key, `expected an integer from ${min} to ${max}`);
  };
  int('ci_replicates', 2, MAX_REPLICATES);
  int('ci_permutations', 1, MAX_REPLICATES);
  // seed + 1 seeds the second generator, so the seed stays below 2^32 − 1.
  int('ci_seed', 0, 4294967294);
  const level = options.ci_level;
  if (level !== undefined && (typeof level !== 'number' || !(level > 0 && level < 1))) throw bad('ci_level', 'expected a number strictly between 0 and 1');
}

/** The options of a resolved protocol, or null when `ci=off`. */
export function uncertaintyOptions(protocol: Protocol): UncertaintyOptions | null {
  const o = protocol.options;
  if (o.ci === 'off' || o.ci === false) return null;
  const num = (k: string, d: number) => (typeof o[k] === 'number' ? (o[k] as number) : d);
  return {
    level: num('ci_level', 0.95),
    replicates: num('ci_replicates', 1000),
    permutations: num('ci_permutations', 1000),
    seed: num('ci_seed', 0),
  };
}
