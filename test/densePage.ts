/**
 * One gansulishuzhi page whose answer holds a great many overlapping boxes (a model that emits a
 * box per stroke, or loops): the input that made the error taxonomy's `split` union quadratic.
 * Deterministic (seeded), shared by `npm run bench -- dense` and the unit tests.
 */
import { rng } from '../src/core/benchmarks/ltb/synthetic';

export const DENSE_PAGE_SIZE = [2000, 3000] as const;

/** Eight figure boxes on a 2000 × 3000 page. */
export const DENSE_GT: number[][] = [
  [100, 100, 900, 700],
  [1100, 100, 1900, 700],
  [100, 800, 900, 1400],
  [1100, 800, 1900, 1400],
  [100, 1500, 900, 2100],
  [1100, 1500, 1900, 2100],
  [100, 2200, 900, 2800],
  [1100, 2200, 1900, 2800],
];

/**
 * `n` predicted boxes: 90% fragments inside a GT figure (5–30% of its width and height, so that
 * none matches it but many together cover it: every GT is a `split` candidate at each
 * threshold), 10% anywhere on the page. Integer pixel coordinates, as models write them.
 */
export function densePredictions(n: number, seed = 1): number[][] {
  const rand = rng(seed);
  const [W, H] = DENSE_PAGE_SIZE;
  const out: number[][] = new Array(n);
  for (let i = 0; i < n; i++) {
    if (rand() < 0.9) {
      const g = DENSE_GT[Math.floor(rand() * DENSE_GT.length)];
      const gw = g[2] - g[0];
      const gh = g[3] - g[1];
      const w = Math.round(gw * (0.05 + 0.25 * rand()));
      const h = Math.round(gh * (0.05 + 0.25 * rand()));
      const x = g[0] + Math.floor(rand() * (gw - w));
      const y = g[1] + Math.floor(rand() * (gh - h));
      out[i] = [x, y, x + w, y + h];
    } else {
      const w = 20 + Math.floor(rand() * 200);
      const h = 20 + Math.floor(rand() * 200);
      const x = Math.floor(rand() * (W - w));
      const y = Math.floor(rand() * (H - h));
      out[i] = [x, y, x + w, y + h];
    }
  }
  return out;
}

/** The dataset (manifest + one page image) and the answer line, as files. */
export function densePageFiles(n: number): { dataset: Record<string, string | Uint8Array>; run: string } {
  const page = {
    id: 'page_001',
    page: 1,
    image_path: 'pages/page_001.png',
    image_size_px: [...DENSE_PAGE_SIZE],
    gt_bboxes: DENSE_GT,
  };
  return {
    dataset: { 'manifest.jsonl': JSON.stringify(page) + '\n', 'pages/page_001.png': new Uint8Array(8) },
    run: JSON.stringify({ id: 'page_001', pred_bboxes: densePredictions(n) }) + '\n',
  };
}
