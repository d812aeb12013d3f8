/**
 * The compiled CLI as a user runs it: every figure is a whole process, `node
 * dist-cli/benchlens.mjs …` from spawn to exit (what `npx benchlens` runs; `npm run -s cli`
 * adds npm's own start, printed once for scale). Each is the median (and the fastest) of several
 * runs; the machine's load average is printed beside them, since other work on a 2-core machine
 * moves wall times, and the children's CPU time (user + system, from /proc), which it moves
 * much less. Inputs come from bench/cliInputs.ts (generated once into the OS temp folder).
 *
 * - start-up: `protocols`, `--help`, a tiny score (the 8-image LTB demo, two models);
 * - LTB 300 images × 60 GT × 15 splits and Chronicles-OCR 700 rows × 2 models, with the CLI's
 *   own phase times (BENCHLENS_CLI_TIMINGS=1);
 * - the bare JSON.parse ceiling: a process that only reads the same files and JSON.parses each
 *   (a JSONL file line by line), timed the same way, and the read + parse time inside it;
 * - the official scorers on the same input, when they are given (nothing is fetched or installed
 *   here): Chronicles-OCR `judge.py` + `summarize.py` with CHRONICLES_OFFICIAL=<its Opensource/
 *   folder> and CHRONICLES_PYTHON=<a python with its requirements>; MMOCR 1.0.1's own
 *   `HmeanIOUMetric` on LTB 300 × 60 with MMOCR_PYTHON=<a python with mmocr 1.0.1, mmengine,
 *   mmcv and torch>, through our harness bench/official/mmocr_hmean.py (its docstring lists the
 *   versions), a whole `python mmocr_hmean.py --dataset D --pred P` process timed like the CLI,
 *   MMOCR_BENCH_RUNS times (default 1: one run takes tens of minutes on this machine). Its 225
 *   metric values are then compared (===) with the CLI's report.json from the same input.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_BUNDLE, ensureCliBundle, ROOT } from '../scripts/cliBundle.mjs';
import { cliInput, scoreArgs, type CliInput, type CliInputName } from './cliInputs';

const RUNS = Number(process.env.CLI_BENCH_RUNS ?? 7);

export interface Timed {
  median: number;
  min: number;
  /** Median CPU time (user + system) of the child, ms; NaN where /proc is missing. */
  cpu: number;
  stdout: string;
  stderr: string;
}

/**
 * CPU time, ms, of this process's waited-for children so far (Linux /proc/self/stat cutime +
 * cstime, 10 ms ticks): unlike wall time it barely moves when other work shares the cores.
 */
export function childrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[13]) + Number(f[14])) * 10; // fields 16 and 17; USER_HZ is 100 on Linux
  } catch {
    return NaN;
  }
}

export function timeProcess(cmd: string, args: string[], runs = RUNS, env: Record<string, string> = {}, cwd = ROOT): Timed {
  const times: number[] = [];
  const cpus: number[] = [];
  let stdout = '';
  let stderr = '';
  for (let i = 0; i < runs; i++) {
    const c0 = childrenCpuMs();
    const t0 = performance.now();
    const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
    times.push(performance.now() - t0);
    cpus.push(childrenCpuMs() - c0);
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
    stdout = r.stdout;
    stderr = r.stderr;
  }
  times.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], min: times[0], cpu: cpus[Math.floor(cpus.length / 2)], stdout, stderr };
}

export const s = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
export const fig = (t: Timed) => `${s(t.median)} median, ${s(t.min)} fastest, CPU ${s(t.cpu)}`;
const load = () => `load ${loadavg()[0].toFixed(1)}`;

/** A process that reads and JSON.parses the input's files and nothing else. */
const CEILING = `
const fs = require('node:fs');
const t0 = performance.now();
for (const f of process.argv.slice(1)) {
  const text = fs.readFileSync(f, 'utf8');
  if (f.endsWith('.jsonl')) { for (const l of text.split('\\n')) if (l.trim()) JSON.parse(l); }
  else JSON.parse(text);
}
process.stderr.write('timing read+parse ' + (performance.now() - t0).toFixed(1) + '\\n');`;

function phases(stderr: string): string {
  return [...stderr.matchAll(/^timing (.+) ([\d.]+)$/gm)].map((m) => `${m[1]} ${s(Number(m[2]))}`).join(', ');
}

async function scoreFigures(name: CliInputName, label: string): Promise<void> {
  const input = await cliInput(name);
  const out = mkdtempSync(join(tmpdir(), 'benchlens-cli-bench-out-'));
  try {
    const runs = Math.max(3, Math.ceil(RUNS / 2));
    const cli = timeProcess(process.execPath, [CLI_BUNDLE, ...scoreArgs(input, out)], runs, { BENCHLENS_CLI_TIMINGS: '1' });
    console.log(`${label} (${input.what}, ${(input.bytes / 2 ** 20).toFixed(1)} MiB read): CLI ${fig(cli)} (${load()})`);
    console.log(`  phases of the last run: ${phases(cli.stderr)}`);
    const ceiling = timeProcess(process.execPath, ['-e', CEILING, ...input.jsonFiles], runs);
    console.log(`  bare JSON.parse of the same ${input.jsonFiles.length} files: process ${fig(ceiling)}; ${phases(ceiling.stderr)}`);
    if (name === 'chronicles-700') officialChronicles(input, cli);
    if (name === 'ltb-300x60') officialMmocr(input, cli, join(out, 'report.json'));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function officialChronicles(input: CliInput, cli: Timed): void {
  const dir = process.env.CHRONICLES_OFFICIAL;
  const python = process.env.CHRONICLES_PYTHON ?? 'python3';
  if (!dir || !existsSync(join(dir, 'judge.py'))) {
    console.log('  official judge.py + summarize.py: not run (set CHRONICLES_OFFICIAL=<Chronicles-OCR checkout>/Opensource and CHRONICLES_PYTHON)');
    return;
  }
  const work = mkdtempSync(join(tmpdir(), 'benchlens-chronicles-official-'));
  try {
    const runs = Math.max(3, Math.ceil(RUNS / 2));
    const judgeArgs = ['judge.py', '--data_file', join(input.dataset, 'data/Chronicles_OCR.jsonl'), '--infer_dir', join(input.dataset, 'infer_results'), '--output_dir', join(work, 'judge_results')];
    const judge = timeProcess(python, judgeArgs, runs, {}, dir);
    const summarize = timeProcess(python, ['summarize.py', '--input_dir', join(work, 'judge_results'), '--output', join(work, 'results_analysis.xlsx')], runs, {}, dir);
    const both = judge.median + summarize.median;
    const bothCpu = judge.cpu + summarize.cpu;
    console.log(`  official judge.py ${fig(judge)}\n  official summarize.py ${fig(summarize)}`);
    console.log(
      `  official judge.py + summarize.py: ${s(both)} wall, ${s(bothCpu)} CPU (medians) — ` +
        `the CLI is ${(both / cli.median).toFixed(1)}× faster in wall time, ${(bothCpu / cli.cpu).toFixed(1)}× in CPU time (${load()})`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * MMOCR 1.0.1's HmeanIOUMetric on the same LTB input, through bench/official/mmocr_hmean.py, and
 * whether its numbers are the CLI's (the figure means nothing if they are not).
 */
function officialMmocr(input: CliInput, cli: Timed, cliReport: string): void {
  const python = process.env.MMOCR_PYTHON;
  if (!python) {
    console.log(
      '  official MMOCR 1.0.1 evaluator: not run (set MMOCR_PYTHON=<a python with mmocr 1.0.1, mmengine, mmcv, torch>; ' +
        'see bench/official/mmocr_hmean.py)',
    );
    return;
  }
  const runs = Number(process.env.MMOCR_BENCH_RUNS ?? 1);
  const harness = join(ROOT, 'bench', 'official', 'mmocr_hmean.py');
  console.log(`  official MMOCR 1.0.1 evaluator: running ${runs}× (tens of minutes each on 2 cores)…`);
  let official: Timed;
  let theirs: Record<string, number>;
  try {
    official = timeProcess(python, [harness, '--dataset', input.dataset, '--pred', input.preds[0]], runs);
    theirs = (JSON.parse(official.stdout) as { metrics: Record<string, number> }).metrics;
  } catch (e) {
    const lines = (e as Error).message.trim().split('\n');
    console.log(`  official MMOCR 1.0.1 evaluator: failed — ${[lines[0], ...lines.slice(1).slice(-2)].join(' / ')}`);
    return;
  }
  const models = (JSON.parse(readFileSync(cliReport, 'utf8')) as { models: Record<string, { metrics: Record<string, number> }> }).models;
  const ours = Object.values(models)[0].metrics;
  const keys = [...new Set([...Object.keys(theirs), ...Object.keys(ours)])];
  const unequal = keys.filter((k) => theirs[k] !== ours[k]);
  console.log(
    `  official MMOCR 1.0.1 evaluator (bench/official/mmocr_hmean.py, ${runs} run${runs === 1 ? '' : 's'}): ${fig(official)} — ` +
      `the CLI is ${(official.median / cli.median).toFixed(0)}× faster in wall time, ${(official.cpu / cli.cpu).toFixed(0)}× in CPU time (${load()})`,
  );
  console.log(
    unequal.length === 0
      ? `  its ${keys.length} metric values equal (===) the CLI's report.json`
      : `  its metrics DIFFER from the CLI's report.json on ${unequal.length} of ${keys.length} keys: ` +
          unequal.slice(0, 5).map((k) => `${k} official ${theirs[k]} CLI ${ours[k]}`).join('; '),
  );
}

export async function run(): Promise<void> {
  await ensureCliBundle({ quiet: false });
  const startRuns = RUNS * 2;
  console.log(`start-up (${load()}):`);
  console.log(`  node -e 0 (Node's own start):  ${fig(timeProcess(process.execPath, ['-e', '0'], startRuns))}`);
  console.log(`  benchlens protocols:           ${fig(timeProcess(process.execPath, [CLI_BUNDLE, 'protocols'], startRuns))}`);
  console.log(`  benchlens --help:              ${fig(timeProcess(process.execPath, [CLI_BUNDLE, '--help'], startRuns))}`);
  console.log(`  npm run -s cli -- protocols:   ${fig(timeProcess('npm', ['run', '-s', 'cli', '--', 'protocols'], 3))} (npm's start included)`);
  const demo = await cliInput('ltb-demo');
  const out = mkdtempSync(join(tmpdir(), 'benchlens-cli-bench-out-'));
  try {
    console.log(`  tiny score (${demo.what}):  ${fig(timeProcess(process.execPath, [CLI_BUNDLE, ...scoreArgs(demo, out)], startRuns))}`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  await scoreFigures('ltb-300x60', 'LTB');
  await scoreFigures('chronicles-700', 'Chronicles-OCR');
}
