/**
 * A big LTB prediction file on disk, for the "1 GB JSONL" proof (e2e/big-jsonl.spec.ts,
 * bench/big-jsonl.bench.ts): an LTB-shaped dataset folder (the 15 MMOCR 1.x split files, no image
 * files) and one MMOCR inferencer JSONL (`{img_path, det_polygons, det_scores}` per line) of a
 * dense detector — every GT word found with jitter plus hundreds of low-score false positives per
 * image — grown to the requested size. A few lines are broken on purpose, at line numbers the
 * caller gets back, so the warnings panel can be checked. Deterministic (fixed seed); files are
 * written in 4 MiB chunks, never held whole.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
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

class ChunkedWriter {
  private fd: number;
  private parts: string[] = [];
  private pending = 0;
  bytes = 0;
  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }
  write(s: string): void {
    this.parts.push(s);
    this.pending += s.length;
    if (this.pending > 4 << 20) this.flush();
  }
  private flush(): void {
    const buf = Buffer.from(this.parts.join(''), 'utf8');
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

export function writeBigLtb(o: BigLtbOptions): BigLtb {
  const rand = rng(777);
  const dataset = join(o.dir, 'big-ltb');
  const anno = join(dataset, 'anno', 'mmocr1.x_format');
  mkdirSync(anno, { recursive: true });
  mkdirSync(join(dataset, 'anno', 'hard'), { recursive: true });

  type Word = { poly: number[]; care: boolean; cats: number };
  const words: Word[][] = [];
  for (let i = 0; i < o.images; i++) {
    const ws: Word[] = [];
    for (let w = 0; w < o.words; w++) {
      const col = w % 5, row = Math.floor(w / 5);
      const poly = quad(130 + col * 250 + (rand() - 0.5) * 40, 60 + row * 120 + (rand() - 0.5) * 30, 90 + rand() * 100, 22 + rand() * 20, (rand() - 0.5) * 0.5);
      const cats = rand() < 0.4 ? 1 << Math.floor(rand() * CATS.length) : 0;
      ws.push({ poly, care: rand() > 0.2, cats });
    }
    words.push(ws);
  }
  const head = '{"metainfo":{"dataset_type":"TextDetDataset","task_name":"textdet","category":[{"id":0,"name":"text"}]},"data_list":[';
  for (const [s, split] of [...CATS, 'hard', 'norm'].entries()) {
    const out = new ChunkedWriter(join(anno, `challenging_${split}.json`));
    out.write(head);
    for (let i = 0; i < o.images; i++) {
      const inst = words[i].map((w) => {
        const cares = w.care && (split === 'norm' || (split === 'hard' ? w.cats !== 0 : (w.cats & (1 << s)) !== 0));
        return `{"polygon":[${w.poly.join(',')}],"bbox_label":0,"ignore":${cares ? 'false' : 'true'},"text":"${w.care ? 'word' : '###'}"}`;
      });
      out.write(`${i ? ',' : ''}{"img_path":"img_${i + 1}.jpg","height":720,"width":1280,"instances":[${inst.join(',')}]}`);
    }
    out.write(']}');
    out.close();
  }

  const predictions = join(o.dir, 'dense-detector.jsonl');
  const out = new ChunkedWriter(predictions);
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
    const polys: string[] = [];
    const scores: string[] = [];
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
    // Low-score clutter until the line has its share of the file.
    while (size < perLine) {
      const p = quad(rand() * 1280, rand() * 720, 8 + rand() * 40, 6 + rand() * 14, (rand() - 0.5) * 1.2);
      const s = `[${p.join(',')}]`;
      polys.push(s);
      scores.push(String(Math.round(rand() * 0.45 * 1e4) / 1e4));
      size += s.length + 8;
    }
    polygons += polys.length;
    const name = why === 'unknown-image' ? `not_in_dataset_${i + 1}.jpg` : `img_${i + 1}.jpg`;
    const text = `{"img_path":"${name}","det_polygons":[${polys.join(',')}],"det_scores":[${scores.join(',')}]}`;
    if (why === 'truncated') {
      out.write(text.slice(0, Math.floor(text.length / 2)) + '\n');
      broken.push({ line, why: 'not valid JSON' });
      polygons -= polys.length;
    } else {
      out.write(text + '\n');
      if (why === 'unknown-image') {
        broken.push({ line, why: 'not an image of the dataset' });
        polygons -= polys.length;
      }
    }
  }
  const predBytes = out.close();
  return { dataset, predictions, predBytes, lines: line, polygons, broken };
}
