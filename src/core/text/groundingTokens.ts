/**
 * Qwen2-VL grounding output: `<|object_ref_start|>label<|object_ref_end|><|box_start|>(x1,y1),(x2,y2)<|box_end|>`,
 * coordinates in 0–1000 of the image (Qwen2-VL's training data writes `int(x · 1000 / width)`).
 * A server that decodes with `skip_special_tokens` (vLLM's default) drops the `<|…|>` markers and
 * leaves `label(x1,y1),(x2,y2)`, so the bare pair of points is read too. Qwen-VL (v1) wrote the
 * same pairs inside `<box>…</box>`, which this reads as well.
 */
import type { Box } from '../geometry/box';

const NUM = String.raw`[-+]?(?:\d+(?:\.\d*)?|\.\d+)`;
const PAIR = String.raw`\(\s*(${NUM})\s*,\s*(${NUM})\s*\)\s*,\s*\(\s*(${NUM})\s*,\s*(${NUM})\s*\)`;
/** A pair of points, with or without the box markers around it. */
const BOX_RE = new RegExp(String.raw`(?:<\|box_start\|>|<box>)?\s*${PAIR}\s*(?:<\|box_end\|>|</box>)?`, 'g');
const MARKER_RE = /<\|box_start\|>|<\|box_end\|>|<\|object_ref_start\|>|<box>\s*\(/;

/** Boxes `[x1, y1, x2, y2]` in 0–1000 space, in the order written (corners as written). */
export function readQwenBoxTokens(text: string): Box[] {
  const out: Box[] = [];
  for (const m of text.matchAll(BOX_RE)) out.push([Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])]);
  return out;
}

/** Whether a raw answer looks like Qwen2-VL grounding output (markers, or bare point pairs). */
export function looksLikeQwenBoxTokens(raw: unknown): boolean {
  if (typeof raw !== 'string') return false;
  if (MARKER_RE.test(raw)) return readQwenBoxTokens(raw).length > 0 || raw.includes('<|box_start|>');
  return readQwenBoxTokens(raw).length > 0;
}

/** Scales a 0–1000 box to pixels of a `w × h` image (no rounding). */
export function rel1000ToPixels(b: Box, w: number, h: number): Box {
  return [(b[0] * w) / 1000, (b[1] * h) / 1000, (b[2] * w) / 1000, (b[3] * h) / 1000];
}

/** Scales a pixel box of a `w × h` image to 0–1000 (no rounding). */
export function pixelsToRel1000(b: Box, w: number, h: number): Box {
  return [(b[0] * 1000) / w, (b[1] * 1000) / h, (b[2] * 1000) / w, (b[3] * 1000) / h];
}

export const QWEN_OPTION = 'qwen2vl_boxes';
