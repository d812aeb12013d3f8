/**
 * Dialects that wrap boxes in tags or special tokens: Qwen2-VL, InternVL, MiniCPM-V, GLM-4.xV,
 * DeepSeek-VL2 / DeepSeek-OCR, MinerU2.5. Every box of an answer is read (one tag per object,
 * and several groups inside one tag), never only the first.
 */
import { readQwenBoxTokens } from '../groundingTokens';
import { allNumbers, groupsOfFour, NUM, scaled, spansBetween } from './numbers';
import type { Box } from '../../geometry/box';
import type { FamilyRead, FamilyReader, UnitBox } from './types';

function plainRead(written: Box[], toUnit: (b: Box) => UnitBox): FamilyRead {
  return { boxes: written.map(toUnit), found: written.length > 0, needsSize: false, points: 0 };
}
const per1000 = (b: Box) => scaled(b, 1000, 1000);
const per999 = (b: Box) => scaled(b, 999, 999);

/** Numbers of a span taken four at a time (a trailing incomplete group is dropped). */
function fours(span: string): Box[] {
  const n = allNumbers(span);
  const out: Box[] = [];
  for (let i = 0; i + 4 <= n.length; i += 4) out.push([n[i], n[i + 1], n[i + 2], n[i + 3]]);
  return out;
}

/**
 * Qwen2-VL: `<|object_ref_start|>t<|object_ref_end|><|box_start|>(x1,y1),(x2,y2)<|box_end|>` in
 * 0–1000 (QwenLM/Qwen3-VL `qwen-vl-finetune/tools/process_bbox.ipynb` writes `int(x / w * 1000)`);
 * read by ../groundingTokens.ts, which also takes the bare pairs a server leaves when it drops
 * special tokens.
 */
const QWEN2_MARKER = /<\|box_start\|>\s*\(|<\|object_ref_start\|>|<box>\s*\(/;
const BARE_PAIR = new RegExp(String.raw`\(\s*${NUM}\s*,\s*${NUM}\s*\)\s*,\s*\(\s*${NUM}\s*,\s*${NUM}\s*\)`);
export const qwen2vl: FamilyReader = {
  family: 'qwen2vl',
  short: '<|box_start|>(x1,y1),(x2,y2)<|box_end|> tokens, 0–1000',
  models: 'Qwen2-VL (and Qwen-VL)',
  writes: '`<|object_ref_start|>t<|object_ref_end|><|box_start|>(x1,y1),(x2,y2)<|box_end|>`',
  space: '0–1000 of the image',
  detect: (t) => QWEN2_MARKER.test(t) || BARE_PAIR.test(t),
  read: (t) => plainRead(readQwenBoxTokens(t), per1000),
  fromPlain: per1000,
};

/**
 * InternVL 2–3.5: OpenGVLab/InternVL `internvl_chat/eval/refcoco/evaluate_grounding.py` reads
 *     PATTERN = re.compile(r'\[*\[(.*?),(.*?),(.*?),(.*?)\]\]*')
 *     predict_bbox = (float(predict_bbox[0][0]), float(predict_bbox[0][1]), …)
 * then divides by 1000 and multiplies by the image width / height. Its refcoco answers hold one
 * object; on a page with several, InternVL writes `<ref>t</ref><box>[[x1, y1, x2, y2]]</box>` once
 * per object, so every `<box>` (and every group inside one) is read here.
 */
export const internvl: FamilyReader = {
  family: 'internvl',
  short: '<box>[[x1, y1, x2, y2]]</box>, 0–1000',
  models: 'InternVL 2–3.5',
  writes: '`<ref>t</ref><box>[[x1, y1, x2, y2]]</box>`, one `<box>` per object',
  space: '0–1000 of the image',
  detect: (t) => /<box>\s*\[/.test(t),
  read: (t) => plainRead(spansBetween(t, '<box>', '</box>').flatMap(groupsOfFour), per1000),
  fromPlain: per1000,
};

const MINICPM_MARKER = new RegExp(String.raw`<box>\s*${NUM}\s+${NUM}`);
/** MiniCPM-V 2.5–4.5: `<ref>t</ref><box>x1 y1 x2 y2</box>` — numbers separated by spaces, 0–1000. */
export const minicpmv: FamilyReader = {
  family: 'minicpmv',
  short: '<box>x1 y1 x2 y2</box>, 0–1000',
  models: 'MiniCPM-V 2.5–4.5',
  writes: '`<ref>t</ref><box>x1 y1 x2 y2</box>` (spaces, no brackets)',
  space: '0–1000 of the image',
  detect: (t) => MINICPM_MARKER.test(t),
  read: (t) => plainRead(spansBetween(t, '<box>', '</box>').flatMap(fours), per1000),
  fromPlain: per1000,
};

/**
 * GLM-4.1V-Thinking / GLM-4.5V (zai-org/GLM-V README): "the coordinates … are relative
 * coordinates ranging from 0 to 1000, … wrapped by <|begin_of_box|> and <|end_of_box|>", the
 * brackets inside varying (`[[x1,y1,x2,y2]]`, `[x1,y1,x2,y2]`, several boxes in one span).
 */
export const glm: FamilyReader = {
  family: 'glm',
  short: '<|begin_of_box|>…<|end_of_box|>, 0–1000',
  models: 'GLM-4.1V / GLM-4.5V',
  writes: '`<|begin_of_box|>[[x1,y1,x2,y2], …]<|end_of_box|>` (bracket style varies)',
  space: '0–1000 of the image',
  detect: (t) => t.includes('<|begin_of_box|>'),
  read: (t) => plainRead(spansBetween(t, '<|begin_of_box|>', '<|end_of_box|>').flatMap(fours), per1000),
  fromPlain: per1000,
};

/**
 * DeepSeek-VL2 / DeepSeek-OCR: deepseek-ai/DeepSeek-VL2 `deepseek_vl2/serve/app_modules/utils.py`
 * `parse_ref_bbox`:
 *     bbox = re.findall(r'<\|det\|>.*?<\|/det\|>', response)
 *     for onebox in re.findall(r'\[.*?\]', box): boxes.append(eval(onebox))
 *     box = (int(box[0] / 999 * image_w), int(box[1] / 999 * image_h), …)
 */
export const deepseek: FamilyReader = {
  family: 'deepseek',
  short: '<|det|>[[…]]<|/det|>, 0–999',
  models: 'DeepSeek-VL2, DeepSeek-OCR',
  writes: '`<|ref|>t<|/ref|><|det|>[[x1, y1, x2, y2], …]<|/det|>`',
  space: '0–999 of the image',
  detect: (t) => t.includes('<|det|>'),
  read: (t) => plainRead(spansBetween(t, '<|det|>', '<|/det|>').flatMap(groupsOfFour), per999),
  fromPlain: per999,
};

const MINERU_MARKER = new RegExp(String.raw`<\|box_start\|>\s*${NUM}\s+${NUM}`);
/**
 * MinerU2.5 (opendatalab/mineru-vl-utils): layout blocks
 * `<|box_start|>x1 y1 x2 y2<|box_end|><|ref_start|>type<|ref_end|>`, numbers separated by spaces in
 * 0–1000 (the pairs in parentheses are Qwen2-VL's).
 */
export const mineru: FamilyReader = {
  family: 'mineru',
  short: '<|box_start|>x1 y1 x2 y2<|box_end|>, 0–1000',
  models: 'MinerU2.5',
  writes: '`<|box_start|>x1 y1 x2 y2<|box_end|>` (spaces)',
  space: '0–1000 of the image',
  detect: (t) => MINERU_MARKER.test(t),
  read: (t) => plainRead(spansBetween(t, '<|box_start|>', '<|box_end|>').filter((s) => !s.includes('(')).flatMap(fours), per1000),
  fromPlain: per1000,
};
