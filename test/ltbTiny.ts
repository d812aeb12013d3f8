/**
 * A tiny LTB dataset built in code (one MMOCR 1.x annotation file, three images, four care words),
 * for tests of prediction formats and refusals that need no shared data. Integer, axis-aligned
 * boxes, so every detector format (boxes included) can predict it exactly.
 */
import { MemorySource } from '../src/core/io/fileSource';

export const box = (x0: number, y0: number, x1: number, y1: number) => [x0, y0, x1, y0, x1, y1, x0, y1];

export const TINY_GT: Record<string, number[][]> = {
  'img_1.jpg': [box(10, 10, 110, 40), box(130, 10, 200, 40)],
  'img_2.jpg': [box(20, 50, 120, 90)],
  'img_10.jpg': [box(5, 5, 60, 30)],
};

/** The dataset's files: path → contents. */
export function tinyLtbFiles(): Record<string, string | Uint8Array> {
  const data_list = Object.entries(TINY_GT).map(([img_path, polys]) => ({
    img_path,
    height: 100,
    width: 220,
    instances: polys.map((polygon) => ({ polygon, bbox: [polygon[0], polygon[1], polygon[4], polygon[5]], bbox_label: 0, ignore: false })),
  }));
  const files: Record<string, string | Uint8Array> = {
    'anno/mmocr1.x_format/challenging_norm.json': JSON.stringify({ metainfo: { dataset_type: 'TextDetDataset', task_name: 'textdet' }, data_list }),
  };
  for (const name of Object.keys(TINY_GT)) files[`anno/hard/images/${name}`] = new Uint8Array([1]);
  return files;
}

export const tinyLtb = () => new MemorySource('ltb', tinyLtbFiles());

/** The GT exactly, as MMOCR 1.x inferencer JSONL (`{img_path, det_polygons, det_scores}`). */
export const exactMmocrJsonl = () =>
  Object.entries(TINY_GT)
    .map(([img_path, polys]) => JSON.stringify({ img_path, det_polygons: polys, det_scores: polys.map(() => 0.9) }))
    .join('\n') + '\n';
