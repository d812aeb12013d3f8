/**
 * benchlens CLI: the browser's scoring engine over node:fs, for CI pipelines.
 * Exit 0 on success; exit 2 with a one-line reason on unusable input.
 */
import { closeSync, mkdirSync, openSync, statSync, writeFileSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { ADAPTERS, adapterFor } from '../src/core/benchmarks/registry';
import { InputError, type PredictionInput } from '../src/core/model';
import { serializeReport } from '../src/core/report';
import { BenchSession } from '../src/core/session';
import { stem } from '../src/core/io/fileSource';
import { parseArgs, USAGE } from './args';
import { fsReason, kindOf, nodeFileSource, nodeFolderSource } from './nodeSource';

function predictionInput(path: string): PredictionInput {
  const abs = resolve(path);
  let st: Stats;
  try {
    st = statSync(abs);
  } catch (e) {
    throw new InputError(`prediction file ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : `cannot read (${fsReason(e)})`}`);
  }
  if (st.isDirectory()) {
    return { source: nodeFolderSource(abs), path: '', name: basename(abs) };
  }
  if (!st.isFile()) throw new InputError(`prediction file ${path}: ${kindOf(st)}, not a file`);
  // The file alone: its folder is not listed (nor anything in it read).
  const source = nodeFileSource(abs);
  // infer_results/<model>/results.jsonl: a generic file name, so the folder names the model.
  const name = /^(results|predictions|preds)$/i.test(stem(abs)) ? basename(dirname(abs)) : stem(abs);
  return { source, path: basename(abs), name };
}

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
  const session = await BenchSession.open(datasetSource, args.benchmark as never);
  const protocol = session.resolveProtocol(args.protocol, args.options);
  // Predictions that ship inside the dataset folder count only when none are named.
  if (args.preds.length === 0 && !args.noBundled) await session.addBundledPredictions();
  for (const p of args.preds) await session.addPredictions(predictionInput(p));
  if (session.modelNames.length === 0) {
    throw new InputError(`no predictions: give --pred <file-or-dir> (the dataset folder ships none)`);
  }
  const results = await session.score(protocol);
  const report = session.report(protocol, results);
  try {
    mkdirSync(out, { recursive: true });
    writeFileSync(resolve(out, 'report.json'), serializeReport(report));
    writeLines(resolve(out, 'case_analysis.jsonl'), session.eachCaseLine(results));
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
 * Writes lines (each followed by a newline) in 4 MiB batches: a case file can be larger than any
 * one string. Each line is encoded on its own — joining big strings first costs V8 several
 * seconds per GiB, encoding them one by one about one.
 */
function writeLines(path: string, lines: Iterable<string>): void {
  const fd = openSync(path, 'w');
  const newline = Buffer.from('\n');
  try {
    let parts: Buffer[] = [];
    let size = 0;
    const flush = () => {
      writeSync(fd, Buffer.concat(parts, size));
      parts = [];
      size = 0;
    };
    for (const line of lines) {
      const b = Buffer.from(line, 'utf8');
      parts.push(b, newline);
      size += b.length + 1;
      if (size >= 4 << 20) flush();
    }
    if (size > 0) flush();
  } finally {
    closeSync(fd);
  }
}
