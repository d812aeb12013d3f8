/**
 * What the uncertainty block (shared/specs/uncertainty.md, defaults: 1,000 replicates, 1,000
 * assignments) adds:
 * - the compiled CLI on LTB 300 images × 60 GT × 15 splits, two models (bench/cliInputs
 *   `ltb-300x60x2`): whole processes with `--option ci=off` and with the defaults, interleaved,
 *   median wall and CPU time of each and their ratio (the issue's budget: ≤ 1.5×);
 * - in process (unless UNC_BENCH_BIG=0), LTB 20,000 images × 30 GT × 15 splits, two models: scoring both (mmocr-1.0.1,
 *   without the error taxonomy) and then computeUncertainty, each timed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_BUNDLE, ensureCliBundle } from '../scripts/cliBundle.mjs';
import { cliInput, scoreArgs, secondModel } from './cliInputs';
import { fig, s, timeProcess, type Timed } from './cli.bench';
import { generate } from './ltb.bench';
import { measure } from './measure';
import { MemorySource } from '../src/core/io/fileSource';
import { BenchSession } from '../src/core/session';
import { computeUncertainty, uncertaintyOptions } from '../src/core/uncertainty';

const RUNS = Number(process.env.CLI_BENCH_RUNS ?? 7);
const BIG = Number(process.env.LTB_BENCH_IMAGES ?? 20_000);

function median(t: Timed[], f: (x: Timed) => number): number {
  const v = t.map(f).sort((a, b) => a - b);
  return v[Math.floor(v.length / 2)];
}

async function cliFigures(): Promise<void> {
  await ensureCliBundle({ quiet: false });
  const input = await cliInput('ltb-300x60x2');
  const out = mkdtempSync(join(tmpdir(), 'benchlens-unc-bench-out-'));
  try {
    const args = scoreArgs(input, out);
    const off: Timed[] = [];
    const on: Timed[] = [];
    const load0 = loadavg()[0];
    // Interleaved, one run of each at a time, so that a busy stretch of the machine hits both.
    for (let i = 0; i < RUNS; i++) {
      off.push(timeProcess(process.execPath, [CLI_BUNDLE, ...args, '--option', 'ci=off'], 1, { BENCHLENS_CLI_TIMINGS: '1' }));
      on.push(timeProcess(process.execPath, [CLI_BUNDLE, ...args], 1, { BENCHLENS_CLI_TIMINGS: '1' }));
    }
    const w = [median(off, (t) => t.median), median(on, (t) => t.median)];
    const c = [median(off, (t) => t.cpu), median(on, (t) => t.cpu)];
    const phase = /^timing uncertainty ([\d.]+)$/m.exec(on[on.length - 1].stderr);
    console.log(`LTB CLI (${input.what}), ${RUNS} runs each, load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}:`);
    console.log(`  ci=off:    ${fig({ ...off[0], median: w[0], min: Math.min(...off.map((t) => t.min)), cpu: c[0] })}`);
    console.log(`  defaults:  ${fig({ ...on[0], median: w[1], min: Math.min(...on.map((t) => t.min)), cpu: c[1] })}; uncertainty phase ${phase ? s(Number(phase[1])) : '?'}`);
    const fastest = Math.min(...on.map((t) => t.min)) / Math.min(...off.map((t) => t.min));
    console.log(
      `  with / without intervals = ${(w[1] / w[0]).toFixed(2)}× wall (medians), ${fastest.toFixed(2)}× wall (fastest runs), ${(c[1] / c[0]).toFixed(2)}× CPU (budget 1.5×)`,
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function bigFigures(): Promise<void> {
  const g = generate(BIG, 30);
  const session = await BenchSession.open(new MemorySource('ltb-bench', g.files));
  await session.addPredictions({ source: new MemorySource('a', { 'a.json': g.predBytes }), path: 'a.json', name: 'model-a' });
  await session.addPredictions({ source: new MemorySource('b', { 'b.json': secondModel(g.predBytes) }), path: 'b.json', name: 'model-b' });
  const protocol = session.resolveProtocol('mmocr-1.0.1', {});
  const results = await measure(`ltb ${BIG} images: score 2 models (no taxonomy)`, () => session.score(protocol, { diagnostics: false }));
  const opts = uncertaintyOptions(protocol)!;
  const c0 = process.cpuUsage();
  const block = await measure(`ltb ${BIG} images: uncertainty (${opts.replicates} replicates, ${opts.permutations} assignments, 15 groups, 1 pair)`, () =>
    computeUncertainty('ltb', session.dataset, results, protocol, opts),
  );
  const cpu = process.cpuUsage(c0);
  console.log(`  (${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU; groups ${block.groups.map((x) => `${x.id} ${x.units}`).join(', ')})`);
  const hard = block.pairs.find((p) => p.group === 'hard')!;
  console.log(`  hard/hmean Δ ${hard.diff.toFixed(4)} [${hard.ci.map((x) => x.toFixed(4)).join(', ')}], p ${hard.p}, p_holm ${hard.p_holm}`);
}

export async function run(): Promise<void> {
  await cliFigures();
  // UNC_BENCH_BIG=0 leaves out the 20,000-image figure (minutes on a busy machine).
  if (process.env.UNC_BENCH_BIG !== '0') await bigFigures();
}
