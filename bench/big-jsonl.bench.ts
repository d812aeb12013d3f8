/**
 * Issue #6 "a 1 GB JSONL streams without freezing the page", measured the way the CLI runs it:
 * for each benchmark a ~1 GiB prediction JSONL (realistic for that benchmark: long reasoning
 * text, many lines) is written to os.tmpdir() against a generated dataset of matching size, then
 * a fresh child process (`node --expose-gc --import tsx`, default heap limit) goes open → add
 * predictions → score → report.json → case_analysis.jsonl over the streaming Node FileSource.
 * One child per benchmark, so an out-of-memory death costs only that benchmark's row.
 *
 * Figures per benchmark: file size, lines, read time + MiB/s, heap after read, score time, case
 * export time, peak RSS (the kernel's high-water mark: process.resourceUsage().maxRSS in the
 * child; /proc/<pid>/status VmHWM polled by the parent when the child dies).
 *
 * Environment: BIG_JSONL_MIB (prediction size, default 1024), BIG_JSONL_ONLY (comma-separated
 * names), BIG_JSONL_KEEP=1 keeps (and reuses) the generated files in os.tmpdir()/benchlens-big-jsonl.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../src/core/random';
import type { BenchmarkId } from '../src/core/model';

const HERE = fileURLToPath(import.meta.url);
const ROOT = dirname(dirname(HERE));
const MIB = 2 ** 20;
const CHILD_FLAG = '--big-jsonl-child';
const NAMES = ['chronicles', 'tabench', 'gansulishuzhi', 'pulsebench-select', 'ltb'] as const;
type Name = (typeof NAMES)[number];

interface Generated {
  benchmark: BenchmarkId;
  dataset: string;
  predictions: string;
  lines: number;
  note: string;
}

const targetBytes = () => Math.round(Number(process.env.BIG_JSONL_MIB ?? 1024) * MIB);
const workDir = (name: Name) => join(tmpdir(), 'benchlens-big-jsonl', `${name}-${process.env.BIG_JSONL_MIB ?? 1024}`);

/**
 * Strings encoded one by one and written 4 MiB at a time: the file is never held whole. Each
 * string is encoded by itself — Array#join over big strings costs 7–14 s of CPU per GiB in V8,
 * ten times the UTF-8 encoding.
 */
class Out {
  private fd: number;
  private parts: Buffer[] = [];
  private pending = 0;
  bytes = 0;
  lines = 0;
  constructor(path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'w');
  }
  line(s: string): void {
    this.write(s);
    this.write('\n');
    this.lines++;
  }
  write(s: string): void {
    const b = Buffer.from(s, 'utf8');
    this.parts.push(b);
    this.pending += b.length;
    if (this.pending > 4 * MIB) this.flush();
  }
  private flush(): void {
    const buf = Buffer.concat(this.parts, this.pending);
    writeSync(this.fd, buf);
    this.bytes += buf.length;
    this.parts = [];
    this.pending = 0;
  }
  close(): number {
    this.flush();
    closeSync(this.fd);
    return this.bytes;
  }
}

// ---------------------------------------------------------------- reasoning text

const ZH = [
  '首先观察图像的整体布局，', '这一列的字形与甲骨文的刻划特征相符，', '笔画细而直，转折处多为方折。', '第二个字上部像“日”，下部有一横，',
  '结合上下文，这里应当是干支纪日。', '不过也可能是“曰”，需要再看。', '\n\n再核对一遍坐标：', '左上角大约在 (120, 48)，右下角约在 (236, 190)，',
  '换算到 0–1000 的坐标系需要除以宽高。', '这一行的“贞”字写法较为规整；', '“亡”字的竖笔略有残缺，但可以辨认。', '用户要求输出 JSON，',
  '所以我应该按照 {"idx", "bbox", "char"} 的格式给出。', '注意不要遗漏最后一个残字，', '它无法辨认，应标为 [UNK]。', '\n综上，',
  '页面中部有一张照片，下方是图注，', '图的边框比正文区域略宽，', '表格不算作图，', '右栏的插图与正文之间有一条细线分隔。',
];
const EN = [
  'Let me look at the region carefully. ', 'The box covers the upper-left part of the receipt, ', 'where the store name is printed in bold. ',
  'The characters look like "SAFEWAY" but the second letter could be an "A" or a "4". ', '\n\nNow, the coordinates are given in 0-1000 space, ',
  'so x=344 means about a third of the width. ', 'I should answer with the exact text and nothing else. ', 'Wait, the question asks "where", so it wants a box: ',
  'I will output JSON like [x1, y1, x2, y2]. ', 'Checking again: the line below reads "Total" followed by an amount. ', 'The option "Married filing jointly" has a tick mark; ',
  '"Single" is empty. ', 'The checkbox next to "Email" is filled, so it is selected. ', 'Hmm, there are two boxes with the same label; ', 'I need both of them.\n',
];

/** About `chars` characters of pseudo-random prose from `phrases`, deterministic for `seed`. */
function pool(phrases: readonly string[], chars: number, seed: number): string {
  const rand = mulberry32(seed);
  const parts: string[] = [];
  let n = 0;
  while (n < chars) {
    const p = phrases[Math.floor(rand() * phrases.length)];
    parts.push(p);
    n += p.length;
  }
  return parts.join('');
}

/** A slice of the pool: cheap (no new text is built per line), different per line. */
function reasoning(text: string, rand: () => number, chars: number): string {
  const len = Math.max(1, Math.round(chars * (0.6 + rand() * 0.8)));
  const at = Math.floor(rand() * Math.max(1, text.length - len));
  return text.slice(at, at + len);
}

const zhBytes = (s: string) => Buffer.byteLength(s, 'utf8');

// ---------------------------------------------------------------- generators

/** Chronicles-OCR: 14,000 images (2,000 per script), every task record with long `thinking`. */
async function genChronicles(dir: string): Promise<Generated> {
  const { generateChronicles } = await import('../src/core/benchmarks/chronicles/demo');
  const { decodeText } = await import('../src/core/io/text');
  const src = await generateChronicles({ perScript: 2000, images: 'stub', seed: 5 });
  const dataset = join(dir, 'chronicles');
  for (const e of src.list()) {
    if (e.path.startsWith('infer_results/')) continue;
    mkdirSync(dirname(join(dataset, e.path)), { recursive: true });
    writeFileSync(join(dataset, e.path), await src.read(e.path));
  }
  const template = decodeText(await src.read('infer_results/model-a/results.jsonl')).split('\n').filter((l) => l !== '');
  const records = template.reduce((n, l) => n + Object.keys((JSON.parse(l) as { infer_results: object }).infer_results).length, 0);
  const text = pool(ZH, 400_000, 1);
  const perRecordBytes = (targetBytes() - template.reduce((n, l) => n + zhBytes(l) + 1, 0)) / records;
  const chars = Math.max(1, Math.round(perRecordBytes / zhBytes(text.slice(0, 3000)) * 3000));
  const rand = mulberry32(2);
  const predictions = join(dir, 'preds', 'thinker', 'results.jsonl');
  const out = new Out(predictions);
  for (const l of template) {
    const row = JSON.parse(l) as { infer_results: Record<string, { thinking: string }> };
    for (const rec of Object.values(row.infer_results)) rec.thinking = reasoning(text, rand, chars);
    out.line(JSON.stringify(row));
  }
  out.close();
  return { benchmark: 'chronicles', dataset, predictions, lines: out.lines, note: `${template.length} images, ${records} task records, thinking ~${chars} chars each` };
}

/** TABench: 50,000 queries (rel1000), every response a `<think>` block plus the answer. */
async function genTabench(dir: string): Promise<Generated> {
  const { generateTabench } = await import('../src/core/benchmarks/tabench/demo');
  const g = await generateTabench({ queries: 50_000, images: 200 });
  const dataset = join(dir, 'TABench');
  for (const [p, v] of Object.entries(g.dataset)) {
    mkdirSync(dirname(join(dataset, p)), { recursive: true });
    writeFileSync(join(dataset, p), v);
  }
  const template = g.predictions['demo-thinker-rel1000'].text.split('\n').filter((l) => l !== '');
  const text = pool(EN, 400_000, 3);
  const chars = Math.max(1, Math.round((targetBytes() - template.reduce((n, l) => n + l.length + 1, 0)) / template.length));
  const rand = mulberry32(4);
  const predictions = join(dir, 'infer_output', 'thinker', 'TABench-rel1000_with_predictions.jsonl');
  const out = new Out(predictions);
  for (const l of template) {
    const row = JSON.parse(l) as { response: string };
    row.response = `<think>${reasoning(text, rand, chars)}</think>\n${row.response.replace(/^<think>[\s\S]*?<\/think>\n?/, '')}`;
    out.line(JSON.stringify(row));
  }
  out.close();
  return { benchmark: 'tabench', dataset, predictions, lines: out.lines, note: `${template.length} queries, reasoning ~${chars} chars per line` };
}

/** gansulishuzhi: 40,000 pages (stub page images), each response long Chinese reasoning + boxes. */
async function genGansu(dir: string): Promise<Generated> {
  const PAGES = 40_000;
  const rand = mulberry32(5);
  const dataset = join(dir, 'gansulishuzhi');
  mkdirSync(join(dataset, 'pages'), { recursive: true });
  const manifest = new Out(join(dataset, 'manifest.jsonl'));
  const gts: number[][][] = [];
  const stub = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
  for (let i = 0; i < PAGES; i++) {
    const id = `page_${String(i + 1).padStart(5, '0')}`;
    const n = Math.floor(rand() * 3);
    const boxes = Array.from({ length: n }, (_, k) => {
      const y = 80 + k * 420 + Math.floor(rand() * 60);
      const x = 60 + Math.floor(rand() * 60);
      return [x, y, x + 300 + Math.floor(rand() * 260), y + 200 + Math.floor(rand() * 150)];
    });
    gts.push(boxes);
    manifest.line(JSON.stringify({ id, page: i + 1, image_path: `pages/${id}.png`, image_size_px: [698, 1019], gt_bboxes: boxes }));
    writeFileSync(join(dataset, 'pages', `${id}.png`), stub);
  }
  manifest.close();
  const text = pool(ZH, 400_000, 6);
  const chars = Math.max(1, Math.round(targetBytes() / PAGES / 3));
  const predictions = join(dir, 'runs', 'thinker.jsonl');
  const out = new Out(predictions);
  gts.forEach((boxes, i) => {
    const id = `page_${String(i + 1).padStart(5, '0')}`;
    const found = boxes.filter(() => rand() < 0.85).map((b) => b.map((v) => Math.round(v + (rand() - 0.5) * 20)));
    if (rand() < 0.1) found.push([100, 100, 300, 260]);
    const answer = i % 3 === 0 ? '```json\n' + JSON.stringify(found) + '\n```' : i % 3 === 1 ? JSON.stringify(found.map((b) => ({ bbox_2d: b }))) : `页面中的图：${JSON.stringify(found)}。`;
    const key = i % 5 === 0 ? { id } : { image_path: `pages/${id}.png` };
    out.line(JSON.stringify({ ...key, response: `<think>\n${reasoning(text, rand, chars)}\n</think>\n${answer}` }));
  });
  out.close();
  return { benchmark: 'gansulishuzhi', dataset, predictions, lines: out.lines, note: `${PAGES} pages, reasoning ~${chars} chars per line` };
}

/** PulseBench-Select: 20,000 form samples (JSONL export), every candidate judged with a rationale. */
async function genPulse(dir: string): Promise<Generated> {
  const SAMPLES = 20_000;
  const WORDS = ['yes', 'no', 'full', 'time', 'part', 'married', 'filing', 'jointly', 'separately', 'email', 'phone', 'mail', 'fever', 'cough', 'b)', '56', 'carbon', 'dioxide'];
  const rand = mulberry32(7);
  const label = () => Array.from({ length: 1 + Math.floor(rand() * 4) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
  const box = (x: number, y: number) => [x, y, x + 0.1, y, x + 0.1, y + 0.015, x, y + 0.015].map((v) => Math.round(v * 1e4) / 1e4);
  const dataset = join(dir, 'pulsebench-select');
  const data = new Out(join(dataset, 'data', 'train.jsonl'));
  const text = pool(EN, 400_000, 8);
  const predictions = join(dir, 'preds', 'vlm-thinker.jsonl');
  const out = new Out(predictions);
  // Bytes per line apart from the reasoning, measured on the first line, sets the reasoning length.
  let chars = 0;
  for (let i = 0; i < SAMPLES; i++) {
    const id = `s-${String(i).padStart(5, '0')}`;
    const annotations: Record<string, unknown>[] = [];
    for (let k = 0; k < 30; k++) {
      const cand = k % 3 !== 0;
      annotations.push({ category: cand ? 'List-item' : 'Text', bbox: box(0.1 + (k % 5) * 0.15, 0.05 + Math.floor(k / 5) * 0.12), content: label(), page: 1, selected: cand && rand() < 0.2, selection_candidate: cand });
    }
    const sel = annotations.filter((a) => a.selected).map((a) => ({ page: 1, bbox: a.bbox, content: a.content, category: a.category }));
    data.line(JSON.stringify({ sample_id: id, ground_truth: JSON.stringify({ page_count: 1, annotations, selected_items: sel }) }));
    // Every candidate with the model's verdict (mostly right), plus the model's raw reasoning.
    const items = annotations
      .filter((a) => a.selection_candidate)
      .map((a) => {
        const selected = rand() < 0.9 ? a.selected : !a.selected;
        return rand() < 0.3 ? { content: a.content, selected } : { page: 1, bbox: (a.bbox as number[]).map((v) => Math.round((v + 0.003) * 1e4) / 1e4), content: a.content, selected };
      });
    const line = { sample_id: id, selected_items: items, reasoning: '' };
    if (i === 0) chars = Math.max(1, Math.round(targetBytes() / SAMPLES - JSON.stringify(line).length));
    line.reasoning = reasoning(text, rand, chars);
    out.line(JSON.stringify(line));
  }
  data.close();
  out.close();
  return { benchmark: 'pulsebench-select', dataset, predictions, lines: out.lines, note: `${SAMPLES} samples × 20 candidates, reasoning ~${chars} chars per line` };
}

async function genLtb(dir: string): Promise<Generated> {
  const { writeBigLtb } = await import('../e2e/bigLtb');
  const g = writeBigLtb({ dir, images: 10_000, words: 10, predBytes: targetBytes() });
  return { benchmark: 'ltb', dataset: g.dataset, predictions: g.predictions, lines: g.lines, note: `10,000 images × 10 words, ${g.polygons} polygons` };
}

const GENERATORS: Record<Name, (dir: string) => Promise<Generated>> = {
  chronicles: genChronicles,
  tabench: genTabench,
  gansulishuzhi: genGansu,
  'pulsebench-select': genPulse,
  ltb: genLtb,
};

// ---------------------------------------------------------------- the measured child

interface Phase {
  phase: string;
  seconds: number;
  /** CPU time of the phase (user + system, all threads): the figure that stays meaningful on a busy machine. */
  cpuSeconds: number;
  /** Kernel high-water mark of this process after the phase. */
  peakRssMiB: number;
  heapMiB: number;
}

const peakRss = () => process.resourceUsage().maxRSS / 1024;
/** Live memory after a full GC: the V8 heap plus ArrayBuffer contents (typed arrays live outside the heap). */
const heap = () => {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / MIB;
};

async function measureChild(name: Name): Promise<void> {
  const { BenchSession } = await import('../src/core/session');
  const { nodeFolderSource } = await import('../cli/nodeSource');
  const { singleFileSource } = await import('../src/core/io/fileSource');
  const { serializeReport } = await import('../src/core/report');
  const g = JSON.parse(readFileSync(join(workDir(name), 'generated.json'), 'utf8')) as Generated;
  const phases: Phase[] = [];
  const step = async <T>(phase: string, fn: () => Promise<T> | T): Promise<T> => {
    console.log(`@@phase ${phase}`);
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const out = await fn();
    const seconds = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    phases.push({ phase, seconds, cpuSeconds: (c.user + c.system) / 1e6, peakRssMiB: peakRss(), heapMiB: heap() });
    return out;
  };
  const session = await step('open', () => BenchSession.open(nodeFolderSource(g.dataset), g.benchmark));
  // As cli/main.ts does for a file: its folder as the source, the file as the only entry; a
  // generic file name (results.jsonl) takes its folder's name as the model name.
  const predPath = g.predictions;
  const model = /^(results|predictions|preds)\.jsonl$/i.test(basename(predPath)) ? basename(dirname(predPath)) : basename(predPath).replace(/\.[^.]*$/, '');
  await step('read', () =>
    session.addPredictions({ source: singleFileSource(nodeFolderSource(dirname(predPath)), basename(predPath)), path: basename(predPath), name: model }),
  );
  const protocol = session.resolveProtocol();
  const results = await step('score', () => session.score(protocol));
  const outDir = join(workDir(name), 'out');
  mkdirSync(outDir, { recursive: true });
  await step('report', () => writeFileSync(join(outDir, 'report.json'), serializeReport(session.report(protocol, results))));
  let caseBytes = 0;
  let caseLines = 0;
  await step('cases', () => {
    // The CLI's way: one line at a time when the session can (eachCaseLine), written in 4 MiB
    // batches; one string of a 1 GiB export would pass V8's string length limit.
    const s = session as unknown as { eachCaseLine?: (r: typeof results) => Iterable<string> };
    // BIG_JSONL_CASES=array measures the old way (every line built first, session.caseLines).
    const lines = s.eachCaseLine && process.env.BIG_JSONL_CASES !== 'array' ? s.eachCaseLine(results) : session.caseLines(results);
    const out = new Out(join(outDir, 'case_analysis.jsonl'));
    for (const l of lines) out.line(l);
    caseBytes = out.close();
    caseLines = out.lines;
  });
  const r = results[0];
  const headline = Object.entries(r.metrics).slice(0, 2).map(([k, v]) => `${k} ${v.toFixed(4)}`).join(', ');
  console.log(
    '@@result ' +
      JSON.stringify({
        phases,
        predBytes: statSync(predPath).size,
        cases: r.cases.length,
        warnings: r.warnings.length,
        caseLines,
        caseBytes,
        headline,
        counts: r.counts,
      }),
  );
}

// ---------------------------------------------------------------- the parent

function runChild(args: string[]): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string; peakMiB: number }> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', HERE, CHILD_FLAG, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let peakKiB = 0;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // The kernel's high-water mark, polled: still known when the child dies of OOM.
    const poll = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peakKiB = Math.max(peakKiB, Number(m[1]));
      } catch {
        /* exited between polls */
      }
    }, 100);
    // A child that runs past BIG_JSONL_TIMEOUT_S (default 30 min) is stopped and reported as such.
    const limit = setTimeout(() => child.kill('SIGKILL'), Number(process.env.BIG_JSONL_TIMEOUT_S ?? 1800) * 1000);
    child.on('close', (code, signal) => {
      clearInterval(poll);
      clearTimeout(limit);
      resolvePromise({ code, signal, stdout, stderr, peakMiB: peakKiB / 1024 });
    });
  });
}

const f1 = (x: number) => x.toFixed(1);
const f0 = (x: number) => x.toFixed(0);

export async function run(): Promise<void> {
  const only = process.env.BIG_JSONL_ONLY?.split(',').map((s) => s.trim()) ?? [...NAMES];
  const keep = process.env.BIG_JSONL_KEEP === '1';
  console.log(`prediction files of ${f0(targetBytes() / MIB)} MiB in ${join(tmpdir(), 'benchlens-big-jsonl')}; each benchmark in its own child (default heap limit)`);
  for (const name of NAMES.filter((n) => only.includes(n))) {
    const dir = workDir(name);
    const cached = keep && existsSync(join(dir, 'generated.json'));
    const t0 = performance.now();
    if (!cached) {
      rmSync(dir, { recursive: true, force: true });
      const gen = await runChild(['generate', name]);
      if (gen.code !== 0) {
        console.log(`${name}: generation failed (${gen.signal ?? gen.code})\n${gen.stderr.split('\n').slice(0, 5).join('\n')}`);
        continue;
      }
    }
    const g = JSON.parse(readFileSync(join(dir, 'generated.json'), 'utf8')) as Generated;
    console.log(`\n${name}: ${g.note}; ${cached ? 'reused' : `generated in ${f1((performance.now() - t0) / 1000)} s`}`);
    const m = await runChild(['measure', name]);
    const res = /^@@result (.*)$/m.exec(m.stdout);
    if (!res) {
      const phase = [...m.stdout.matchAll(/^@@phase (\S+)/gm)].pop()?.[1] ?? 'start';
      const oom = /heap out of memory|Invalid string length|Reached heap limit/i.exec(m.stderr);
      const why = oom ? oom[0] : m.signal === 'SIGKILL' ? 'stopped at BIG_JSONL_TIMEOUT_S' : m.stderr.split('\n').filter((l) => l.trim() !== '').slice(0, 3).join(' | ');
      console.log(`  FAILED in phase "${phase}" (exit ${m.signal ?? m.code}): ${why}; peak RSS ${f0(m.peakMiB)} MiB`);
    } else {
      const r = JSON.parse(res[1]) as { phases: Phase[]; predBytes: number; cases: number; warnings: number; caseLines: number; caseBytes: number; headline: string };
      const p = Object.fromEntries(r.phases.map((x) => [x.phase, x]));
      const t = (x: Phase) => `${f1(x.seconds)} s (${f1(x.cpuSeconds)} s CPU)`;
      console.log(
        `  file ${f1(r.predBytes / MIB)} MiB, ${g.lines} lines | open ${t(p.open)}, heap ${f0(p.open.heapMiB)} MiB | ` +
          `read ${t(p.read)} = ${f0(r.predBytes / MIB / p.read.seconds)} MiB/s, live heap+buffers after read ${f0(p.read.heapMiB)} MiB ` +
          `(+${f0(p.read.heapMiB - p.open.heapMiB)} MiB = ${((p.read.heapMiB - p.open.heapMiB) / (r.predBytes / MIB)).toFixed(2)}× file)`,
      );
      console.log(
        `  score ${t(p.score)}, heap ${f0(p.score.heapMiB)} MiB | report ${f1(p.report.seconds)} s | ` +
          `cases ${t(p.cases)} (${r.caseLines} lines, ${f0(r.caseBytes / MIB)} MiB) | ` +
          `peak RSS after open/read/score/cases ${[p.open, p.read, p.score, p.cases].map((x) => f0(x.peakRssMiB)).join(' / ')} MiB ` +
          `(${(p.cases.peakRssMiB / (r.predBytes / MIB)).toFixed(2)}× file)`,
      );
      console.log(`  ${r.cases} cases, ${r.warnings} warnings; ${r.headline}`);
    }
    if (!keep) rmSync(dir, { recursive: true, force: true });
    else rmSync(join(dir, 'out'), { recursive: true, force: true });
  }
}

async function childMain(): Promise<void> {
  const [mode, name] = process.argv.slice(process.argv.indexOf(CHILD_FLAG) + 1) as ['generate' | 'measure', Name];
  if (mode === 'generate') {
    const dir = workDir(name);
    mkdirSync(dir, { recursive: true });
    const g = await GENERATORS[name](dir);
    writeFileSync(join(dir, 'generated.json'), JSON.stringify(g));
  } else {
    await measureChild(name);
  }
}

if (process.argv.includes(CHILD_FLAG)) {
  childMain().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
