/**
 * benchlens CLI: the browser's scoring engine over node:fs, for CI pipelines.
 * Exit 0 on success; exit 2 with a one-line reason on unusable input.
 */
import { closeSync, mkdirSync, openSync, statSync, writeFileSync, writeSync, type Stats } from 'node:fs';
import { resolve } from 'node:path';
import { ADAPTERS, adapterFor } from '../src/core/benchmarks/registry';
import { InputError } from '../src/core/model';
import { serializeReport } from '../src/core/report';
import { BenchSession } from '../src/core/session';
import { computeUncertainty, uncertaintyOptions } from '../src/core/uncertainty';
import { parseArgs, USAGE, type LintArgs } from './args';
import { lintDataset, serializeLintReport } from '../src/core/lint';
import { fsReason, kindOf, nodeFolderSource } from './nodeSource';
import { predictionInput } from './predictionInput';

/** `--out` must be a folder or not exist yet; checked before any scoring so no work is lost to it. */
function checkOutputFolder(path: string): string {
  const out = resolve(path);
  let st: Stats | undefined;
  try {
    st = statSync(out);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new InputError(`--out ${path}: cannot use (${fsReason(e)})`);
  }
  if (st && !st.isDirectory()) throw new InputError(`--out ${path}: ${st.isFile() ? 'a file' : kindOf(st)}, not a folder`);
  return out;
}

/**
 * BENCHLENS_CLI_TIMINGS=1 prints each phase's wall time to stderr (`timing <phase> <ms>`), for
 * `npm run bench`; otherwise a phase is just the call.
 */
const TIMINGS = process.env.BENCHLENS_CLI_TIMINGS === '1';
async function phase<T>(name: string, fn: () => T | Promise<T>): Promise<T> {
  if (!TIMINGS) return fn();
  const t0 = performance.now();
  const out = await fn();
  console.error(`timing ${name} ${(performance.now() - t0).toFixed(1)}`);
  return out;
}

/**
 * The dataset folder and `--out` checks shared by `score` and `lint`: exit 2 (InputError) with one
 * line for a missing folder, an unusable --out, or a folder that holds no readable benchmark.
 */
async function openDataset(args: { dataset: string; out: string; benchmark?: string }): Promise<{ session: BenchSession; out: string }> {
  const datasetDir = resolve(args.dataset);
  let dst: Stats;
  try {
    dst = statSync(datasetDir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(`dataset ${args.dataset}: ${code === 'ENOENT' || code === 'ENOTDIR' ? 'not a folder' : `cannot read (${fsReason(e)})`}`);
  }
  if (!dst.isDirectory()) throw new InputError(`dataset ${args.dataset}: not a folder`);
  const out = checkOutputFolder(args.out);
  let datasetSource;
  try {
    datasetSource = nodeFolderSource(datasetDir);
  } catch (e) {
    if (e instanceof InputError) throw new InputError(`dataset ${e.message}`);
    throw e;
  }
  const session = await phase('open dataset', () => BenchSession.open(datasetSource, args.benchmark as never));
  return { session, out };
}

/** `lint`: GT health of the dataset alone (shared/specs/lint.md); exit 0 whatever it finds. */
async function lint(args: LintArgs): Promise<number> {
  const { session, out } = await openDataset(args);
  const report = await phase('lint', () => lintDataset(session.adapter.id, session.dataset, session.source));
  try {
    await phase('lint.json', () => {
      mkdirSync(out, { recursive: true });
      writeFileSync(resolve(out, 'lint.json'), serializeLintReport(report));
    });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === undefined) throw e;
    throw new InputError(`--out ${args.out}: cannot write (${fsReason(e)})`);
  }
  if (TIMINGS) {
    const ru = process.resourceUsage();
    console.error(`timing peak_rss_mib ${(ru.maxRSS / 1024).toFixed(0)}`);
    console.error(`timing cpu_ms ${((ru.userCPUTime + ru.systemCPUTime) / 1000).toFixed(0)}`);
  }
  const errors = report.findings.filter((f) => f.severity === 'error').length;
  const kinds = Object.entries(report.counts).map(([k, n]) => `${n} ${k}`).join(', ');
  console.error(
    `${session.adapter.title} GT health: ${report.dataset.cases} cases, ${report.dataset.instances} GT instances; ` +
      `${report.findings.length} finding(s) (${errors} error(s))${kinds ? `: ${kinds}` : ''} → ${resolve(out, 'lint.json')}`,
  );
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  if (args.command === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (args.command === 'protocols') {
    const list = args.benchmark ? [adapterFor(args.benchmark)] : ADAPTERS;
    for (const a of list) {
      console.log(`${a.id} (${a.title})`);
      for (const p of a.protocols) {
        console.log(`  --protocol ${p.name}${p.default ? ' (default)' : ''}: ${p.description}`);
        for (const o of p.options) console.log(`    --option ${o.key}=… (default ${String(o.default)}): ${o.help}`);
      }
    }
    return 0;
  }
  if (args.command === 'lint') return lint(args);
  const { session, out } = await openDataset(args);
  const protocol = session.resolveProtocol(args.protocol, args.options);
  await phase('read predictions', async () => {
    // Predictions that ship inside the dataset folder count only when none are named.
    if (args.preds.length === 0 && !args.noBundled) await session.addBundledPredictions();
    for (const p of args.preds) await session.addPredictions(predictionInput(p));
  });
  if (session.modelNames.length === 0) {
    throw new InputError(`no predictions: give --pred <file-or-dir> (the dataset folder ships none)`);
  }
  const results = await phase('score', () => session.score(protocol));
  // Intervals and paired tests (shared/specs/uncertainty.md) on what scoring recorded per unit.
  const ciOptions = uncertaintyOptions(protocol);
  const uncertainty = ciOptions
    ? await phase('uncertainty', () => computeUncertainty(session.adapter.id, session.dataset, results, protocol, ciOptions))
    : undefined;
  try {
    await phase('report.json', () => {
      const report = session.report(protocol, results);
      if (uncertainty) report.uncertainty = uncertainty;
      mkdirSync(out, { recursive: true });
      writeFileSync(resolve(out, 'report.json'), serializeReport(report));
    });
    await phase('case_analysis.jsonl', () => writeLines(resolve(out, 'case_analysis.jsonl'), session.eachCaseLine(results)));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === undefined) throw e;
    throw new InputError(`--out ${args.out}: cannot write (${fsReason(e)})`);
  }
  const warnings = results.reduce((n, r) => n + r.warnings.length, 0) + session.info.warnings.length;
  console.error(
    `${session.adapter.title}: ${session.info.summary}; ${results.length} model(s) scored with ${protocol.name}` +
      `${warnings ? `, ${warnings} warning(s) in report.json` : ''} → ${out}`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof InputError) {
      console.error(`benchlens: ${e.message.split('\n')[0]}`);
      if (e.message.includes('\n')) console.error(e.message.split('\n').slice(1).join('\n'));
      process.exit(2);
    }
    // A file-system error that escaped the checks above is still the user's input, in one line.
    const fsErr = e as NodeJS.ErrnoException;
    if (fsErr && typeof fsErr.code === 'string' && typeof fsErr.syscall === 'string') {
      console.error(`benchlens: ${fsErr.path ?? ''}${fsErr.path ? ': ' : ''}${fsReason(e)} (${fsErr.syscall})`);
      process.exit(2);
    }
    console.error(e);
    process.exit(1);
  },
);

/**
 * Writes lines (each followed by a newline) through one 4 MiB buffer: a case file can be larger
 * than any one string. Each line is UTF-8-encoded straight into the buffer (Buffer#write), so a
 * line is copied once, with no per-line Buffer and no concatenation; a line that might not fit
 * in what is left (up to 3 bytes per UTF-16 unit) flushes first, one bigger than the buffer is
 * written on its own.
 */
function writeLines(path: string, lines: Iterable<string>): void {
  const SIZE = 4 << 20;
  const fd = openSync(path, 'w');
  const buf = Buffer.allocUnsafe(SIZE);
  let used = 0;
  const flush = () => {
    let off = 0;
    while (off < used) off += writeSync(fd, buf, off, used - off);
    used = 0;
  };
  try {
    for (const line of lines) {
      if (used + 3 * line.length + 1 > SIZE) {
        flush();
        if (3 * line.length + 1 > SIZE) {
          const big = Buffer.from(line + '\n', 'utf8');
          let off = 0;
          while (off < big.length) off += writeSync(fd, big, off, big.length - off);
          continue;
        }
      }
      used += buf.write(line, used, 'utf8');
      buf[used++] = 10;
    }
    flush();
  } finally {
    closeSync(fd);
  }
}
