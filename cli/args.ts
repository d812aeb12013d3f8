/** Parses the command line of the contract in shared/specs/README.md. */
import { InputError } from '../src/core/model';

export interface ScoreArgs {
  command: 'score';
  dataset: string;
  preds: string[];
  benchmark?: string;
  protocol?: string;
  options: Record<string, string>;
  out: string;
  noBundled: boolean;
}

export interface LintArgs {
  command: 'lint';
  dataset: string;
  benchmark?: string;
  out: string;
}

export const USAGE = `usage: npm run -s cli -- score --dataset <dir> --pred <file-or-dir> [--pred …]
                        [--benchmark ltb|chronicles|tabench|gansulishuzhi|pulsebench-select]
                        [--protocol <name>] [--option key=value …] [--no-bundled] --out <dir>
       npm run -s cli -- lint --dataset <dir> [--benchmark <id>] --out <dir>
                        (GT health: writes <out>/lint.json; exit 0 whatever it finds)
       npm run -s cli -- protocols [--benchmark <id>]`;

export function parseArgs(argv: string[]): ScoreArgs | LintArgs | { command: 'protocols'; benchmark?: string } | { command: 'help' } {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') return { command: 'help' };
  const values: Record<string, string[]> = {};
  const flags = new Set<string>();
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (!a.startsWith('--')) throw new InputError(`unexpected argument "${a}"\n${USAGE}`);
    const eq = a.indexOf('=');
    const key = eq > 0 ? a.slice(2, eq) : a.slice(2);
    if (key === 'no-bundled') {
      flags.add(key);
      continue;
    }
    const value = eq > 0 ? a.slice(eq + 1) : rest[++i];
    if (value === undefined) throw new InputError(`--${key} needs a value`);
    (values[key] ??= []).push(value);
  }
  const one = (k: string) => {
    const v = values[k];
    if (v && v.length > 1) throw new InputError(`--${k} given more than once`);
    return v?.[0];
  };
  if (command === 'protocols') return { command, benchmark: one('benchmark') };
  if (command !== 'score' && command !== 'lint') throw new InputError(`unknown command "${command}"\n${USAGE}`);
  const allowed = command === 'lint' ? ['dataset', 'benchmark', 'out'] : ['dataset', 'pred', 'benchmark', 'protocol', 'option', 'out'];
  for (const k of Object.keys(values)) {
    if (!allowed.includes(k)) throw new InputError(`unknown flag --${k}${command === 'lint' ? ' for lint' : ''}\n${USAGE}`);
  }
  if (command === 'lint' && flags.size > 0) throw new InputError(`unknown flag --${[...flags][0]} for lint\n${USAGE}`);
  const dataset = one('dataset');
  const out = one('out');
  if (!dataset) throw new InputError(`--dataset is required\n${USAGE}`);
  if (!out) throw new InputError(`--out is required\n${USAGE}`);
  if (command === 'lint') return { command, dataset, benchmark: one('benchmark'), out };
  const options: Record<string, string> = {};
  for (const o of values.option ?? []) {
    const eq = o.indexOf('=');
    if (eq <= 0) throw new InputError(`--option expects key=value, got "${o}"`);
    options[o.slice(0, eq).trim()] = o.slice(eq + 1).trim();
  }
  return {
    command,
    dataset,
    preds: values.pred ?? [],
    benchmark: one('benchmark'),
    protocol: one('protocol'),
    options,
    out,
    noBundled: flags.has('no-bundled'),
  };
}
