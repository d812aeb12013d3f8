/**
 * Answers written in each vision-language model's own box syntax (shared/specs/vlm-boxes.md), for
 * tests: given exact boxes as fractions of the image, the answer that family's model would write
 * for them — integers where the model writes integers, its own quantisation (Florence-2 bins,
 * PaliGemma 1024 bins, Kosmos-2 grid cells), its own order (y first for Gemini and PaliGemma) and
 * its own space (0–1000, 0–999, percent, the resized input's pixels).
 */
import { readFileSync } from 'node:fs';
import { nodeFolderSource } from '../cli/nodeSource';
import { loadTabench, readQuery, type Query } from '../src/core/benchmarks/tabench/dataset';
import type { BoxFamily } from '../src/core/text/vlmBoxes/types';
import { shared } from './shared';
import { DOTS_MAX_PIXELS, DOTS_MIN_PIXELS, smartResize } from '../src/core/text/vlmBoxes/smartResize';

export type Unit = readonly [number, number, number, number];
export interface Img {
  width: number;
  height: number;
}

const r = Math.round;
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const k1000 = (u: Unit) => u.map((v) => r(v * 1000));

/** transformers Kosmos2 `coordinate_to_patch_index` (32 × 32): floor of x1·32, ceil(x2·32 − 1). */
function kosmosCells(u: Unit): [number, number] {
  const n = 32;
  const ulx = Math.floor(u[0] * n);
  const uly = Math.floor(u[1] * n);
  const lrx = Math.ceil(u[2] * n - 1);
  const lry = Math.ceil(u[3] * n - 1);
  return [uly * n + ulx, lry * n + lrx];
}
const pad4 = (n: number) => String(n).padStart(4, '0');

export const WRITERS: Record<BoxFamily, (boxes: readonly Unit[], img: Img) => string> = {
  qwen2vl: (bs) => bs.map((u, i) => { const [a, b, c, d] = k1000(u); return `<|object_ref_start|>item ${i}<|object_ref_end|><|box_start|>(${a},${b}),(${c},${d})<|box_end|>`; }).join(''),
  qwen25vl: (bs, img) => {
    const s = smartResize(img.width, img.height)!;
    return '```json\n' + JSON.stringify(bs.map((u, i) => ({ bbox_2d: [r(u[0] * s.width), r(u[1] * s.height), r(u[2] * s.width), r(u[3] * s.height)], label: `item ${i}` }))) + '\n```';
  },
  qwen3vl: (bs) => '```json\n' + JSON.stringify(bs.map((u, i) => ({ bbox_2d: k1000(u), label: `item ${i}` }))) + '\n```',
  internvl: (bs) => bs.map((u, i) => `<ref>item ${i}</ref><box>[[${k1000(u).join(', ')}]]</box>`).join('\n'),
  glm: (bs) => `The items are at <|begin_of_box|>[${bs.map((u) => `[${k1000(u).join(',')}]`).join(', ')}]<|end_of_box|>`,
  gemini: (bs) => '```json\n' + JSON.stringify(bs.map((u, i) => ({ box_2d: [r(u[1] * 1000), r(u[0] * 1000), r(u[3] * 1000), r(u[2] * 1000)], label: `item ${i}` })), null, 2) + '\n```',
  florence2: (bs) => 'item' + bs.map((u) => u.map((v) => `<loc_${clamp(Math.floor(v * 1000), 0, 999)}>`).join('')).join(''),
  paligemma: (bs) => bs.map((u, i) => [u[1], u[0], u[3], u[2]].map((v) => `<loc${pad4(r(v * 1023))}>`).join('') + ` item ${i}`).join(' ; '),
  deepseek: (bs) => bs.map((u, i) => `<|ref|>item ${i}<|/ref|><|det|>[[${u.map((v) => r(v * 999)).join(', ')}]]<|/det|>`).join('\n'),
  minicpmv: (bs) => bs.map((u, i) => `<ref>item ${i}</ref><box>${k1000(u).join(' ')}</box>`).join(' '),
  molmo: (bs) => bs.map((u, i) => `<points x1="${(u[0] * 100).toFixed(1)}" y1="${(u[1] * 100).toFixed(1)}" x2="${(u[2] * 100).toFixed(1)}" y2="${(u[3] * 100).toFixed(1)}" alt="item ${i}">item ${i}</points>`).join(' '),
  kosmos2: (bs) => `<grounding><phrase>items</phrase><object>${bs.map((u) => kosmosCells(u).map((c) => `<patch_index_${pad4(c)}>`).join('')).join('</delimiter_of_multi_objects/>')}</object>`,
  mineru: (bs) => bs.map((u) => `<|box_start|>${k1000(u).map((v) => String(v).padStart(3, '0')).join(' ')}<|box_end|><|ref_start|>text<|ref_end|>`).join('\n'),
  paddleocrvl: (bs) => bs.map((u, i) => { const [a, b, c, d] = k1000(u); return `item ${i}` + [a, b, c, b, c, d, a, d].map((v) => `<|LOC_${v}|>`).join(''); }).join('\n'),
  dotsocr: (bs, img) => {
    const s = smartResize(img.width, img.height, DOTS_MIN_PIXELS, DOTS_MAX_PIXELS)!;
    return JSON.stringify(bs.map((u, i) => ({ bbox: [r(u[0] * s.width), r(u[1] * s.height), r(u[2] * s.width), r(u[3] * s.height)], category: 'Picture', text: `item ${i}` })));
  },
};

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** Image sizes of tabench-mini, as the dataset reads them from the image headers. */
export async function tabenchSizes(): Promise<Map<string, Img>> {
  const ds = await loadTabench(nodeFolderSource(shared('data', 'tabench-mini')));
  const out = new Map<string, Img>();
  for (const [k, v] of ds.imageSizes) if (v) out.set(k, v);
  return out;
}

export function tabenchFile(space: 'abs' | 'rel1000', family: BoxFamily, sizes: Map<string, Img>): string {
  const text = readFileSync(shared('data', 'tabench-mini', `TABench-${space}.jsonl`), 'utf8');
  const rows: unknown[] = [];
  text.split('\n').forEach((l, i) => {
    if (!l.trim()) return;
    const raw = JSON.parse(l) as Record<string, unknown>;
    const q = readQuery(raw, i + 1) as Query;
    if (q.task !== 'T2R') return;
    const img = sizes.get(q.image_path)!;
    const unit = q.gtBoxes.map((b): Unit => (space === 'rel1000' ? [b[0] / 1000, b[1] / 1000, b[2] / 1000, b[3] / 1000] : [b[0] / img.width, b[1] / img.height, b[2] / img.width, b[3] / img.height]));
    rows.push({ ...raw, prediction: WRITERS[family](unit, img) });
  });
  return jsonl(rows);
}

export function gansuFile(family: BoxFamily): string {
  const text = readFileSync(shared('data', 'gansulishuzhi-mini', 'manifest.jsonl'), 'utf8');
  const rows = text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const m = JSON.parse(l) as { id: string; image_size_px: [number, number]; gt_bboxes: number[][] };
      const [w, h] = m.image_size_px;
      const unit = m.gt_bboxes.map((b): Unit => [b[0] / w, b[1] / h, b[2] / w, b[3] / h]);
      return { id: m.id, response: unit.length ? WRITERS[family](unit, { width: w, height: h }) : '[]' };
    });
  return jsonl(rows);
}

