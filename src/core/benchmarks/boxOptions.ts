/**
 * The protocol options that read vision-language models' box dialects (shared/specs/vlm-boxes.md),
 * shared by TABench and gansulishuzhi. Their defaults are absent (null), so a run without them has
 * the same protocol options in report.json as before they existed.
 */
import type { OptionSpec } from '../model';
import { BOXES_CHOICES, BOXES_OPTION, MAX_PIXELS_OPTION, MIN_PIXELS_OPTION } from '../text/vlmBoxes/families';
import { QWEN25VL_MAX_PIXELS, QWEN25VL_MIN_PIXELS } from '../text/vlmBoxes/smartResize';
import { InputError, type Protocol } from '../model';

export const BOX_OPTION_SPECS: readonly OptionSpec[] = [
  {
    key: BOXES_OPTION,
    kind: 'enum',
    default: null,
    choices: BOXES_CHOICES,
    help:
      'box dialect of the answers: default (absent) = the spec’s parser; auto = each answer by its markers; or one family (qwen2vl, qwen25vl, qwen3vl, internvl, glm, gemini, florence2, paligemma, deepseek, minicpmv, molmo, kosmos2, mineru, paddleocrvl, dotsocr) — see docs/vlm-boxes.md',
  },
  {
    key: MIN_PIXELS_OPTION,
    kind: 'number',
    default: null,
    help: `Qwen2.5-VL smart_resize min_pixels for boxes=qwen25vl (absent: ${QWEN25VL_MIN_PIXELS})`,
  },
  {
    key: MAX_PIXELS_OPTION,
    kind: 'number',
    default: null,
    help: `Qwen2.5-VL smart_resize max_pixels for boxes=qwen25vl (absent: ${QWEN25VL_MAX_PIXELS.toLocaleString('en')})`,
  },
];

/** Refuses resize bounds Qwen's function could not use (a silent wrong resize is a wrong number). */
export function checkBoxOptions(benchmark: string, p: Protocol): Protocol {
  const min = p.options[MIN_PIXELS_OPTION];
  const max = p.options[MAX_PIXELS_OPTION];
  for (const [k, v] of [[MIN_PIXELS_OPTION, min], [MAX_PIXELS_OPTION, max]] as const) {
    if (v !== undefined && !(typeof v === 'number' && v > 0)) throw new InputError(`option ${k}=${String(v)} for ${benchmark}: expected a number of pixels > 0`);
  }
  const lo = typeof min === 'number' ? min : QWEN25VL_MIN_PIXELS;
  const hi = typeof max === 'number' ? max : QWEN25VL_MAX_PIXELS;
  if (lo > hi) throw new InputError(`options for ${benchmark}: ${MIN_PIXELS_OPTION} (${lo}) is above ${MAX_PIXELS_OPTION} (${hi})`);
  return p;
}
