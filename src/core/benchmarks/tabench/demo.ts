/**
 * The built-in TABench demo: pages drawn by this code (ink blocks where the text would be; no
 * third-party images), TABench-abs.jsonl and TABench-rel1000.jsonl in the real layout, and two
 * canned models as the card's inference script writes them (`*_with_predictions.jsonl`): one in
 * pixels, one in 0–1000 space with <think> blocks. `generateTabench` also feeds the benchmark.
 */
import type { DemoBundle } from '../../demo';
import type { Box } from '../../geometry/box';
import { MemorySource } from '../../io/fileSource';
import { Raster } from '../../image/png';
import { mulberry32 as rng } from '../../random';


interface Scene {
  category: string;
  source: string;
  width: number;
  height: number;
  background: [number, number, number];
  ink: [number, number, number];
  words: string[];
}

const SCENES: Scene[] = [
  { category: 'Receipt', source: 'SVRD', width: 240, height: 360, background: [246, 244, 238], ink: [40, 40, 40], words: ['小龙坎火锅', '毛肚', '鸭肠', '合计：￥86.00', '欢迎再次光临！', '毛肚'] },
  { category: 'SceneText', source: 'HierText', width: 400, height: 300, background: [92, 120, 140], ink: [250, 240, 210], words: ["USINGER'S", 'OPEN', 'Coffee & Tea', 'OPEN'] },
  { category: 'Document', source: 'CDLA', width: 300, height: 420, background: [252, 252, 250], ink: [30, 30, 60], words: ['第三章 实验结果', '表3-1', '“准确率”和“召回率”', '注：以上数据未经审计。', '表3-1'] },
  { category: 'Poster', source: 'HierText', width: 300, height: 400, background: [250, 220, 120], ink: [160, 30, 30], words: ['SUMMER SALE', '50% OFF', '2024年夏季促销', 'www.example-shop.com'] },
];

interface Item {
  text: string;
  box: Box;
}

interface ImageSpec {
  scene: Scene;
  path: string;
  items: Item[];
}

/**
 * Places the scene's words on the page, one per row; with `minItems` above the word count (the
 * benchmark's sizes) the words repeat with a number in a 4-column grid, so every R2T region and
 * every T2R text stays unique, as in the released file.
 */
function layout(scene: Scene, index: number, rand: () => number, minItems = 0): ImageSpec {
  const n = Math.max(minItems, scene.words.length);
  const words = Array.from({ length: n }, (_, i) => (i < scene.words.length ? scene.words[i] : `${scene.words[i % scene.words.length]} ${i}`));
  const cols = n > scene.words.length ? 4 : 1;
  const rows = Math.ceil(n / cols);
  const rowH = (scene.height - 40) / rows;
  const colW = (scene.width - 20) / cols;
  const items: Item[] = words.map((text, i) => {
    const r = Math.floor(i / cols);
    const c = i % cols;
    const chars = [...text].length;
    const h = Math.max(2, Math.min(22, rowH - 4));
    const w = Math.min(colW - 10, Math.max(12, chars * (h * 0.62)));
    const x0 = Math.round(10 + c * colW + rand() * Math.max(0, colW - 10 - w));
    const y0 = Math.round(20 + r * rowH + rand() * Math.max(0, rowH - h - 2));
    return { text, box: [x0, y0, Math.round(x0 + w), Math.round(y0 + h)] };
  });
  return { scene, path: `${scene.category}/${scene.category}_demo${String(index + 1).padStart(4, '0')}.png`, items };
}

/** Ink blocks, one per character, inside each item's box: something to look at behind the boxes. */
async function drawImage(spec: ImageSpec, seed: number): Promise<Uint8Array> {
  const { scene } = spec;
  const r = new Raster(scene.width, scene.height, scene.background);
  for (const it of spec.items) {
    const chars = [...it.text];
    const [x0, y0, x1, y1] = it.box;
    const step = (x1 - x0) / chars.length;
    chars.forEach((ch, k) => {
      if (ch.trim() === '') return;
      const cx = x0 + k * step;
      r.fillRect(cx + step * 0.12, y0 + 2, cx + step * 0.88, y1 - 2, scene.ink);
    });
  }
  r.noise(seed, 6);
  return r.encode();
}

export interface TabenchQueryRow {
  image_path: string;
  category: string;
  task_type: 'R2T' | 'T2R';
  question: string;
  bbox: Box | Box[];
  GT: string | { bbox: Box; text: string } | { bbox: Box; text: string }[];
  text: string;
  coord_type: 'abs' | 'rel1000';
  annotation_level: string;
  source_dataset: string;
}

const toRel1000 = (b: Box, w: number, h: number): Box => [
  Math.round((b[0] * 1000) / w),
  Math.round((b[1] * 1000) / h),
  Math.round((b[2] * 1000) / w),
  Math.round((b[3] * 1000) / h),
];
const boxText = (b: Box) => `[${b.join(', ')}]`;

interface Generated {
  images: ImageSpec[];
  abs: TabenchQueryRow[];
  rel: TabenchQueryRow[];
}

function buildQueries(imageCount: number, queryCount: number, seed: number): Generated {
  const rand = rng(seed);
  const perImage = Math.ceil(queryCount / 2 / imageCount);
  const images = Array.from({ length: imageCount }, (_, i) => layout(SCENES[i % SCENES.length], Math.floor(i / SCENES.length), rand, perImage));
  // T2R asks for each distinct text of an image once (all its boxes are the GT).
  const distinct = images.map((img) => img.items.filter((it, i) => img.items.findIndex((x) => x.text === it.text) === i));
  const abs: TabenchQueryRow[] = [];
  const rel: TabenchQueryRow[] = [];
  // R2T first, then T2R, as in the released file.
  for (const task of ['R2T', 'T2R'] as const) {
    const n = task === 'R2T' ? Math.ceil(queryCount / 2) : Math.floor(queryCount / 2);
    for (let k = 0; k < n; k++) {
      const img = images[k % images.length];
      const { width: w, height: h } = img.scene;
      const pool = task === 'R2T' ? img.items : distinct[k % images.length];
      const item = pool[Math.floor(k / images.length) % pool.length];
      const level = item.text.includes(' ') || [...item.text].length > 6 ? 'line' : 'word';
      const base = { image_path: img.path, category: img.scene.category, annotation_level: level, source_dataset: img.scene.source };
      if (task === 'R2T') {
        for (const [space, box] of [['abs', item.box], ['rel1000', toRel1000(item.box, w, h)]] as const) {
          (space === 'abs' ? abs : rel).push({
            ...base,
            task_type: 'R2T',
            question: `What is the text at location ${boxText(box)}?`,
            bbox: box,
            GT: item.text,
            text: item.text,
            coord_type: space,
          });
        }
      } else {
        const same = img.items.filter((x) => x.text === item.text);
        for (const space of ['abs', 'rel1000'] as const) {
          const boxes = same.map((x) => (space === 'abs' ? x.box : toRel1000(x.box, w, h)));
          const gts = boxes.map((b) => ({ bbox: b, text: item.text }));
          (space === 'abs' ? abs : rel).push({
            ...base,
            task_type: 'T2R',
            question: `Where is "${item.text}" located in the image?`,
            bbox: boxes,
            GT: gts.length === 1 ? gts[0] : gts,
            text: item.text,
            coord_type: space,
          });
        }
      }
    }
  }
  return { images, abs, rel };
}

/** Variants a careless reader would score wrong but the spec's normalisation accepts. */
function styledAnswer(text: string, k: number): string {
  switch (k % 6) {
    case 1:
      return JSON.stringify({ text });
    case 2:
      return '```json\n' + JSON.stringify({ text }) + '\n```';
    case 3:
      return text.replace(/'/g, '’').replace(/：/g, ':');
    case 4:
      return ` ${text.replace(/ /g, '  ')}\n`;
    default:
      return text;
  }
}

function wrongAnswer(text: string, k: number): string {
  const chars = [...text];
  if (k % 3 === 0) return text.toLowerCase() === text ? text.toUpperCase() : text.toLowerCase();
  if (k % 3 === 1) return chars.slice(0, Math.max(1, chars.length - 1)).join('');
  return chars.map((c, i) => (i === 0 ? (c === '毛' ? '手' : c === 'O' ? '0' : c) : c)).join('') + (chars.length < 3 ? '?' : '');
}

function jitter(b: Box, rand: () => number, amount: number): Box {
  const w = b[2] - b[0];
  const h = b[3] - b[1];
  const d = () => (rand() * 2 - 1) * amount;
  return [Math.round(b[0] + d() * w), Math.round(b[1] + d() * h), Math.round(b[2] + d() * w), Math.round(b[3] + d() * h)];
}

function answers(rows: TabenchQueryRow[], model: 'careful' | 'thinker', seed: number): string {
  const rand = rng(seed);
  const out: string[] = [];
  rows.forEach((row, k) => {
    const r = rand();
    let answer: string;
    if (row.task_type === 'R2T') {
      const wrong = model === 'careful' ? r < 0.25 : r < 0.4;
      const text = wrong ? wrongAnswer(row.text, k) : styledAnswer(row.text, k);
      answer = model === 'thinker' && k % 2 === 0 ? `<think>The region holds ${[...row.text].length} characters.</think>\n${text}` : text;
    } else {
      const gts = (row.bbox as Box[]).map((b) => b);
      let boxes = gts.map((b) => jitter(b, rand, r < 0.2 ? 0.6 : 0.05));
      if (model === 'careful' && boxes.length > 1 && r > 0.8) boxes = boxes.slice(1);
      if (model === 'thinker' && r > 0.85) boxes.push(jitter(gts[0], rand, 0.05));
      if (model === 'careful') {
        answer = k % 4 === 1 ? JSON.stringify(boxes.map((b) => ({ bbox_2d: b, label: row.text }))) : JSON.stringify(boxes);
        if (r > 0.96 || k === rows.length - 1) answer = `I cannot find the text "${row.text}" in the image.`;
      } else {
        const listed = boxes.map(boxText).join(' and ');
        answer =
          k % 3 === 0
            ? `<think>I need to find "${row.text}" in 0-1000 coordinates.</think>\nIt is at ${listed}.`
            : `<think>I should output JSON.</think>\n\`\`\`json\n${JSON.stringify(boxes)}\n\`\`\``;
      }
    }
    const key = model === 'careful' ? 'prediction' : 'response';
    out.push(JSON.stringify({ ...row, [key]: answer }));
  });
  return out.join('\n') + '\n';
}

export interface GenerateTabenchOptions {
  queries: number;
  images: number;
  seed?: number;
}

export interface GeneratedTabench {
  /** Dataset files: TABench-abs.jsonl, TABench-rel1000.jsonl and the images. */
  dataset: Record<string, Uint8Array | string>;
  /** The two models' prediction files, by model name. */
  predictions: Record<string, { file: string; text: string }>;
}

export async function generateTabench(opts: GenerateTabenchOptions): Promise<GeneratedTabench> {
  const seed = opts.seed ?? 11;
  const g = buildQueries(opts.images, opts.queries, seed);
  const dataset: Record<string, Uint8Array | string> = {
    'TABench-abs.jsonl': g.abs.map((r) => JSON.stringify(r)).join('\n') + '\n',
    'TABench-rel1000.jsonl': g.rel.map((r) => JSON.stringify(r)).join('\n') + '\n',
  };
  for (let i = 0; i < g.images.length; i++) dataset[g.images[i].path] = await drawImage(g.images[i], seed + i);
  return {
    dataset,
    predictions: {
      'demo-careful-abs': { file: 'demo-careful-abs/TABench-abs_with_predictions.jsonl', text: answers(g.abs, 'careful', seed + 1) },
      'demo-thinker-rel1000': { file: 'demo-thinker-rel1000/TABench-rel1000_with_predictions.jsonl', text: answers(g.rel, 'thinker', seed + 2) },
    },
  };
}

export async function makeDemo(): Promise<DemoBundle> {
  const g = await generateTabench({ queries: 32, images: 8 });
  const preds = new MemorySource('infer_output', Object.fromEntries(Object.values(g.predictions).map((p) => [p.file, p.text])));
  return {
    source: new MemorySource('TABench', g.dataset),
    predictions: Object.entries(g.predictions).map(([name, p]) => ({ source: preds, path: p.file, name })),
  };
}
