/**
 * Dialects that write coordinates as location tokens: Florence-2 `<loc_N>`, PaliGemma
 * `<locNNNN>`, PaddleOCR-VL `<|LOC_n|>`, Kosmos-2 `<patch_index_NNNN>`.
 */
import type { Box } from '../../geometry/box';
import { quadBounds, scaled } from './numbers';
import type { FamilyRead, FamilyReader, UnitBox } from './types';

/** Runs of consecutive tokens (white space between them allowed), as lists of their numbers. */
function runs(text: string, token: RegExp): number[][] {
  const out: number[][] = [];
  let cur: number[] = [];
  let end = -1;
  for (const m of text.matchAll(token)) {
    const gap = end < 0 ? '' : text.slice(end, m.index);
    if (cur.length > 0 && gap.trim() !== '') {
      out.push(cur);
      cur = [];
    }
    cur.push(Number(m[1]));
    end = m.index + m[0].length;
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

/**
 * A run of 8 that reads as a quadrilateral (top-left, top-right, bottom-right, bottom-left: the
 * order Florence-2's OCR_WITH_REGION and PaddleOCR-VL's spotting write) rather than two boxes.
 */
function isQuad(q: readonly number[]): boolean {
  const [x1, y1, x2, y2, x3, y3, x4, y4] = q;
  return x2 > x1 && x3 > x4 && y3 > y2 && y4 > y1 && Math.abs(y2 - y1) < y4 - y1 && Math.abs(x4 - x1) < x2 - x1;
}

/** Boxes of a run: 8 numbers forming a quad → its bounding box; else groups of 4 (a tail is dropped). */
function boxesOfRun(run: readonly number[]): Box[] {
  if (run.length === 8 && isQuad(run)) return [quadBounds(run)];
  const out: Box[] = [];
  for (let i = 0; i + 4 <= run.length; i += 4) out.push([run[i], run[i + 1], run[i + 2], run[i + 3]]);
  return out;
}

function tokenRead(text: string, token: RegExp, toUnit: (b: Box) => UnitBox): FamilyRead {
  const written = runs(text, token).flatMap(boxesOfRun);
  return { boxes: written.map(toUnit), found: written.length > 0, needsSize: false, points: 0 };
}

/**
 * Florence-2: transformers `models/florence2/processing_florence2.py`, Florence2PostProcessor:
 *     self.quantize_bins = (1000, 1000)
 *     # Add 0.5 to use the center position of the bin as the coordinate.
 *     dq_xmin = (xmin + 0.5) * per_bin_w        # per_bin_w = size_w / bins_w
 *     box_pattern = r"<loc_(\d+)><loc_(\d+)><loc_(\d+)><loc_(\d+)>"
 *     OCR_WITH_REGION: r"(.+?)<loc_(\d+)>…<loc_(\d+)>" with 8 locations, a quad
 * (its `dequantize` then truncates with `.int()`; the spec says (bin + 0.5) · side / 1000, kept
 * unrounded here like every other reading).
 */
const florenceUnit = (b: Box): UnitBox => [(b[0] + 0.5) / 1000, (b[1] + 0.5) / 1000, (b[2] + 0.5) / 1000, (b[3] + 0.5) / 1000];
export const florence2: FamilyReader = {
  family: 'florence2',
  short: '<loc_N> bins, 0–999',
  models: 'Florence-2',
  writes: '`text<loc_x1><loc_y1><loc_x2><loc_y2>`; OCR_WITH_REGION: 8 `<loc_>` per quad',
  space: '1000 bins, pixel = (bin + 0.5) · side / 1000',
  detect: (t) => /<loc_\d+>/.test(t),
  read: (t) => tokenRead(t, /<loc_(\d+)>/g, florenceUnit),
  fromPlain: florenceUnit,
};

/**
 * PaliGemma 1/2: google-research/big_vision `configs/proj/paligemma/README.md` — detection answers
 * are `<locYYYY><locXXXX><locYYYY><locXXXX> label ;` with 1024 bins: "the four location tokens
 * ... represent y_min, x_min, y_max, x_max", each value / 1023 of the side (the spec's rule).
 */
const paliUnit = (b: Box): UnitBox => [b[1] / 1023, b[0] / 1023, b[3] / 1023, b[2] / 1023];
export const paligemma: FamilyReader = {
  family: 'paligemma',
  short: '<locNNNN> tokens, y first, 1024 bins',
  models: 'PaliGemma 1/2',
  writes: '`<locYYYY><locXXXX><locYYYY><locXXXX> label ;`',
  space: '1024 bins (`<loc0000>`–`<loc1023>`), value / 1023 · side, **y first**',
  detect: (t) => /<loc\d{4}>/.test(t),
  read: (t) => tokenRead(t, /<loc(\d{4})>/g, paliUnit),
  fromPlain: paliUnit,
};

/**
 * PaddleOCR-VL spotting (PaddleX `paddleocr_vl`): each text line followed by its quad as eight
 * `<|LOC_n|>` tokens in 0–1000 (four corners, x first); a run of four is a box.
 */
export const paddleocrvl: FamilyReader = {
  family: 'paddleocrvl',
  short: '<|LOC_n|> quads, 0–1000',
  models: 'PaddleOCR-VL (spotting)',
  writes: '`text<|LOC_x1|><|LOC_y1|>…<|LOC_y4|>` (a quad of 8 tokens)',
  space: '0–1000 of the image',
  detect: (t) => /<\|LOC_\d+\|>/.test(t),
  read: (t) => tokenRead(t, /<\|LOC_(\d+)\|>/g, (b) => scaled(b, 1000, 1000)),
  fromPlain: (b) => scaled(b, 1000, 1000),
};

/**
 * Kosmos-2: transformers `models/kosmos2/processing_kosmos2.py` (`patch_index_to_coordinate`, from
 * microsoft/unilm kosmos-2 `decode_string.py`), a 32 × 32 grid:
 *     cell_size = 1.0 / num_patches_per_side
 *     ul_x = ul_idx % num_patches_per_side; ul_y = ul_idx // num_patches_per_side (same for lr)
 *     if ul_idx == lr_idx or ul_x == lr_x or ul_y == lr_y:
 *         x1 = ul_x * cell_size; y1 = ul_y * cell_size
 *         x2 = lr_x * cell_size + cell_size; y2 = lr_y * cell_size + cell_size
 *     else:
 *         x1 = ul_x * cell_size + cell_size / 2; …; y2 = lr_y * cell_size + cell_size / 2
 * A 32-cell grid cannot express a word box much smaller than a cell: such boxes read coarse.
 */
const GRID = 32;
export function kosmosPatchBox(ul: number, lr: number, n = GRID): UnitBox {
  const c = 1 / n;
  const ulx = ul % n;
  const uly = Math.floor(ul / n);
  const lrx = lr % n;
  const lry = Math.floor(lr / n);
  if (ul === lr || ulx === lrx || uly === lry) return [ulx * c, uly * c, lrx * c + c, lry * c + c];
  return [ulx * c + c / 2, uly * c + c / 2, lrx * c + c / 2, lry * c + c / 2];
}
const PATCH_PAIR = /<patch_index_(\d+)>\s*<patch_index_(\d+)>/g;
export const kosmos2: FamilyReader = {
  family: 'kosmos2',
  short: '<patch_index_N> pairs, 32 × 32 grid',
  models: 'Kosmos-2',
  writes: '`<object><patch_index_AAAA><patch_index_BBBB></object>` (pairs joined by `</delimiter_of_multi_objects/>`)',
  space: '32 × 32 grid cells (upper-left and lower-right cell)',
  detect: (t) => /<patch_index_\d+>/.test(t),
  read: (t) => {
    const boxes = [...t.matchAll(PATCH_PAIR)]
      .map((m) => [Number(m[1]), Number(m[2])])
      .filter(([a, b]) => a < GRID * GRID && b < GRID * GRID)
      .map(([a, b]) => kosmosPatchBox(a, b));
    return { boxes, found: boxes.length > 0, needsSize: false, points: 0 };
  },
};
