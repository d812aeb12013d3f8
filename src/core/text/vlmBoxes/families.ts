/**
 * The box dialects of vision-language models (shared/specs/vlm-boxes.md), one reader each, and
 * the two things the benchmarks ask of them: which dialect an answer speaks (by its markers), and
 * its boxes read as that family meant them, as fractions of the image.
 */
import type { Box } from '../../geometry/box';
import { cleanModelOutput } from '../modelOutput';
import { dotsocr, gemini, qwen25vl, qwen3vl } from './jsonKeys';
import { florence2, kosmos2, paddleocrvl, paligemma } from './locTokens';
import { molmo } from './molmo';
import { QWEN25VL_MAX_PIXELS, QWEN25VL_MIN_PIXELS } from './smartResize';
import { deepseek, glm, internvl, minicpmv, mineru, qwen2vl } from './tagTokens';
import type { BoxesChoice, BoxFamily, FamilyRead, FamilyReader, ReadContext, UnitBox } from './types';

export type { BoxesChoice, BoxFamily, FamilyRead, ReadContext, UnitBox } from './types';

export const BOXES_OPTION = 'boxes';
export const MIN_PIXELS_OPTION = 'qwen25vl_min_pixels';
export const MAX_PIXELS_OPTION = 'qwen25vl_max_pixels';

/**
 * Detection order, most specific marker first: GLM's and DeepSeek's tokens can hold bracketed
 * groups that InternVL's or the bare-pair rule would also see; `bbox_2d` (Qwen2.5-VL and Qwen3-VL
 * alike) and dots.ocr's `bbox` are plain JSON keys, so they come last.
 */
const READERS: readonly FamilyReader[] = [glm, deepseek, paddleocrvl, kosmos2, florence2, paligemma, molmo, mineru, qwen2vl, internvl, minicpmv, gemini, dotsocr, qwen25vl, qwen3vl];
const BY_FAMILY = new Map<BoxFamily, FamilyReader>(READERS.map((r) => [r.family, r]));

/** The option's choices, in the order the docs list them. */
export const BOX_FAMILIES: readonly BoxFamily[] = [
  'qwen2vl', 'qwen25vl', 'qwen3vl', 'internvl', 'glm', 'gemini', 'florence2', 'paligemma', 'deepseek', 'minicpmv', 'molmo', 'kosmos2', 'mineru', 'paddleocrvl', 'dotsocr',
];
export const BOXES_CHOICES: readonly BoxesChoice[] = ['default', 'auto', ...BOX_FAMILIES];

export function readerOf(f: BoxFamily): FamilyReader {
  return BY_FAMILY.get(f)!;
}

/** Families that write the same markers, told apart only by the coordinate space (fit over a file). */
export function sameMarkers(f: BoxFamily): readonly BoxFamily[] {
  return f === 'qwen25vl' || f === 'qwen3vl' ? ['qwen25vl', 'qwen3vl'] : [f];
}

/** The answer as text for the readers: JSON already parsed is written back; think blocks and fences go. */
export function answerText(raw: unknown): string {
  let s: string;
  if (typeof raw === 'string') s = raw;
  else {
    try {
      s = JSON.stringify(raw) ?? '';
    } catch {
      s = '';
    }
  }
  return cleanModelOutput(s).text;
}

/**
 * The dialect an answer's markers name (the first in detection order), or null for none. Qwen2.5-VL
 * and Qwen3-VL share theirs: this says `qwen25vl` for both, and the file's fit decides.
 */
export function detectFamily(text: string): BoxFamily | null {
  for (const r of READERS) if (r.family !== 'qwen3vl' && r.detect(text)) return r.family;
  return null;
}

export function readContext(size: { width: number; height: number } | null, options: Record<string, unknown>): ReadContext {
  const min = options[MIN_PIXELS_OPTION];
  const max = options[MAX_PIXELS_OPTION];
  return {
    size,
    minPixels: typeof min === 'number' ? min : QWEN25VL_MIN_PIXELS,
    maxPixels: typeof max === 'number' ? max : QWEN25VL_MAX_PIXELS,
  };
}

/**
 * An answer read as `family`: its boxes in the family's own syntax; when it has none, the boxes
 * the spec's parser finds (`plain`) taken in the family's order and space ("reads the whole file
 * in that dialect and space").
 */
export function readAs(family: BoxFamily, text: string, ctx: ReadContext, plain: () => readonly Box[]): FamilyRead {
  const reader = readerOf(family);
  const own = reader.read(text, ctx);
  if (own.found || !reader.fromPlain) return own;
  const written = plain();
  const boxes: UnitBox[] = [];
  for (const b of written) {
    const u = reader.fromPlain(b, ctx);
    if (u) boxes.push(u);
  }
  return { boxes, found: false, needsSize: written.length > 0 && boxes.length === 0, points: 0 };
}

/** Fractions of the image → pixels of a w × h image. */
export function unitToPixels(b: UnitBox, w: number, h: number): Box {
  return [b[0] * w, b[1] * h, b[2] * w, b[3] * h];
}

/** The README / docs rows: family, models, syntax, space. */
export function familyRows(): { family: BoxFamily; models: string; writes: string; space: string }[] {
  return BOX_FAMILIES.map((f) => {
    const r = readerOf(f);
    return { family: f, models: r.models, writes: r.writes, space: r.space };
  });
}
