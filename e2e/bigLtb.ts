/**
 * A big LTB prediction file on disk, for the "1 GB JSONL" proof (e2e/big-jsonl.spec.ts,
 * bench/browser-big-jsonl.bench.ts): an LTB-shaped dataset folder (the 15 MMOCR 1.x split files,
 * no image files) and one MMOCR inferencer JSONL (`{img_path, det_polygons, det_scores}` per line)
 * of a dense detector — every GT word found with jitter plus hundreds of low-score false positives
 * per image — grown to the requested size (to within one block of clutter per line). A few lines
 * are broken on purpose, at line numbers the caller gets back, so the warnings panel can be
 * checked. Deterministic (fixed seed); files are written through an 8 MiB buffer, never held whole.
 *
 * Fast enough to make 1 GB in seconds: the clutter (nearly all of the bytes) is drawn from a
 * pool of precomputed polygon and score strings instead of being computed per polygon. The files
 * are reused when the folder already holds them for the same options (a stamp file says so).
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { quad, r1, rng } from '../src/core/benchmarks/ltb/synthetic';

export interface BigLtbOptions {
  dir: string;
  images: number;
  /** GT words per image (a fifth are don't care). */
  words: number;
  /** Target size of the prediction file in bytes (reached to within one line). */
  predBytes: number;
}

export interface BigLtb {
  dataset: string;
  predictions: string;
  predBytes: number;
  lines: number;
  polygons: number;
  /** 1-based line numbers and why each is broken. */
  broken: { line: number; why: string }[];
}

const CATS = ['blurry', 'artistic', 'glass', 'single_char', 'distorted', 'inverse', 'delimited', 'dense', 'overlapped', 'occluded', 'low_contrast', 'complex_bg', 'others'];

/**
 * Writes ASCII text and pre-encoded blocks through one 8 MiB buffer: strings are copied in as
 * latin1 (byte for byte, as ASCII is), blocks with memcpy — no joining of big strings, no UTF-8
 * encoder, so a gigabyte costs little more than the disk writes.
 */
class ByteWriter {
  private fd: number;
  private buf = Buffer.allocUnsafe(8 << 20);
  private pos = 0;
  bytes = 0;
  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }
  write(x: string | Buffer): void {
    const n = x.length; // an ASCII string's length is its byte count
    if (this.pos + n > this.buf.length) this.flush();
    if (n > this.buf.length) {
      writeSync(this.fd, typeof x === 'string' ? Buffer.from(x, 'latin1') : x);
      this.bytes += n;
      return;
    }
    if (typeof x === 'string') this.buf.write(x, this.pos, 'latin1');
    else x.copy(this.buf, this.pos);
    this.pos += n;
  }
  private flush(): void {
    writeSync(this.fd, this.buf, 0, this.pos);
    this.bytes += this.pos;
    this.pos = 0;
  }
  close(): number {
    this.flush();
    closeSync(this.fd);
    return this.bytes;
  }
}

/** Bumped whenever the generated content changes, so an old cache is not reused. */
const FORMAT = 2;
const STAMP = 'big-ltb.stamp.json';
/** Distinct clutter polygons (and scores), and the blocks of BLOCK of them the lines draw from. */
const POOL = 4096;
const BLOCK = 16;
const BLOCKS = 2048;

/** The files for `o`, generated or (when the stamp and the file sizes match) reused. */
export function writeBigLtb(o: BigLtbOptions): BigLtb {
  const key = JSON.stringify({ format: FORMAT, images: o.images, words: o.words, predBytes: o.predBytes });
  const stampPath = join(o.dir, STAMP);
  const cached = readStamp(stampPath, key);
  if (cached) return cached;
  const out = generate(o);
  writeFileSync(stampPath, JSON.stringify({ key, result: out, size: statSync(out.predictions).size }));
  return out;
}

function readStamp(path: string, key: string): BigLtb | null {
  if (!existsSync(path)) return null;
  try {
    const st = JSON.parse(readFileSync(path, 'utf8')) as { key: string; result: BigLtb; size: number };
    if (st.key !== key || !existsSync(st.result.predictions) || statSync(st.result.predictions).size !== st.size) return null;
    if (!existsSync(join(st.result.dataset, 'anno', 'mmocr1.x_format', 'challenging_norm.json'))) return null;
    return st.result;
  } catch {
    return null;
  }
}

function generate(o: BigLtbOptions): BigLtb {
  const rand = rng(777);
  const dataset = join(o.dir, 'big-ltb');
  const anno = join(dataset, 'anno', 'mmocr1.x_format');
  mkdirSync(anno, { recursive: true });
  mkdirSync(join(dataset, 'anno', 'hard'), { recursive: true });

  // Each word's two instance texts (cared for / ignored in a split) are made once, not per split.
  type Word = { poly: number[]; care: boolean; cats: number; asCared: string; asIgnored: string };
  const words: Word[][] = [];
  for (let i = 0; i < o.images; i++) {
    const ws: Word[] = [];
    for (let w = 0; w < o.words; w++) {
      const col = w % 5, row = Math.floor(w / 5);
      const poly = quad(130 + col * 250 + (rand() - 0.5) * 40, 60 + row * 120 + (rand() - 0.5) * 30, 90 + rand() * 100, 22 + rand() * 20, (rand() - 0.5) * 0.5);
      const cats = rand() < 0.4 ? 1 << Math.floor(rand() * CATS.length) : 0;
      const care = rand() > 0.2;
      const inst = (ignore: boolean) => `{"polygon":[${poly.join(',')}],"bbox_label":0,"ignore":${ignore},"text":"${care ? 'word' : '###'}"}`;
      ws.push({ poly, care, cats, asCared: inst(false), asIgnored: inst(true) });
    }
    words.push(ws);
  }
  const head = '{"metainfo":{"dataset_type":"TextDetDataset","task_name":"textdet","category":[{"id":0,"name":"text"}]},"data_list":[';
  for (const [s, split] of [...CATS, 'hard', 'norm'].entries()) {
    const out = new ByteWriter(join(anno, `challenging_${split}.json`));
    out.write(head);
    for (let i = 0; i < o.images; i++) {
      const inst = words[i].map((w) => {
        const cares = w.care && (split === 'norm' || (split === 'hard' ? w.cats !== 0 : (w.cats & (1 << s)) !== 0));
        return cares ? w.asCared : w.asIgnored;
      });
      out.write(`${i ? ',' : ''}{"img_path":"img_${i + 1}.jpg","height":720,"width":1280,"instances":[${inst.join(',')}]}`);
    }
    out.write(']}');
    out.close();
  }

  const clutter: string[] = [];
  const clutterScores: string[] = [];
  for (let k = 0; k < POOL; k++) {
    const p = quad(rand() * 1280, rand() * 720, 8 + rand() * 40, 6 + rand() * 14, (rand() - 0.5) * 1.2);
    clutter.push(`[${p.join(',')}]`);
    clutterScores.push(String(Math.round(rand() * 0.45 * 1e4) / 1e4));
  }
  const pick = (pool: string[]) => Array.from({ length: BLOCK }, () => pool[(rand() * POOL) | 0]).join(',');
  const polyBlocks = Array.from({ length: BLOCKS }, () => Buffer.from(pick(clutter), 'latin1'));
  const scoreBlocks = Array.from({ length: BLOCKS }, () => Buffer.from(pick(clutterScores), 'latin1'));

  const predictions = join(o.dir, 'dense-detector.jsonl');
  const out = new ByteWriter(predictions);
  const perLine = Math.floor(o.predBytes / o.images);
  const brokenAt = new Map<number, string>([
    [3, 'truncated'],
    [Math.floor(o.images / 2), 'not-object'],
    [o.images - 1, 'unknown-image'],
  ]);
  const broken: BigLtb['broken'] = [];
  let line = 0;
  let polygons = 0;
  for (let i = 0; i < o.images; i++) {
    line++;
    const why = brokenAt.get(line);
    if (why === 'not-object') {
      out.write('[1, 2, 3]\n');
      broken.push({ line, why: 'not a JSON object' });
      line++;
    }
    const polys: (string | Buffer)[] = [];
    const scores: (string | Buffer)[] = [];
    let size = 60;
    for (const w of words[i]) {
      if (rand() < 0.1) continue; // a miss
      const jx = (rand() - 0.5) * 10, jy = (rand() - 0.5) * 6;
      const p = w.poly.map((v, k) => r1(v + (k % 2 ? jy : jx)));
      const s = `[${p.join(',')}]`;
      polys.push(s);
      scores.push(String(Math.round((0.5 + rand() * 0.5) * 1e4) / 1e4));
      size += s.length + 8;
    }
    // Low-score clutter, a block at a time, until the line has its share of the file.
    let count = polys.length;
    while (size < perLine) {
      const s = polyBlocks[(rand() * BLOCKS) | 0];
      const sc = scoreBlocks[(rand() * BLOCKS) | 0];
      polys.push(s);
      scores.push(sc);
      size += s.length + sc.length + 2;
      count += BLOCK;
    }
    polygons += count;
    const name = why === 'unknown-image' ? `not_in_dataset_${i + 1}.jpg` : `img_${i + 1}.jpg`;
    const parts: (string | Buffer)[] = [`{"img_path":"${name}","det_polygons":[`, ...commaSeparated(polys), '],"det_scores":[', ...commaSeparated(scores), ']}'];
    if (why === 'truncated') {
      const text = parts.map((x) => (typeof x === 'string' ? x : x.toString('latin1'))).join('');
      out.write(text.slice(0, Math.floor(text.length / 2)) + '\n');
      broken.push({ line, why: 'not valid JSON' });
      polygons -= count;
    } else {
      for (const x of parts) out.write(x);
      out.write('\n');
      if (why === 'unknown-image') {
        broken.push({ line, why: 'not an image of the dataset' });
        polygons -= count;
      }
    }
  }
  const predBytes = out.close();
  return { dataset, predictions, predBytes, lines: line, polygons, broken };
}

function commaSeparated<T>(items: T[]): (T | string)[] {
  const out: (T | string)[] = [];
  items.forEach((x, k) => (k ? out.push(',', x) : out.push(x)));
  return out;
}
