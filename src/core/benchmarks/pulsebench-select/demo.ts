/**
 * The built-in PulseBench-Select demo: six small form pages in the JSONL + image-folder export
 * layout (data/train.jsonl + images/*.png), drawn with the project's own Raster, plus two models'
 * prediction files. No parquet writer is needed and nothing third-party is copied.
 */
import type { DemoBundle } from '../../demo';
import { MemorySource } from '../../io/fileSource';
import { Raster } from '../../image/png';
import type { PredictionInput } from '../../model';

const W = 340;
const H = 440;
const INK: [number, number, number] = [40, 40, 48];
const FAINT: [number, number, number] = [120, 120, 130];
const PAPER: [number, number, number] = [246, 244, 238];

interface Question {
  text: string;
  options: string[];
  /** Indices of the selected options. */
  selected: number[];
  /** Table cells carry `text` instead of `content` (as in the real data). */
  table?: boolean;
}

interface Page {
  id: string;
  title: string;
  questions: Question[];
}

const PAGES: Page[] = [
  {
    id: 'demo-0001',
    title: 'Patient Intake',
    questions: [
      { text: '1. Do you smoke?', options: ['Yes', 'No'], selected: [1] },
      { text: '2. Any allergies?', options: ['Yes', 'No'], selected: [0] },
      { text: '3. Contact by', options: ['Phone', 'Email', 'Mail'], selected: [1] },
    ],
  },
  {
    id: 'demo-0002',
    title: 'Satisfaction Survey',
    questions: [
      { text: 'Overall', options: ['Dissatisfied', 'Neutral', 'Satisfied'], selected: [2] },
      { text: 'Recommend us?', options: ['Yes', 'No'], selected: [0] },
    ],
  },
  {
    id: 'demo-0003',
    title: 'Quiz',
    questions: [
      { text: '7 x 8 =', options: ['A) 54', 'B) 56', 'C) 58'], selected: [1] },
      { text: 'Capital of Australia', options: ['A) Sydney', 'B) Canberra'], selected: [1] },
    ],
  },
  {
    id: 'demo-0004',
    title: 'Vehicle Checklist',
    questions: [{ text: 'Checks (not done)', options: ['Brakes OK', 'Lights OK', 'Horn OK'], selected: [] }],
  },
  {
    id: 'demo-0005',
    title: 'Symptoms',
    questions: [{ text: 'Tick every symptom', options: ['Fever', 'Cough', 'Headache'], selected: [0, 2], table: true }],
  },
  {
    id: 'demo-0006',
    title: 'Filing Status',
    questions: [
      { text: 'Check one box', options: ['Single', 'Married filing jointly', 'Married filing separately'], selected: [1] },
    ],
  },
];

const r4 = (v: number) => Math.round(v * 10000) / 10000;

/** A normalised 8-number polygon (reading order: TL, TR, BR, BL) from pixel corners. */
function poly(x0: number, y0: number, x1: number, y1: number): number[] {
  const [a, b, c, d] = [r4(x0 / W), r4(y0 / H), r4(x1 / W), r4(y1 / H)];
  return [a, b, c, b, c, d, a, d];
}

/** Text is drawn as grey bars (one per word): the demo has no font, and needs none. */
function drawLabel(r: Raster, text: string, x: number, y: number, color: [number, number, number]): number {
  let cx = x;
  for (const word of text.split(' ')) {
    const w = Math.max(4, word.length * 5);
    r.fillRect(cx, y + 2, cx + w, y + 9, color);
    cx += w + 4;
  }
  return cx - 4;
}

interface Drawn {
  image: Uint8Array;
  annotations: Record<string, unknown>[];
  selected: Record<string, unknown>[];
}

async function drawPage(p: Page): Promise<Drawn> {
  const r = new Raster(W, H, PAPER);
  const annotations: Record<string, unknown>[] = [];
  const selected: Record<string, unknown>[] = [];
  const titleEnd = drawLabel(r, p.title, 20, 16, INK);
  annotations.push({ category: 'Title', bbox: poly(20, 16, titleEnd, 27), content: p.title, page: 1, selected: false, selection_candidate: false });
  let y = 50;
  for (const q of p.questions) {
    const qEnd = drawLabel(r, q.text, 20, y, FAINT);
    annotations.push({ category: 'Text', bbox: poly(20, y, qEnd, y + 11), content: q.text, page: 1, selected: false, selection_candidate: false });
    y += 20;
    q.options.forEach((opt, k) => {
      const x = 30;
      // The checkbox: an outlined square, filled when selected.
      r.fillRect(x, y, x + 10, y + 10, INK);
      r.fillRect(x + 1.5, y + 1.5, x + 8.5, y + 8.5, PAPER);
      const isSel = q.selected.includes(k);
      if (isSel) r.fillRect(x + 3, y + 3, x + 7, y + 7, INK);
      const end = drawLabel(r, opt, x + 16, y, INK);
      const item: Record<string, unknown> = {
        category: q.table ? 'Table-cell' : 'List-item',
        bbox: poly(x, y - 1, end, y + 11),
        page: 1,
        selected: isSel,
        selection_candidate: true,
      };
      item[q.table ? 'text' : 'content'] = opt;
      annotations.push(item);
      if (isSel) {
        const s: Record<string, unknown> = { page: 1, bbox: item.bbox, category: item.category };
        s[q.table ? 'text' : 'content'] = opt;
        selected.push(s);
      }
      y += 18;
    });
    y += 12;
  }
  return { image: await r.encode(), annotations, selected };
}

/** Moves a polygon by (dx, dy) in normalised units (a model's slightly-off box). */
function shift(b: unknown, dx: number, dy: number): number[] {
  return (b as number[]).map((v, i) => r4(v + (i % 2 === 0 ? dx : dy)));
}

export async function makeDemo(): Promise<DemoBundle> {
  const files: Record<string, Uint8Array | string> = {};
  const rows: string[] = [];
  const drawn = new Map<string, Drawn>();
  for (const p of PAGES) {
    // No speckle: flat pages compress to a few KiB each, which keeps the demo instant.
    const d = await drawPage(p);
    drawn.set(p.id, d);
    files[`images/${p.id}.png`] = d.image;
    const gt = { page_count: 1, annotations: d.annotations, selected_items: d.selected };
    rows.push(
      JSON.stringify({
        sample_id: p.id,
        image: `images/${p.id}.png`,
        ground_truth: JSON.stringify(gt),
        annotation_count: d.annotations.length,
        selected_count: d.selected.length,
        selection_candidate_count: d.annotations.filter((a) => a.selection_candidate).length,
        selection_stats: JSON.stringify({ annotations: d.annotations.length, selected: d.selected.length, pages: 1 }),
      }),
    );
  }
  files['data/train.jsonl'] = rows.join('\n') + '\n';
  files['README.md'] =
    '# PulseBench-Select demo\n\nSix generated form pages in the JSONL + image-folder export layout of PulseBench-Select.\n';
  const source = new MemorySource('pulsebench-select-demo', files);

  // Model "boxes-and-labels": one line per sample with boxes; misses one option, picks a wrong
  // quiz answer, and confuses "jointly" with "separately" (token overlap 2/3: no match).
  const a: string[] = [];
  for (const p of PAGES) {
    const sel = drawn.get(p.id)!.selected.map((s) => ({ ...s, bbox: shift(s.bbox, 0.004, -0.002) }));
    let items: Record<string, unknown>[] = sel;
    if (p.id === 'demo-0001') items = sel.slice(0, 2);
    if (p.id === 'demo-0003') items = [sel[0], { ...sel[1], content: 'A) Sydney' }];
    if (p.id === 'demo-0006') items = [{ ...sel[0], content: 'Married filing separately' }];
    a.push(JSON.stringify({ sample_id: p.id, selected_items: items }));
  }
  // Model "labels-only": one item per line, every option with a selected flag, upper-case
  // labels, no boxes; a false positive on the blank checklist and a line for an unknown sample.
  const b: string[] = [];
  for (const p of PAGES) {
    for (const q of p.questions) {
      q.options.forEach((opt, k) => {
        let selected = q.selected.includes(k);
        if (p.id === 'demo-0004' && k === 0) selected = true;
        b.push(JSON.stringify({ sample_id: p.id, content: k % 2 === 0 ? opt.toUpperCase() : opt, selected }));
      });
    }
  }
  b.push(JSON.stringify({ sample_id: 'demo-9999', content: 'Yes', selected: true }));
  const predictions: PredictionInput[] = [
    { source: new MemorySource('boxes-and-labels.jsonl', { 'boxes-and-labels.jsonl': a.join('\n') + '\n' }), path: 'boxes-and-labels.jsonl', name: 'boxes-and-labels' },
    { source: new MemorySource('labels-only.jsonl', { 'labels-only.jsonl': b.join('\n') + '\n' }), path: 'labels-only.jsonl', name: 'labels-only' },
  ];
  return { source, predictions };
}
