/** Shared shapes of the box-dialect readers (see families.ts for the list and ../../../../docs/vlm-boxes.md). */
import type { Box } from '../../geometry/box';

export type BoxFamily =
  | 'qwen2vl'
  | 'qwen25vl'
  | 'qwen3vl'
  | 'internvl'
  | 'glm'
  | 'gemini'
  | 'florence2'
  | 'paligemma'
  | 'deepseek'
  | 'minicpmv'
  | 'molmo'
  | 'kosmos2'
  | 'mineru'
  | 'paddleocrvl'
  | 'dotsocr';

/** The `boxes` protocol option: the spec's parser (default), each answer by its markers (auto), or one family. */
export type BoxesChoice = 'default' | 'auto' | BoxFamily;

export interface Size {
  width: number;
  height: number;
}

export interface ReadContext {
  /** The image's real size, or null when unknown (only resized-pixel dialects need it). */
  size: Size | null;
  /** Qwen2.5-VL's smart_resize bounds (options qwen25vl_min_pixels / qwen25vl_max_pixels). */
  minPixels: number;
  maxPixels: number;
}

/** Boxes as fractions of the image: [x1, y1, x2, y2] in [0, 1] (x first, corners as written). */
export type UnitBox = Box;

export interface FamilyRead {
  boxes: UnitBox[];
  /** The family's own syntax was found in the answer (else the spec parser's boxes were taken in the family's space). */
  found: boolean;
  /** Boxes were written but the image size they need is unknown: none could be placed. */
  needsSize: boolean;
  /** Points read as zero-area boxes (Molmo's single points), which no IoU can credit. */
  points: number;
}

export interface FamilyReader {
  family: BoxFamily;
  /** For the README table and the diagnosis text. */
  models: string;
  /** Syntax and space in a few words, for the diagnosis sentence. */
  short: string;
  writes: string;
  space: string;
  /** Whether an answer carries this family's markers (tokens, key names). */
  detect(text: string): boolean;
  /** Every box the answer writes in this family's syntax, as fractions of the image. */
  read(text: string, ctx: ReadContext): FamilyRead;
  /**
   * A box the spec's parser found in an answer without this family's markers, taken in this
   * family's order and space (`[a, b, c, d]` as written); null when it needs the size and none is
   * known. Absent for dialects whose numbers are not coordinates (Kosmos-2 cells, Molmo points).
   */
  fromPlain?(b: Box, ctx: ReadContext): UnitBox | null;
}
