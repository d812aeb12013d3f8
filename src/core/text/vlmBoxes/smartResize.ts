/**
 * Qwen2.5-VL's input resize, to read boxes it writes in the pixels of its *resized* input.
 * A transcription of qwen-vl-utils `vision_process.py` (QwenLM/Qwen2.5-VL), whose lines are:
 *
 *     IMAGE_FACTOR = 28; MIN_PIXELS = 4 * 28 * 28; MAX_PIXELS = 16384 * 28 * 28; MAX_RATIO = 200
 *     h_bar = max(factor, round_by_factor(height, factor))
 *     w_bar = max(factor, round_by_factor(width, factor))
 *     if h_bar * w_bar > max_pixels:
 *         beta = math.sqrt((height * width) / max_pixels)
 *         h_bar = floor_by_factor(height / beta, factor)
 *         w_bar = floor_by_factor(width / beta, factor)
 *     elif h_bar * w_bar < min_pixels:
 *         beta = math.sqrt(min_pixels / (height * width))
 *         h_bar = ceil_by_factor(height * beta, factor)
 *         w_bar = ceil_by_factor(width * beta, factor)
 *
 * with `round_by_factor(n, f) = round(n / f) * f` — Python's round, which sends halves to the even
 * neighbour (round(2.5) == 2): a 70-pixel side becomes 56, not 84. dots.ocr resizes the same way
 * (factor 28) with its own bounds (rednote-hilab/dots.ocr `dots_ocr/utils/consts.py`:
 * MIN_PIXELS = 3136, MAX_PIXELS = 11289600).
 */

export const QWEN_FACTOR = 28;
export const QWEN25VL_MIN_PIXELS = 4 * 28 * 28; // 3136
export const QWEN25VL_MAX_PIXELS = 16384 * 28 * 28; // 12,845,056
export const DOTS_MIN_PIXELS = 3136;
export const DOTS_MAX_PIXELS = 11289600;
const MAX_RATIO = 200;

/** Python 3 round(): nearest integer, halves to even. */
export function pythonRound(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  if (d < 0.5) return f;
  if (d > 0.5) return f + 1;
  return f % 2 === 0 ? f : f + 1;
}

/**
 * The resized (width, height) the model saw, or null when Qwen's function would refuse the image
 * (an aspect ratio beyond 200, or a side that is not a positive number).
 */
export function smartResize(
  width: number,
  height: number,
  minPixels = QWEN25VL_MIN_PIXELS,
  maxPixels = QWEN25VL_MAX_PIXELS,
  factor = QWEN_FACTOR,
): { width: number; height: number } | null {
  if (!(width > 0 && height > 0)) return null;
  if (Math.max(height, width) / Math.min(height, width) > MAX_RATIO) return null;
  let hBar = Math.max(factor, pythonRound(height / factor) * factor);
  let wBar = Math.max(factor, pythonRound(width / factor) * factor);
  if (hBar * wBar > maxPixels) {
    const beta = Math.sqrt((height * width) / maxPixels);
    hBar = Math.floor(height / beta / factor) * factor;
    wBar = Math.floor(width / beta / factor) * factor;
  } else if (hBar * wBar < minPixels) {
    const beta = Math.sqrt(minPixels / (height * width));
    hBar = Math.ceil((height * beta) / factor) * factor;
    wBar = Math.ceil((width * beta) / factor) * factor;
  }
  return { width: wBar, height: hBar };
}
