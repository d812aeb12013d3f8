/**
 * The compiled CLI: cli/main.ts and everything it imports (the core, clipper2-ts, hyparquet…)
 * bundled by Vite (rolldown) into one plain-JavaScript file, dist-cli/benchlens.mjs, that runs
 * on bare `node` with no source tree, no tsx and no node_modules.
 *
 * Beside it, dist-cli/benchlens.inputs.json lists every file that went into it (each module id
 * the bundler reports, plus this script and package.json) with size, mtime and SHA-1. A bundle
 * is fresh when every listed file still has the same content: the cheap size+mtime check
 * answers for unchanged files, the hash for files only touched (a checkout, `touch`). Plain
 * JavaScript on purpose: it runs before anything is compiled, from `npm run cli` and from the
 * test setup, and must not pay for loading Vite unless it has to build.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_DIR = join(ROOT, 'dist-cli');
export const CLI_BUNDLE = join(CLI_DIR, 'benchlens.mjs');
const INPUTS = join(CLI_DIR, 'benchlens.inputs.json');
/** Files that shape the bundle without being modules in it. */
const BUILD_FILES = ['scripts/cliBundle.mjs', 'package.json', 'package-lock.json'];

const sha1 = (path) => createHash('sha1').update(readFileSync(path)).digest('hex');
const posix = (p) => p.split(sep).join('/');

/**
 * Why the bundle must be (re)built, or null when it is up to date with every input. (The paths
 * are parameters for the tests; the CLI uses the defaults.)
 */
export function staleReason({ bundle = CLI_BUNDLE, inputList = INPUTS, root = ROOT } = {}) {
  if (!existsSync(bundle)) return 'no bundle yet';
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(inputList, 'utf8'));
  } catch {
    return 'no input list';
  }
  for (const f of inputs.files) {
    const abs = resolve(root, f.path);
    let st;
    try {
      st = statSync(abs);
    } catch {
      return `${f.path} is gone`;
    }
    if (st.size === f.size && st.mtimeMs === f.mtimeMs) continue;
    if (st.size !== f.size || sha1(abs) !== f.sha1) return `${f.path} changed`;
  }
  return null;
}

/** What the input list records of each file: enough to tell later whether its content changed. */
export function inputRecords(absPaths, root) {
  return absPaths.map((abs) => {
    const st = statSync(abs);
    return { path: posix(relative(root, abs)), size: st.size, mtimeMs: st.mtimeMs, sha1: sha1(abs) };
  });
}

/** Builds dist-cli/benchlens.mjs (into a private folder first, so concurrent builds never mix). */
export async function buildCliBundle({ quiet = false } = {}) {
  const { build } = await import('vite');
  const tmp = join(CLI_DIR, `.tmp-${process.pid}-${Date.now()}`);
  const result = await build({
    root: ROOT,
    configFile: false,
    logLevel: quiet ? 'silent' : 'warn',
    // Node-side bundle: nothing left external except Node's own modules.
    ssr: { noExternal: true, target: 'node' },
    // fflate's "node" export loads worker_threads through createRequire for its async API, which
    // the core never calls: take its platform-neutral build, the one the page bundles too, so the
    // bundle imports nothing but node: built-ins.
    resolve: { alias: [{ find: /^fflate$/, replacement: join(ROOT, 'node_modules/fflate/esm/browser.js') }] },
    build: {
      ssr: join(ROOT, 'cli/main.ts'),
      outDir: tmp,
      emptyOutDir: true,
      target: 'node20',
      minify: false, // readable stack traces and CPU profiles; start-up is parse-bound either way
      sourcemap: false,
      copyPublicDir: false,
      rolldownOptions: {
        output: { format: 'es', entryFileNames: 'benchlens.mjs', codeSplitting: false, banner: '#!/usr/bin/env node' },
      },
    },
  });
  const output = (Array.isArray(result) ? result[0] : result).output;
  const chunk = output.find((o) => o.type === 'chunk' && o.isEntry);
  const ids = new Set(BUILD_FILES.filter((p) => existsSync(join(ROOT, p))).map((p) => join(ROOT, p)));
  for (const id of chunk.moduleIds) {
    const file = id.split('?')[0];
    if (!file.startsWith('\0') && existsSync(file)) ids.add(file);
  }
  const files = inputRecords([...ids].sort(), ROOT);
  mkdirSync(CLI_DIR, { recursive: true });
  renameSync(join(tmp, 'benchlens.mjs'), CLI_BUNDLE);
  rmSync(tmp, { recursive: true, force: true });
  writeFileSync(INPUTS, JSON.stringify({ files }, null, 1) + '\n');
  return { bundle: CLI_BUNDLE, modules: files.map((f) => f.path) };
}

/** The bundle's path, built first when missing or older than any of its inputs. */
export async function ensureCliBundle({ quiet = true } = {}) {
  const why = staleReason();
  if (why) {
    if (!quiet) process.stderr.write(`benchlens: building the CLI (${why}) …\n`);
    await buildCliBundle({ quiet });
  }
  return CLI_BUNDLE;
}

// `node scripts/cliBundle.mjs`: build unconditionally and say what went in.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { bundle, modules } = await buildCliBundle();
  console.log(`${posix(relative(ROOT, bundle))}: ${modules.length} input files, ${(statSync(bundle).size / 1024).toFixed(0)} KiB`);
}
