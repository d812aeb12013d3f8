/**
 * GT health at scale (issue #40): `lint` on the 20,000-image LTB bench set (bench/ltb.bench.ts
 * `generate`: 20,000 images × 30 GT polygons in all 15 split files, ~15% curved, ~0.5% bow-ties;
 * no image files, so every image is an image_missing finding). Budget: under 15 s, bounded memory.
 *
 * - the compiled CLI as a user runs it (`node dist-cli/benchlens.mjs lint …` on the files written
 *   to the OS temp folder), whole process wall time, its phases and its peak RSS
 *   (BENCHLENS_CLI_TIMINGS=1 prints `timing <phase> <ms>` and `timing peak_rss_mib <n>`);
 * - in this process, lintDataset alone on the loaded dataset, and the longest stretch between two
 *   of its progress reports (the longest piece of work a worker runs without yielding).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CLI_BUNDLE, ensureCliBundle } from '../scripts/cliBundle.mjs';
import { MemorySource } from '../src/core/io/fileSource';
import { ltbAdapter } from '../src/core/benchmarks/ltb';
import { lintDataset } from '../src/core/lint';
import { generate } from './ltb.bench';
import { measure } from './measure';

/** A PNG signature and IHDR chunk: all an image header check reads. */
function pngHeader(width: number, height: number): Uint8Array {
  const b = new Uint8Array(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const dv = new DataView(b.buffer);
  dv.setUint32(16, width);
  dv.setUint32(20, height);
  b.set([8, 2, 0, 0, 0], 24);
  return b;
}

/** The compiled CLI's lint on `dir`, whole process, with its phase times, CPU time and peak RSS. */
function cliLint(dir: string, what: string): void {
  const out = join(dir, 'out');
  const w0 = performance.now();
  const r = spawnSync(process.execPath, [CLI_BUNDLE, 'lint', '--dataset', dir, '--out', out], {
    encoding: 'utf8',
    env: { ...process.env, BENCHLENS_CLI_TIMINGS: '1' },
    maxBuffer: 1 << 26,
  });
  const wall = (performance.now() - w0) / 1000;
  if (r.status !== 0) throw new Error(`lint exited ${r.status}: ${r.stderr}`);
  const timings = Object.fromEntries(
    r.stderr
      .split('\n')
      .map((l) => /^timing (.+) ([\d.]+)$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1], Number(m[2])]),
  );
  console.log(
    `lint: CLI on ${what}: ${wall.toFixed(2)} s wall (budget 15 s), ${(timings.cpu_ms / 1000).toFixed(2)} s CPU, ` +
      `peak RSS ${timings.peak_rss_mib} MiB (load average ${loadavg()[0].toFixed(1)}); ` +
      `phases: open dataset ${(timings['open dataset'] / 1000).toFixed(2)} s, lint ${(timings.lint / 1000).toFixed(2)} s, lint.json ${(timings['lint.json'] / 1000).toFixed(2)} s`,
  );
  console.log(`  ${r.stderr.split('\n').find((l) => l.startsWith('LTB GT health'))}`);
}

export async function run(): Promise<void> {
  const t0 = performance.now();
  const { files, bytes } = generate();
  const dir = mkdtempSync(join(tmpdir(), 'bl-lint-bench-'));
  try {
    for (const [p, b] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, p)), { recursive: true });
      writeFileSync(join(dir, p), b);
    }
    console.log(`generated the LTB bench set: 15 files, ${(bytes / 2 ** 20).toFixed(0)} MiB, in ${((performance.now() - t0) / 1000).toFixed(1)} s (not timed)`);

    await ensureCliBundle({ quiet: true });
    cliLint(dir, 'the bench set (no image files)');
    // The same set with its 20,000 images present, so every image header is read (what a real
    // folder costs beyond the GT): each file is a PNG signature and IHDR (1280 × 720) under the
    // name the GT gives (img_<n>.jpg; the checks go by the bytes, not the extension).
    const png = pngHeader(1280, 720);
    mkdirSync(join(dir, 'anno/hard/images'), { recursive: true });
    for (let i = 1; i <= 20_000; i++) writeFileSync(join(dir, `anno/hard/images/img_${i}.jpg`), png);
    cliLint(dir, 'the bench set with 20,000 image files (PNG headers)');

    // In this process: the lint alone, and its longest stretch without a yield.
    const ds = await ltbAdapter.loadDataset(new MemorySource('ltb-bench', files));
    const src = new MemorySource('ltb-bench', files);
    // Wall time between two progress reports counts the time other processes took the CPU on a
    // busy machine; this process's CPU time between them is the work of one slice.
    let last = 0;
    let lastCpu = 0;
    let longest = 0;
    let longestCpu = 0;
    let slices = 0;
    await measure('lint: lintDataset alone (dataset loaded)', () =>
      lintDataset('ltb', ds, src, {
        progress: () => {
          const now = performance.now();
          const u = process.cpuUsage();
          const cpu = (u.user + u.system) / 1000;
          if (last) {
            longest = Math.max(longest, now - last);
            longestCpu = Math.max(longestCpu, cpu - lastCpu);
            slices++;
          }
          last = now;
          lastCpu = cpu;
        },
      }),
    );
    console.log(
      `  ${slices} slices; the longest between two progress reports: ${longestCpu.toFixed(1)} ms CPU, ${longest.toFixed(1)} ms wall (load average ${loadavg()[0].toFixed(1)})`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
