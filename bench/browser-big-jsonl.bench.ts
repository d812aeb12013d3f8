/**
 * Issue 6 in the page: a 1 GiB LTB MMOCR JSONL (10,000 images × 10 words, e2e/bigLtb.ts, kept in
 * os.tmpdir() and reused while its stamp matches) is added through the file input of the built
 * app in real Chromium. Prints the time to read it (status bar "Adding predictions") and to a
 * scored report, the read rate in MiB/s, the longest main-thread task meanwhile (PerformanceObserver
 * 'longtask', with a calibration probe), and the peak resident memory of the Chromium processes
 * (VmRSS of every descendant of this Node process, from /proc, sampled every 200 ms).
 *
 * Builds the current source into a private folder (BENCH_DIST, default
 * <tmp>/benchlens-bench-big-jsonl-dist) served on its own port, so it never races other builds of
 * dist/; BENCH_NO_BUILD=1 reuses that folder. BENCHLENS_BIG_JSONL_BYTES overrides the size.
 * BENCH_PROFILE=1 builds unminified and prints the main thread's heaviest functions in every busy
 * stretch from the end of the read to the case list (CDP Profiler). BENCH_TRACE=1 records a
 * Chromium trace over the same span and prints what each main-thread task over 25 ms spent its
 * time on (script, style, layout, paint, GC, message deserialisation …).
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { writeBigLtb } from '../e2e/bigLtb';
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/chromium';
import { printHeaviest, profileTree, type CpuProfile } from './cpuProfile';
import { serveBuiltApp } from './servedApp';

const BYTES = Number(process.env.BENCHLENS_BIG_JSONL_BYTES ?? 2 ** 30);
const MIB = 2 ** 20;

export async function run(): Promise<void> {
  const dir = join(tmpdir(), `benchlens-big-jsonl-${BYTES}`);
  mkdirSync(dir, { recursive: true });
  let t = performance.now();
  const big = writeBigLtb({ dir, images: 10_000, words: 10, predBytes: BYTES });
  console.log(`prediction file: ${(big.predBytes / MIB).toFixed(0)} MiB, ${big.lines} lines, ${big.polygons.toLocaleString('en')} polygons (${((performance.now() - t) / 1000).toFixed(1)} s to generate or reuse)`);

  const profiling = process.env.BENCH_PROFILE === '1';
  const tracing = process.env.BENCH_TRACE === '1';
  const server = await serveBuiltApp('benchlens-bench-big-jsonl-dist');
  const url = server.url;
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  const rss = new RssSampler();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.addInitScript({
      content: `window.__longest = 0;
        window.__tasks = [];
        window.__resetLongest = () => { window.__longest = 0; window.__tasks = []; };
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) {
            window.__longest = Math.max(window.__longest, e.duration);
            // Name a task by the app's mark inside it (src/app/store/actions.ts), if any.
            const m = performance.getEntriesByType('mark').filter((k) => k.name.startsWith('benchlens:') && k.startTime >= e.startTime && k.startTime <= e.startTime + e.duration);
            window.__tasks.push({ ms: Math.round(e.duration), at: e.startTime, marks: m.map((k) => k.name.slice(10)) });
          }
        }).observe({ type: 'longtask', buffered: true });`,
    });
    await page.goto(url);
    t = performance.now();
    await page.locator('[data-testid="dataset-folder-input"]').setInputFiles(big.dataset);
    await page.locator('[data-testid="dataset-summary"]').filter({ hasText: 'LTB' }).waitFor({ timeout: 600_000 });
    console.log(`opened the dataset folder (15 GT files): ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    await page.evaluate('window.__resetLongest()');
    const before = rss.sample();
    rss.start();

    t = performance.now();
    const pageT0 = (await page.evaluate('performance.now()')) as number;
    await page.locator('[data-testid="prediction-files-input"]').setInputFiles(big.predictions);
    // Read done = the status bar stops saying "Adding predictions" (it then says "Scoring").
    let readEnd = 0;
    let pageReadEnd = 0;
    let lastMib = '';
    for (;;) {
      const label = (await page.evaluate(`document.querySelector('[role=status].scoring')?.getAttribute('aria-label') ?? ''`)) as string;
      if (label === 'Adding predictions') {
        lastMib = ((await page.evaluate(`document.querySelector('[role=status].scoring')?.textContent ?? ''`)) as string).match(/[\d,]+\/[\d,]+ MiB/)?.[0] ?? lastMib;
      } else if (performance.now() - t > 2_000 || label === 'Scoring') {
        readEnd = performance.now();
        pageReadEnd = (await page.evaluate('performance.now()')) as number;
        // Profile only what follows the read: the read itself is idle on the main thread.
        if (tracing) await browser.startTracing(page, { categories: TRACE_CATEGORIES });
        if (profiling) {
          await cdp.send('Profiler.enable');
          await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
          await cdp.send('Profiler.start');
        }
        break;
      }
      await page.waitForTimeout(100);
    }
    const err = await page.locator('[role=alert]').allTextContents();
    await page.locator('[data-testid="report-protocol"]').waitFor({ timeout: 1_800_000 });
    await page.locator('[data-testid="case-count"]').waitFor({ timeout: 300_000 }).catch(() => undefined);
    const scored = performance.now();
    await page.waitForTimeout(500);
    rss.stop();
    let profile: CpuProfile | undefined;
    if (profiling) {
      profile = ((await cdp.send('Profiler.stop')) as { profile: CpuProfile }).profile;
      if (!tracing) printHeaviest(profile, 25, 0.3);
    }
    if (tracing) {
      const dom = await page.evaluate(`[...document.querySelectorAll('main > *, .sidebar > *')].map((e) => (e.getAttribute('aria-label') || e.className || e.tagName) + ' ' + e.querySelectorAll('*').length).join(', ') + ' — page ' + document.querySelectorAll('*').length`);
      console.log(`elements: ${String(dom)}`);
    }
    if (tracing) printLongTasks(JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] }, profile);
    const longest = (await page.evaluate('window.__longest')) as number;
    const tasks = ((await page.evaluate('window.__tasks')) as { ms: number; at: number; marks: string[] }[]).map(
      (k) => `${k.ms} (${k.at < pageReadEnd ? 'read' : 'score/show'} at ${((k.at - pageT0) / 1000).toFixed(1)} s${k.marks.length ? `, ${k.marks.join(', ')}` : ''})`,
    );
    await page.evaluate('window.__resetLongest(); setTimeout(() => { const t0 = performance.now(); while (performance.now() - t0 < 120); }, 0)');
    await page.waitForTimeout(400);
    const probe = (await page.evaluate('window.__longest')) as number;
    const hmean = await page.locator('td[data-key="norm/hmean"]').first().getAttribute('title');

    const read = (readEnd - t) / 1000;
    console.log(`read ${(big.predBytes / MIB).toFixed(0)} MiB in the worker: ${read.toFixed(1)} s = ${(big.predBytes / MIB / read).toFixed(1)} MiB/s (last progress seen: ${lastMib || 'none'})${err.length ? ` — alerts: ${err.join(' | ')}` : ''}`);
    console.log(`read + score + case list: ${((scored - t) / 1000).toFixed(1)} s (score + show: ${((scored - readEnd) / 1000).toFixed(1)} s; ${hmean})`);
    const ms = (v: number) => (v > 0 ? `${v.toFixed(0)} ms` : 'under 50 ms (no long task)');
    console.log(`longest main-thread task while reading and scoring: ${ms(longest)}; tasks over 50 ms: ${tasks.join('; ') || 'none'}`);
    console.log(`  (observer check: a deliberate 120 ms busy loop was reported as ${probe.toFixed(0)} ms)`);
    console.log(
      `Chromium resident memory: ${mib(before.total)} before adding; peak ${mib(rss.peak.total)} summed over ${rss.peak.count} processes (largest single process ${mib(rss.peakSingle)}) — the sum counts shared pages in every process that maps them`,
    );
    console.log(`  machine: ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  } finally {
    rss.stop();
    await browser.close();
    await server.close();
  }
}


const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink', 'toplevel'];

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; functionName?: string; type?: string } };
}

/** Every main-thread task over 25 ms of the trace, with the time of its direct and nested events by name. */
function printLongTasks(trace: { traceEvents: TraceEvent[] }, profile?: CpuProfile): void {
  const ev = trace.traceEvents;
  const main = new Set(ev.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const onMain = ev.filter((e) => main.has(`${e.pid}:${e.tid}`) && e.ph === 'X' && e.dur !== undefined);
  const tasks = onMain.filter((e) => e.name === 'RunTask' && e.dur! > 25_000);
  const t0 = onMain.reduce((m, e) => Math.min(m, e.ts), Infinity);
  const threadName = new Map(ev.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args?.name ?? '']));
  for (const t of tasks) {
    const inside = onMain.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur! <= t.ts + t.dur!);
    const by = new Map<string, number>();
    for (const e of inside) {
      const extra = e.args?.data?.functionName || e.args?.data?.type || '';
      const key = extra ? `${e.name}(${extra})` : e.name;
      by.set(key, (by.get(key) ?? 0) + e.dur! / 1000);
    }
    const top = [...by].sort((a, b) => b[1] - a[1]).slice(0, 16).map(([k, v]) => `${v.toFixed(0)} ${k}`).join(' | ');
    console.log(`task of ${(t.dur! / 1000).toFixed(0)} ms at +${((t.ts - t0) / 1e6).toFixed(2)} s: ${top}`);
    // What the renderer's other threads (the worker, V8's GC helpers) did meanwhile: they share the cores.
    const others = new Map<string, number>();
    for (const e of ev) {
      if (e.pid !== t.pid || e.tid === t.tid || e.ph !== 'X' || e.dur === undefined || !/^(RunTask|ThreadControllerImpl::RunTask|V8\.GC.*|MajorGC|MinorGC|ThreadPool_RunTask)$/.test(e.name)) continue;
      const overlap = Math.min(e.ts + e.dur, t.ts + t.dur!) - Math.max(e.ts, t.ts);
      if (overlap <= 0) continue;
      const k = `${threadName.get(`${e.pid}:${e.tid}`) ?? e.tid}/${e.name}`;
      others.set(k, (others.get(k) ?? 0) + overlap / 1000);
    }
    console.log(`   meanwhile elsewhere in the renderer: ${[...others].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, v]) => `${v.toFixed(0)} ${k}`).join(' | ') || 'nothing'}`);
    if (profile) {
      // The profile's clock is the trace's: pick its samples inside this task.
      const { parent, label } = profileTree(profile);
      const self = new Map<string, number>();
      const inclusive = new Map<string, number>();
      let at = profile.startTime;
      profile.samples.forEach((id, k) => {
        at += profile.timeDeltas[k];
        if (at < t.ts || at > t.ts + t.dur!) return;
        const dt = (profile.timeDeltas[k + 1] ?? 0) / 1000;
        self.set(label(id), (self.get(label(id)) ?? 0) + dt);
        const seen = new Set<string>();
        for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
          const l = label(n);
          if (seen.has(l) || !/\.js:/.test(l) || /^\(/.test(l)) continue;
          seen.add(l);
          inclusive.set(l, (inclusive.get(l) ?? 0) + dt);
        }
      });
      const list = (m: Map<string, number>) =>
        [...m]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 20)
          .map(([name, v]) => `${v.toFixed(0)} ${name}`)
          .join(' | ');
      console.log(`   self: ${list(self)}`);
      console.log(`   inclusive: ${list(inclusive)}`);
    }
  }
}

const mib = (kib: number) => `${(kib / 1024).toFixed(0)} MiB`;

/** VmRSS (KiB) of the Chromium processes among this process's descendants (browser, renderers, GPU, utility). */
class RssSampler {
  peak = { total: 0, count: 0 };
  peakSingle = 0;
  private timer: ReturnType<typeof setInterval> | null = null;

  start(): void {
    this.timer = setInterval(() => {
      const s = this.sample();
      if (s.total > this.peak.total) this.peak = { total: s.total, count: s.count };
      this.peakSingle = Math.max(this.peakSingle, s.max);
    }, 200);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  sample(): { total: number; max: number; count: number } {
    const parent = new Map<number, number>();
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        // The command may hold spaces and parentheses: the fields after the last ')' are fixed.
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      } catch {
        // the process ended meanwhile
      }
    }
    const mine = new Set<number>([process.pid]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const [pid, ppid] of parent) {
        if (mine.has(ppid) && !mine.has(pid)) {
          mine.add(pid);
          grew = true;
        }
      }
    }
    mine.delete(process.pid);
    let total = 0, max = 0, count = 0;
    for (const pid of mine) {
      try {
        // Only Chromium's processes (not e.g. the esbuild service tsx runs beside us).
        if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chrom')) continue;
        const kib = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
        total += kib;
        max = Math.max(max, kib);
        count++;
      } catch {
        // ended meanwhile
      }
    }
    return { total, max, count };
  }
}
