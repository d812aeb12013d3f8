/**
 * The built-in Chronicles-OCR demo: 2 images per script drawn by this code (ink blobs inside the
 * GT boxes; no real rubbings), the GT in all three bbox shapes, and two canned "models" in
 * infer_results/ whose records carry the extract the official extractor makes of their raw
 * answers. `generateChronicles` also feeds the benchmark at larger sizes.
 */
import type { DemoBundle } from '../../demo';
import { MemorySource } from '../../io/fileSource';
import { Raster } from '../../image/png';
import { SCRIPTS, TASK_KEYS, tasksFor, type TaskId } from './constants';
import { EXTRACTORS } from './extract';
import { mulberry32 as rng } from '../../random';

const TEXTS = [
  '天地玄黄宇宙洪荒',
  '日月盈昃辰宿列张',
  '寒来暑往秋收冬藏',
  '闰余成岁律吕调阳',
  '云腾致雨露结为霜',
  '金生丽水玉出昆冈',
  '剑号巨阙珠称夜光',
  '果珍李柰菜重芥姜',
];
const CONFUSE: Record<string, string> = { 天: '夫', 玄: '元', 日: '曰', 王: '玉', 来: '耒', 金: '全', 玉: '王', 水: '木' };


interface GenChar {
  box: [number, number, number, number];
  char: string;
}

interface GenRow {
  image_path: string;
  font_type: string;
  annotation: string;
  width?: number;
  height?: number;
  chars?: GenChar[];
  gt: Record<string, unknown>;
}

export interface GenerateOptions {
  perScript: number;
  /** 'png' draws real images; 'stub' writes a few bytes per image (for the benchmark). */
  images: 'png' | 'stub';
  seed?: number;
}

function makeRows(opts: GenerateOptions): GenRow[] {
  const rand = rng(opts.seed ?? 7);
  const rows: GenRow[] = [];
  SCRIPTS.forEach((s, si) => {
    for (let k = 0; k < opts.perScript; k++) {
      const text = TEXTS[(si + k) % TEXTS.length].slice(0, 4 + ((si + k) % 3));
      const image_path = `images/${s.name}/${s.key}_${String(k + 1).padStart(4, '0')}.png`;
      if (s.group === 'modern') {
        rows.push({ image_path, font_type: s.name, annotation: text, gt: { image_path, font_type: s.name, annotation: text } });
        continue;
      }
      const width = 240 + Math.floor(rand() * 160);
      const height = 300 + Math.floor(rand() * 100);
      const chars: GenChar[] = [];
      const n = [...text].length;
      const perCol = Math.ceil(n / 2);
      const cw = width / 3;
      const ch = (height - 20) / perCol;
      [...text].forEach((c, i) => {
        const col = Math.floor(i / perCol);
        const r = i % perCol;
        const x1 = Math.round(width - (col + 1) * cw - 10 + rand() * 8);
        const y1 = Math.round(10 + r * ch + rand() * 6);
        // The last character of every third row is unreadable: a [UNK] / □ placeholder.
        const unk = (k + si) % 3 === 0 && i === n - 1;
        chars.push({ box: [x1, y1, x1 + Math.round(cw * 0.8), y1 + Math.round(ch * 0.8)], char: unk ? (si === 0 ? '□' : '[UNK]') : c });
      });
      const annotation = chars.map((c) => c.char).join('');
      // The three GT bbox shapes the release uses: Oracle Bone [x, y, w, h] + modern_char,
      // Bronze {x1, y1, x2, y2} + text, Seal [x1, y1, x2, y2] + text.
      const spotting = chars.map((c) => {
        const [x1, y1, x2, y2] = c.box;
        if (si === 0) return { bbox: [x1, y1, x2 - x1, y2 - y1], modern_char: c.char };
        if (si === 1) return { bbox: { x1, y1, x2, y2 }, text: c.char };
        return { bbox: [x1, y1, x2, y2], text: c.char };
      });
      rows.push({
        image_path,
        font_type: s.name,
        annotation,
        width,
        height,
        chars,
        gt: { image_path, font_type: s.name, annotation, spotting, width, height },
      });
    }
  });
  return rows;
}

async function drawImage(row: GenRow, seed: number): Promise<Uint8Array> {
  const rand = rng(seed);
  if (row.chars && row.width && row.height) {
    const r = new Raster(row.width, row.height, [196, 170, 128]);
    for (const c of row.chars) {
      const [x1, y1, x2, y2] = c.box;
      const ink: [number, number, number] = c.char === '□' || c.char === '[UNK]' ? [150, 128, 98] : [70, 48, 30];
      for (let s = 0; s < 4; s++) {
        const ax = x1 + rand() * (x2 - x1) * 0.6;
        const ay = y1 + rand() * (y2 - y1) * 0.6;
        r.fillRect(ax, ay, ax + (x2 - x1) * (0.15 + rand() * 0.25), ay + (y2 - y1) * (0.08 + rand() * 0.3), ink);
      }
    }
    return r.encode();
  }
  const n = [...row.annotation].length;
  const r = new Raster(120, Math.min(400, 40 + n * 44), [240, 234, 220]);
  for (let i = 0; i < n; i++) {
    const y = 20 + i * 44;
    r.fillPolygon([40, y, 80, y + 4, 76, y + 36, 44, y + 30], [30, 30, 30]);
    r.fillRect(50 + rand() * 10, y + 8, 70, y + 14, [240, 234, 220]);
  }
  r.noise(seed, 6);
  return r.encode();
}

const SCRIPT_NAMES = SCRIPTS.map((s) => s.name);

/** A canned raw answer per task; `good` model mostly right, the other makes typical mistakes. */
function answerFor(row: GenRow, task: TaskId, good: boolean, rand: () => number, i: number): string {
  const wrong = rand() < (good ? 0.12 : 0.45);
  switch (task) {
    case 'classification': {
      const name = wrong ? SCRIPT_NAMES[(SCRIPT_NAMES.indexOf(row.font_type) + 1) % 7] : row.font_type;
      // Two names in one value: the official pick depends on Python's set order (flagged ambiguous).
      if (!good && i % 7 === 3) return '字体分类：行书或草书';
      const styles = [`字体分类：${name}`, `<think>看笔画特征</think>\n字体分类：${name}`, `这件作品是${name}。`, `字体：${name}体`];
      return styles[i % styles.length];
    }
    case 'parsing': {
      let t = row.annotation.replace(/\[UNK\]|□/g, '');
      if (wrong) t = [...t].map((c, k) => (k === 1 ? (CONFUSE[c] ?? '之') : c)).join('');
      const styles = [`提取文本：${t}`, `好的\n${t}`, `提取文本：\n${[...t].slice(0, 2).join('')}\n${[...t].slice(2).join('')}`, `<answer>提取文本：${t}。</answer>`];
      return styles[i % styles.length];
    }
    case 'recognition': {
      const target = recognitionTarget(row);
      const c = wrong ? (CONFUSE[target.char] ?? '之') : target.char;
      const styles = [`现代汉字：${c}`, `答案：「${c}」`, `${c}`, `<think>红框里的字</think>现代汉字：${c}`];
      return styles[i % styles.length];
    }
    case 'spotting': {
      const W = row.width!;
      const H = row.height!;
      const items = row.chars!.flatMap((c, k) => {
        if (!good && k === 2) return []; // a missed character
        const shift = !good && k === 0 ? 0.3 : 0.02 * (rand() - 0.5);
        const [x1, y1, x2, y2] = c.box;
        const w = x2 - x1;
        const b = [x1 + shift * w, y1, x2 + shift * w, y2].map((v, j) => ((j % 2 ? v / H : v / W) * 1000));
        const half = i % 4 === 1; // half-integer coordinates, rounded half to even by the extractor
        const bbox = b.map((v) => (half ? Math.floor(v) + 0.5 : Math.round(v)));
        const char = !good && k === 1 ? (CONFUSE[c.char] ?? '之') : c.char;
        return [{ idx: k + 1, bbox, char }];
      });
      const json = JSON.stringify(items);
      const styles = [json, '```json\n' + json + '\n```', `结果如下：${json} 以上为全部字符。`, `<think>逐个框出</think>${json}`];
      if (!good && i % 5 === 4) return '抱歉，我无法给出字符坐标。';
      return styles[i % styles.length];
    }
  }
}

function recognitionTarget(row: GenRow): { char: string; box: [number, number, number, number]; index: number } {
  const cands = row.chars!.map((c, index) => ({ ...c, index })).filter((c) => c.char !== '□' && c.char !== '[UNK]');
  const t = cands[[...row.image_path].reduce((h, c) => h + c.codePointAt(0)!, 0) % cands.length];
  return { char: t.char, box: t.box, index: t.index };
}

function resultsFile(rows: GenRow[], good: boolean, seed: number): string {
  const rand = rng(seed);
  const lines: string[] = [];
  rows.forEach((row, i) => {
    // model-b did not answer one image at all (it is then not judged for that model).
    if (!good && i === rows.length - 1) return;
    const infer: Record<string, unknown> = {};
    for (const task of tasksFor(row.font_type)) {
      const answer = answerFor(row, task, good, rand, i);
      const ex = EXTRACTORS[task](answer);
      const rec: Record<string, unknown> = { thinking: '', answer };
      if (ex.ok) rec.extract = ex.extract;
      if (task === 'recognition') {
        const t = recognitionTarget(row);
        Object.assign(rec, { gt_char: t.char, target_bbox_xyxy: t.box, target_index: t.index, seed: 42 });
      }
      infer[TASK_KEYS[task]] = rec;
    }
    lines.push(JSON.stringify({ ...row.gt, infer_results: infer }));
  });
  return lines.join('\n') + '\n';
}

/** The dataset folder, with `infer_results/model-a` and `model-b`, in memory. */
export async function generateChronicles(opts: GenerateOptions): Promise<MemorySource> {
  const rows = makeRows(opts);
  const src = new MemorySource('chronicles-demo');
  src.set('data/Chronicles_OCR.jsonl', rows.map((r) => JSON.stringify(r.gt)).join('\n') + '\n');
  for (let i = 0; i < rows.length; i++) {
    const bytes = opts.images === 'png' ? await drawImage(rows[i], 1000 + i) : new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    src.set(`data/${rows[i].image_path}`, bytes);
  }
  src.set('infer_results/model-a/results.jsonl', resultsFile(rows, true, 11));
  src.set('infer_results/model-b/results.jsonl', resultsFile(rows, false, 12));
  src.set(
    'README.md',
    'A generated Chronicles-OCR demo: images drawn by Benchlens, texts from the Thousand Character Classic, canned model answers. Not benchmark data.\n',
  );
  return src;
}

export async function makeDemo(): Promise<DemoBundle> {
  return { source: await generateChronicles({ perScript: 2, images: 'png' }), predictions: [] };
}
