/**
 * Dialects that write boxes as JSON values under a key: Qwen2.5-VL and Qwen3-VL (`bbox_2d`),
 * Gemini (`box_2d`, y first), dots.ocr (`bbox` beside `category`). The key is scanned for in the
 * text rather than JSON-parsed, so an answer cut at the token limit still gives its whole boxes.
 */
import type { Box } from '../../geometry/box';
import { NUM, scaled } from './numbers';
import { DOTS_MAX_PIXELS, DOTS_MIN_PIXELS, smartResize } from './smartResize';
import type { FamilyRead, FamilyReader, ReadContext, UnitBox } from './types';

function keyed(key: string): RegExp {
  return new RegExp(String.raw`["']${key}["']\s*:\s*\[\s*\[?\s*(${NUM})\s*,\s*(${NUM})\s*,\s*(${NUM})\s*,\s*(${NUM})\s*\]?\s*\]`, 'g');
}
const BBOX_2D = keyed('bbox_2d');
const BOX_2D = keyed('box_2d');
const BBOX = keyed('bbox');

function valuesOf(re: RegExp, text: string): Box[] {
  return [...text.matchAll(re)].map((m) => [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])] as Box);
}

function readWith(re: RegExp, text: string, toUnit: (b: Box) => UnitBox | null): FamilyRead {
  const written = valuesOf(re, text);
  const boxes: UnitBox[] = [];
  for (const b of written) {
    const u = toUnit(b);
    if (u) boxes.push(u);
  }
  return { boxes, found: written.length > 0, needsSize: written.length > 0 && boxes.length === 0, points: 0 };
}

/** Pixels of the resized model input → fractions of the image (null: size unknown or refused). */
function resizedPixels(b: Box, ctx: ReadContext, min: number, max: number): UnitBox | null {
  if (!ctx.size) return null;
  const r = smartResize(ctx.size.width, ctx.size.height, min, max);
  return r ? scaled(b, r.width, r.height) : null;
}

/**
 * Qwen2.5-VL grounds in absolute coordinates of the image *it was given*, i.e. after smart_resize.
 * QwenLM/Qwen2.5-VL `cookbooks/spatial_understanding.ipynb` / `ocr.ipynb` (`plot_text_bounding_boxes`)
 * draw its boxes after scaling by the ratio of the real size to the input size:
 *     abs_x1 = int(bounding_box["bbox_2d"][0]/input_width * width)
 * where `input_width` / `input_height` come from `image_grid_thw * 14`, i.e. smart_resize's output.
 */
export const qwen25vl: FamilyReader = {
  family: 'qwen25vl',
  short: "bbox_2d JSON in the resized input's pixels",
  models: 'Qwen2.5-VL',
  writes: 'JSON `[{"bbox_2d": [x1, y1, x2, y2], "label": …}]`',
  space: 'pixels of the resized model input (smart_resize, factor 28; options qwen25vl_min_pixels / qwen25vl_max_pixels)',
  detect: (t) => /["']bbox_2d["']\s*:/.test(t),
  read: (t, ctx) => readWith(BBOX_2D, t, (b) => resizedPixels(b, ctx, ctx.minPixels, ctx.maxPixels)),
  fromPlain: (b, ctx) => resizedPixels(b, ctx, ctx.minPixels, ctx.maxPixels),
};

/**
 * Qwen3-VL writes the same JSON in relative coordinates: QwenLM/Qwen3-VL
 * `cookbooks/spatial_understanding.ipynb` scales `bbox_2d` by `/ 1000 * width` ("relative
 * coordinates ... 0 to 1000"); some of its docs say 0–999, which the diagnosis tries too (deepseek).
 */
export const qwen3vl: FamilyReader = {
  family: 'qwen3vl',
  short: 'bbox_2d JSON, 0–1000',
  models: 'Qwen3-VL',
  writes: 'JSON `[{"bbox_2d": [x1, y1, x2, y2], "label": …}]`',
  space: '0–1000 of the image',
  detect: (t) => /["']bbox_2d["']\s*:/.test(t),
  read: (t) => readWith(BBOX_2D, t, (b) => scaled(b, 1000, 1000)),
  fromPlain: (b) => scaled(b, 1000, 1000),
};

/**
 * Gemini 2.x: google-gemini/cookbook `quickstarts/Spatial_understanding.ipynb` — "The model
 * returns bounding boxes as `box_2d: [ymin, xmin, ymax, xmax]` normalized to 0-1000":
 *     abs_y1 = int(bounding_box["box_2d"][0]/1000 * height)
 *     abs_x1 = int(bounding_box["box_2d"][1]/1000 * width)
 */
function yFirst1000(b: Box): UnitBox {
  return [b[1] / 1000, b[0] / 1000, b[3] / 1000, b[2] / 1000];
}
export const gemini: FamilyReader = {
  family: 'gemini',
  short: 'box_2d JSON, y first, 0–1000',
  models: 'Gemini 2.x',
  writes: 'JSON `[{"box_2d": [ymin, xmin, ymax, xmax], "label": …}]`',
  space: '0–1000 of the image, **y first**',
  detect: (t) => /["']box_2d["']\s*:/.test(t),
  read: (t) => readWith(BOX_2D, t, yFirst1000),
  fromPlain: yFirst1000,
};

/**
 * dots.ocr (rednote-hilab/dots.ocr): layout JSON `[{"bbox": [x1, y1, x2, y2], "category": "Text",
 * "text": …}]` in pixels of its resized input (`fetch_image` → smart_resize with factor 28 and
 * MIN_PIXELS 3136 / MAX_PIXELS 11289600; `post_process_cells` scales back by the input size).
 * Its marker is `bbox` *beside* `category`: a bare `bbox` is the spec's own JSON.
 */
export const dotsocr: FamilyReader = {
  family: 'dotsocr',
  short: "bbox + category JSON in the resized input's pixels",
  models: 'dots.ocr',
  writes: 'JSON `[{"bbox": [x1, y1, x2, y2], "category": …, "text": …}]`',
  space: 'pixels of the resized model input (smart_resize, factor 28, 3136–11,289,600 pixels)',
  detect: (t) => /["']category["']\s*:/.test(t) && /["']bbox["']\s*:/.test(t),
  read: (t, ctx) => readWith(BBOX, t, (b) => resizedPixels(b, ctx, DOTS_MIN_PIXELS, DOTS_MAX_PIXELS)),
  fromPlain: (b, ctx) => resizedPixels(b, ctx, DOTS_MIN_PIXELS, DOTS_MAX_PIXELS),
};
