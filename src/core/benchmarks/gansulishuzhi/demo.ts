/**
 * The built-in gansulishuzhi demo: scanned-looking book pages drawn by this code (grey plates and
 * line-drawing frames where the figures are, ink rows for the text; no third-party scans), the
 * manifest, red GT overlays, and two runs in runs/ as the companion repository writes them: one
 * with structured `pred_bboxes`, one with raw model answers (think blocks, fences, prose, a
 * refusal, a line for a page that does not exist).
 */
import type { DemoBundle } from '../../demo';
import type { Box } from '../../geometry/box';
import { MemorySource } from '../../io/fileSource';
import { Raster } from '../../image/png';

const W = 280;
const H = 408;

interface DemoPage {
  n: number;
  figures: Box[];
  /** Photos are filled grey; drawings are outlined. */
  style: 'photo' | 'drawing';
}

const PAGES: DemoPage[] = [
  { n: 3, figures: [[48, 120, 232, 256]], style: 'photo' },
  { n: 7, figures: [[28, 92, 132, 208], [148, 92, 252, 208]], style: 'drawing' },
  { n: 12, figures: [], style: 'photo' },
  { n: 14, figures: [[34, 52, 144, 212], [92, 240, 250, 350]], style: 'photo' },
  { n: 21, figures: [[60, 168, 220, 288]], style: 'drawing' },
  { n: 30, figures: [[28, 208, 100, 280], [105, 208, 177, 280], [182, 208, 254, 280]], style: 'drawing' },
];

const id = (n: number) => `page_${String(n).padStart(3, '0')}`;

function drawPage(p: DemoPage): Raster {
  const r = new Raster(W, H, [226, 216, 190]);
  r.fillRect(0, 0, 8, H, [180, 168, 140]); // binding edge
  r.fillRect(100, 14, 180, 20, [70, 60, 50]); // running head
  // Body text rows, skipped where a figure sits.
  for (let y = 34; y < H - 20; y += 12) {
    const covered = p.figures.some((f) => y + 6 > f[1] - 6 && y < f[3] + 18);
    if (covered) continue;
    for (let x = 22; x < W - 22; x += 9) r.fillRect(x, y, x + 7, y + 6, [75, 66, 55]);
  }
  for (const [x0, y0, x1, y1] of p.figures) {
    if (p.style === 'photo') {
      r.fillRect(x0, y0, x1, y1, [120, 114, 100]);
      r.fillPolygon([x0 + (x1 - x0) * 0.3, y1 - 10, (x0 + x1) / 2, y0 + 14, x1 - (x1 - x0) * 0.3, y1 - 10], [80, 76, 66]);
    } else {
      for (const [a, b, c, d] of [[x0, y0, x1, y0 + 2], [x0, y1 - 2, x1, y1], [x0, y0, x0 + 2, y1], [x1 - 2, y0, x1, y1]] as Box[]) r.fillRect(a, b, c, d, [60, 52, 44]);
      r.fillPolygon([(x0 + x1) / 2, y0 + 10, x1 - 12, (y0 + y1) / 2, (x0 + x1) / 2, y1 - 10, x0 + 12, (y0 + y1) / 2], [90, 80, 66]);
    }
    r.fillRect(x0 + 10, y1 + 6, x1 - 10, y1 + 12, [75, 66, 55]); // caption
  }
  r.noise(p.n * 31 + 7, 9);
  return r;
}

/** The dataset's overlays/: the same page with the GT boxes drawn in red. */
function drawOverlay(page: Raster, p: DemoPage): Raster {
  const r = new Raster(page.width, page.height);
  r.rgb.set(page.rgb);
  for (const [x0, y0, x1, y1] of p.figures) {
    for (const [a, b, c, d] of [[x0, y0, x1, y0 + 2], [x0, y1 - 2, x1, y1], [x0, y0, x0 + 2, y1], [x1 - 2, y0, x1, y1]] as Box[]) r.fillRect(a, b, c, d, [220, 20, 20]);
  }
  return r;
}

const RUN_STRUCTURED = [
  { id: 'page_003', pred_bboxes: [[44, 124, 236, 250]] },
  { id: 'page_007', pred_bboxes: [[30, 90, 130, 210], [140, 70, 270, 236]] },
  { id: 'page_012', pred_bboxes: [] },
  { id: 'page_014', pred_bboxes: [[34, 52, 144, 240], [96, 244, 246, 346]] },
  { id: 'page_021', pred_bboxes: [[58, 166, 222, 290], [58, 166, 222, 290]] },
  { id: 'page_030', pred_bboxes: [[28, 208, 100, 280], [190, 214, 262, 286]] },
];

const RUN_RAW = [
  { image_path: 'pages/page_003.png', response: '<think>\n页面中部有一张照片。\n</think>\n```json\n[[46, 118, 234, 258]]\n```' },
  { image_path: 'pages/page_007.png', response: '[{"bbox_2d": [26, 90, 134, 210]}, {"bbox_2d": [146, 90, 254, 210]}]' },
  { image_path: 'pages/page_012.png', response: '[[40, 60, 240, 130]]' },
  { image_path: 'pages/page_014.png', response: '页面中有两张图：[[32, 50, 146, 214], [50, 200, 250, 350]]。' },
  { id: 'page_021', response: '图[1]位于 [[60, 180, 220, 300]]' },
  { image_path: 'pages/page_030.png', response: '抱歉，我无法确定这一页中图的位置。' },
  { image_path: 'pages/page_099.png', response: '[]' },
];

export async function makeDemo(): Promise<DemoBundle> {
  const files: Record<string, Uint8Array | string> = {};
  const manifest: string[] = [];
  for (const p of PAGES) {
    manifest.push(JSON.stringify({ id: id(p.n), page: p.n, image_path: `pages/${id(p.n)}.png`, image_size_px: [W, H], gt_bboxes: p.figures }));
    const page = drawPage(p);
    files[`pages/${id(p.n)}.png`] = await page.encode();
    files[`overlays/${id(p.n)}.png`] = await drawOverlay(page, p).encode();
  }
  files['manifest.jsonl'] = manifest.join('\n') + '\n';
  files['runs/demo-structured.jsonl'] = RUN_STRUCTURED.map((l) => JSON.stringify(l)).join('\n') + '\n';
  files['runs/demo-raw-answers.jsonl'] = RUN_RAW.map((l) => JSON.stringify(l)).join('\n') + '\n';
  return { source: new MemorySource('gansulishuzhi', files), predictions: [] };
}
