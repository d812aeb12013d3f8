/**
 * A small LTB dataset with GT health defects planted on purpose, for the GT-only workspace and
 * the fix loop (unit tests through the worker API, and the browser test, which writes it to a
 * temp folder and drops it on the page). Three real PNG images (220×100, drawn by pngBytes) and
 * one MMOCR 1.x file with texts:
 * - img_1.png GT 1: a care word with empty text (`empty_text`);
 * - img_2.png GT 1: the same word as GT 0, one pixel wider (`duplicate_instance`);
 * - img_3.png: clean.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { ihdrRgb8, pngChunk, pngFile } from '../src/core/image/png';

export const box = (x0: number, y0: number, x1: number, y1: number) => [x0, y0, x1, y0, x1, y1, x0, y1];

export const PLANTED_GT: Record<string, { polygon: number[]; text: string }[]> = {
  'img_1.png': [
    { polygon: box(10, 10, 110, 40), text: 'HELLO' },
    { polygon: box(130, 55, 200, 90), text: '' },
  ],
  'img_2.png': [
    { polygon: box(20, 50, 120, 90), text: 'WORLD' },
    { polygon: box(20, 50, 121, 90), text: 'WORLD' },
  ],
  'img_3.png': [{ polygon: box(40, 20, 180, 70), text: 'CLEAN' }],
};

/** Where the planted defects are: case / instance / kind, as lint.json lists them. */
export const PLANTED_FINDINGS = ['img_1.png / 1 / empty_text', 'img_2.png / 1 / duplicate_instance'];

const W = 220;
const H = 100;

/** A real RGB PNG of `w`×`h`: a grey gradient, so the viewer has something to draw the GT on. */
export function pngBytes(w = W, h = H): Uint8Array {
  const raw = new Uint8Array(h * (1 + w * 3));
  for (let y = 0; y < h; y++) {
    const row = y * (1 + w * 3);
    for (let x = 0; x < w; x++) raw.fill(90 + Math.round((120 * x) / w), row + 1 + x * 3, row + 4 + x * 3);
  }
  return pngFile([pngChunk('IHDR', ihdrRgb8(w, h)), pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', new Uint8Array())]);
}

/** The dataset's files: path → contents. */
export function plantedGtFiles(): Record<string, string | Uint8Array> {
  const data_list = Object.entries(PLANTED_GT).map(([img_path, words]) => ({
    img_path,
    height: H,
    width: W,
    instances: words.map(({ polygon, text }) => ({ polygon, bbox: [polygon[0], polygon[1], polygon[4], polygon[5]], bbox_label: 0, ignore: false, text })),
  }));
  const files: Record<string, string | Uint8Array> = {
    'anno/mmocr1.x_format/challenging_norm.json': JSON.stringify({ metainfo: { dataset_type: 'TextDetDataset', task_name: 'textdet' }, data_list }),
  };
  const png = pngBytes();
  for (const name of Object.keys(PLANTED_GT)) files[`anno/hard/images/${name}`] = png;
  return files;
}

/** Writes the dataset to a fresh temp folder named `name` and returns its path. */
export function writePlantedGt(name = 'planted-gt'): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'bl-gthealth-')), name);
  for (const [p, content] of Object.entries(plantedGtFiles())) {
    const to = join(dir, p);
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, content);
  }
  return dir;
}
