/**
 * Where the compiled CLI's time goes: `npx tsx bench/cliProfile.ts <input name>` (names in
 * bench/cliInputs.ts) runs `node --cpu-prof dist-cli/benchlens.mjs score …` on it and prints
 * self time by source module (the bundle is unminified and keeps rolldown's `// path` comment
 * above each module, so a bundle line maps back to its source file), by function, and the
 * inclusive time of the CLI's phases (read, score, case lines, write).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_BUNDLE, ensureCliBundle } from '../scripts/cliBundle.mjs';
import { cliInput, scoreArgs, type CliInputName } from './cliInputs';
import { profileTree, type CpuProfile } from './cpuProfile';

/** Bundle line (1-based) → the source module it came from. */
function moduleOfLine(bundle: string): (line: number) => string {
  const starts: { line: number; module: string }[] = [];
  bundle.split('\n').forEach((l, i) => {
    const m = /^\/\/ ((?:src|cli|node_modules)\/\S+)$/.exec(l);
    if (m) starts.push({ line: i + 1, module: m[1].replace(/^node_modules\/([^/]+)\/.*$/, 'node_modules/$1') });
  });
  return (line) => {
    let lo = 0;
    let hi = starts.length - 1;
    let found = '(bundle head)';
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid].line <= line) {
        found = starts[mid].module;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
}

const PHASES: [string, RegExp][] = [
  ['open dataset (read + parse GT)', /^open /],
  ['add predictions (read + parse)', /^add(Bundled)?Predictions /],
  ['score', /^score /],
  ['report.json', /^serializeReport /],
  ['case lines + write', /^writeLines /],
];

export function summarise(profile: CpuProfile, bundle: string, top = Number(process.env.PROFILE_TOP ?? 18)): string[] {
  const { byId, parent, label } = profileTree(profile);
  const mod = moduleOfLine(bundle);
  const total = profile.timeDeltas.reduce((a, b) => a + b, 0) / 1000;
  const selfBy = new Map<string, number>();
  const fnBy = new Map<string, number>();
  const phaseBy = new Map<string, number>();
  profile.samples.forEach((id, k) => {
    const dt = (profile.timeDeltas[k] ?? 0) / 1000;
    const f = byId.get(id)!.callFrame;
    const where = f.url.endsWith('benchlens.mjs') ? mod(f.lineNumber + 1) : f.url ? `node:${f.url.split('/').at(-1)}` : `(${f.functionName || 'native'})`;
    selfBy.set(where, (selfBy.get(where) ?? 0) + dt);
    const fn = f.url.endsWith('benchlens.mjs') ? `${f.functionName || '(anonymous)'} [${mod(f.lineNumber + 1)}]` : label(id);
    fnBy.set(fn, (fnBy.get(fn) ?? 0) + dt);
    // The outermost CLI phase on this sample's stack.
    let phase = '';
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const l = label(n);
      for (const [name, re] of PHASES) if (re.test(l)) phase = name;
    }
    if (phase) phaseBy.set(phase, (phaseBy.get(phase) ?? 0) + dt);
  });
  const pct = (ms: number) => `${((100 * ms) / total).toFixed(1).padStart(5)} %  ${ms.toFixed(0).padStart(6)} ms`;
  const sorted = (m: Map<string, number>, n: number) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
  return [
    `profiled ${total.toFixed(0)} ms of the process (samples; start-up before the profiler starts is not in it)`,
    'phases (inclusive):',
    ...PHASES.map(([name]) => `  ${pct(phaseBy.get(name) ?? 0)}  ${name}`),
    'self time by module:',
    ...sorted(selfBy, top).map(([k, v]) => `  ${pct(v)}  ${k}`),
    'self time by function:',
    ...sorted(fnBy, top).map(([k, v]) => `  ${pct(v)}  ${k}`),
  ];
}

export async function profileCli(name: CliInputName): Promise<string[]> {
  await ensureCliBundle();
  const input = await cliInput(name);
  const dir = mkdtempSync(join(tmpdir(), 'benchlens-cli-prof-'));
  const r = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '200', CLI_BUNDLE, ...scoreArgs(input, join(dir, 'out'))], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`CLI exit ${r.status}: ${r.stderr}`);
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!;
  return summarise(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile, readFileSync(CLI_BUNDLE, 'utf8'));
}

if (process.argv[1]?.endsWith('cliProfile.ts')) {
  for (const name of process.argv.slice(2) as CliInputName[]) {
    console.log(`== ${name}`);
    for (const l of await profileCli(name)) console.log(l);
  }
}
