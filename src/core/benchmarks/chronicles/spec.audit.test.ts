/**
 * Independent audit of the Chronicles-OCR rules (shared/specs/chronicles.md, and the official
 * Opensource/ code where the spec is silent). Every expected value is derived by hand from the
 * spec text, with the arithmetic in a comment, never taken from the implementation.
 */
import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/fileSource';
import { BenchSession } from '../../session';
import { extractClassification, extractParsing, extractRecognition, extractSpotting, stripThinking } from './extract';
import { greedyMatch, judgeParsing, judgeRecognition, judgeSpotting, type SpotItem } from './judge';

describe('extraction rules (reextract)', () => {
  it('strip thinking: answer tag, after the last closing tag, before an opening tag, else all', () => {
    expect(stripThinking('<think>x</think> <answer> 楷书 </answer> tail').text).toBe('楷书');
    // Two closing tags of different kinds, case and spaces in the tag: text after the LAST one.
    expect(stripThinking('<THINK >a</ think>b</Reasoning >c').text).toBe('c');
    // After the closing tag, a lone <answer> opening is removed.
    expect(stripThinking('<think>a</think>\n<answer>楷书').text).toBe('楷书');
    expect(stripThinking('楷书 <thinking> never closed').text).toBe('楷书');
    expect(stripThinking('  plain  ').text).toBe('plain');
  });

  it('classification: exact name, first name contained in the value, latest name in the answer', () => {
    expect(extractClassification('字体分类：楷书').extract).toEqual({ category: '楷书' });
    // The last prefix hit wins.
    expect(extractClassification('字体分类：楷书\n字体分类：隶书').extract).toEqual({ category: '隶书' });
    // "行书或草书": 行书 occurs first in the value → 行书, flagged ambiguous.
    const amb = extractClassification('字体：行书或草书');
    expect(amb.extract).toEqual({ category: '行书' });
    expect(amb.ambiguous).toBe(true);
    // "草书或行书" → 草书 (first in the value, whatever the hash-set order).
    expect(extractClassification('分类: 草书或行书').extract).toMatchObject({ category: '草书' });
    // No name in the value: the name whose LAST occurrence is latest in the answer.
    // "行书…草书…行书" – last 行书 at index 9, last 草书 at index 3 → 行书.
    expect(extractClassification('草书吗？不，草书不是，行书。字体分类：不确定').extract).toMatchObject({ category: '行书' });
    // Names inside the thinking do not count.
    expect(extractClassification('<think>楷书</think>不知道').ok).toBe(false);
  });

  it('parsing: prefix with merged lines up to another prefix; fence; cleaning', () => {
    expect(extractParsing('提取文本：王\n贞\n\n字体分类：甲骨文').extract).toEqual({ extracted_text: '王\n贞' });
    expect(extractParsing('提取文本："王贞人。"').extract).toEqual({ extracted_text: '王贞人' });
    expect(extractParsing('提取文本：```\n王贞\n人\n```\n其它').extract).toEqual({ extracted_text: '王贞\n人' });
    // The last prefix wins: 文本 is a prefix too.
    expect(extractParsing('提取文本：甲\n识别文本：乙丙').extract).toEqual({ extracted_text: '乙丙' });
  });

  it('parsing fallback: pleasantries and classification lines dropped, cut at an inner prefix, ≥ 2 code points', () => {
    // 好的… dropped (pleasantry), 王贞人 kept, 字体分类 line dropped.
    expect(extractParsing('好的，以下是结果\n王贞人\n字体分类：甲骨文').extract).toEqual({ extracted_text: '王贞人', fallback: true });
    // Cut where a classification prefix occurs inside a line.
    expect(extractParsing('王贞人 字体：甲骨文').extract).toEqual({ extracted_text: '王贞人', fallback: true });
    // 图片中的文字为… is a pleasantry line: dropped entirely, leaving 九成宫.
    expect(extractParsing('图片中的文字为：\n九成宫').extract).toEqual({ extracted_text: '九成宫', fallback: true });
    // One character left → fails; one astral character is one code point → fails; two pass.
    expect(extractParsing('好的\n王').ok).toBe(false);
    expect(extractParsing('𠀀').ok).toBe(false);
    expect(extractParsing('𠀀𠀁').extract).toEqual({ extracted_text: '𠀀𠀁', fallback: true });
    // Cleaning strips the end punctuation: "王。" → "王" (1 char) → fails.
    expect(extractParsing('王。').ok).toBe(false);
  });

  it('recognition: UNK forms, first CJK of BMP / Ext A / Ext B–G, else the first character of the first token', () => {
    expect(extractRecognition('现代汉字：unk').extract).toEqual({ char: '[UNK]' });
    expect(extractRecognition('答案：<UNK>').extract).toEqual({ char: '[UNK]' });
    expect(extractRecognition('现代汉字：x𠀀').extract).toEqual({ char: '𠀀' }); // U+20000, Ext B
    expect(extractRecognition('现代汉字：x𰀀').extract).toEqual({ char: '𰀀' }); // U+30000, Ext G
    expect(extractRecognition('现代汉字：x㐀').extract).toEqual({ char: '㐀' }); // U+3400, Ext A
    // Ext H (U+31350) and a compatibility ideograph (U+F900) are outside the ranges: first char "x".
    expect(extractRecognition('现代汉字：x\u{31350}').extract).toEqual({ char: 'x' });
    expect(extractRecognition('现代汉字：x\uF900').extract).toEqual({ char: 'x' });
    // No prefix: the cleaned whole answer; an astral first character is kept whole.
    expect(extractRecognition('\u{31350}z').extract).toEqual({ char: '\u{31350}' });
  });

  it('spotting: JSON, else first [ to last ], else the first [...] that parses as a list; an object fails', () => {
    expect(extractSpotting('{"items": []}').ok).toBe(false);
    const ok = extractSpotting('Here: [{"bbox":[0,0,10,10],"char":" 王 "}] done');
    expect(ok.extract).toEqual({ items: [{ idx: 1, bbox: [0, 0, 10, 10], char: '王' }] });
    // "[1] and [{…}]": whole text and the [ … ] span do not parse; the first non-greedy list is
    // [1], a list whose item is not an object → the extraction fails.
    expect(extractSpotting('[1] and [{"bbox":[0,0,10,10],"char":"a"}]').ok).toBe(false);
    expect(extractSpotting('```json\n[]\n```').extract).toEqual({ items: [] });
    expect(extractSpotting('<think>[]</think>[{"bbox":[0,0,5,5]}]').extract).toEqual({ items: [{ idx: 1, bbox: [0, 0, 5, 5], char: '' }] });
  });

  it('spotting: half-to-even rounding, clamping, x1 < x2 and y1 < y2 after both, any bad item fails all', () => {
    // round(0.5)=0, round(1.5)=2, round(2.5)=2, round(3.5)=4 → [0, 2, 2, 4]: 0 < 2, 2 < 4.
    expect(extractSpotting('[{"bbox":[0.5,1.5,2.5,3.5],"char":null}]').extract).toEqual({ items: [{ idx: 1, bbox: [0, 2, 2, 4], char: '' }] });
    // -5 → 0, -1 → 0, 1004.2 → 1000, 999.5 → 1000 (even).
    expect(extractSpotting('[{"bbox":[-5,-1,1004.2,999.5],"char":"a"}]').extract).toEqual({ items: [{ idx: 1, bbox: [0, 0, 1000, 1000], char: 'a' }] });
    // 10.5 → 10 and 9.5 → 10: x1 = x2 → invalid → the whole extraction fails.
    expect(extractSpotting('[{"bbox":[0,0,5,5],"char":"a"},{"bbox":[10.5,0,9.5,5],"char":"b"}]').ok).toBe(false);
    // Clamped to the same edge: 1001 → 1000, 1200 → 1000 → invalid.
    expect(extractSpotting('[{"bbox":[1001,0,1200,5],"char":"a"}]').ok).toBe(false);
    // bbox with a string → invalid.
    expect(extractSpotting('[{"bbox":[0,0,"5",5],"char":"a"}]').ok).toBe(false);
  });
});

describe('judges', () => {
  it('parsing: whitespace, punctuation (brackets too) and only then UNK / □ removal; 1 − NED over code points', () => {
    // GT 王贞[UNK]人 → brackets deleted → 王贞UNK人 (6); pred 王贞人 (3); lev 3 → 1 − 3/6 = 0.5.
    expect(judgeParsing('王贞[UNK]人', '王贞人').score).toBe(0.5);
    // <UNK>: < and > are punctuation too → UNK survives the same way.
    expect(judgeParsing('王<UNK>', '王UNK').score).toBe(1);
    // □ is removed after punctuation: 王□人 → 王人.
    expect(judgeParsing('王□人', '王人').score).toBe(1);
    // The literal two characters backslash-n, full-width space, CR/LF and 「」、 are removed.
    expect(judgeParsing('九成宫\\n醴泉\u3000铭', '「九成宫、醴泉铭」\r\n').score).toBe(1);
    // Both empty → 1; GT empty, prediction not → 0.
    expect(judgeParsing('。', '').score).toBe(1);
    expect(judgeParsing('[UNK]', '王').score).toBe(0); // GT "UNK" (3) vs 王 (1): lev 3 / 3 → 0
    expect(judgeParsing('', '王').score).toBe(0);
    // Astral characters count as one: GT 𠀀𠀁 vs 𠀀 → lev 1 / max(2, 1) → 0.5.
    expect(judgeParsing('𠀀𠀁', '𠀀').score).toBe(0.5);
    // Other whitespace (no-break space U+00A0) is NOT removed: 王\u00a0人 (3) vs 王人 (2) → 1 − 1/3.
    expect(judgeParsing('王\u00a0人', '王人').score).toBeCloseTo(2 / 3, 15);
  });

  it('recognition: trim spaces then the listed punctuation at both ends; no gt_char → 0 with no_gt', () => {
    expect(judgeRecognition(' 王 ', '《王》').score).toBe(1);
    expect(judgeRecognition('王', '[王]').score).toBe(1);
    expect(judgeRecognition('王', '王。').score).toBe(1);
    expect(judgeRecognition('王', '主').score).toBe(0);
    expect(judgeRecognition('', '王')).toMatchObject({ score: 0, error: 'no_gt' });
  });

  it('spotting: IoU ≥ 0.75 (not >), on boxes scaled with factors computed first', () => {
    // width 1000: scale 1. GT [0,0,100,100], pred [0,0,75,100]: IoU 7500/10000 = 0.75 → TP.
    const g: SpotItem[] = [{ bbox: [0, 0, 100, 100], char: '王' }];
    expect(judgeSpotting(g, 1000, 1000, [{ bbox: [0, 0, 75, 100], char: '王' }]).spotting_f1).toBe(1);
    // width 6, GT x2 = 5 px: sx = 1000/6, 5·sx = 833.333…33 (one ulp below 5·1000/6 = 833.33…34).
    // IoU of pred [0,0,625,1000] with GT [0,0,833.33,1000], written out as the official _iou does
    // (inter / (area_a + area_b − inter)): 0.7500000000000001 ≥ 0.75 → TP. Multiplying first
    // would give 0.7499999999999999 → no match.
    const iou = (ax2: number, bx2: number) => {
      const inter = Math.min(ax2, bx2) * 1000;
      return inter / (ax2 * 1000 + bx2 * 1000 - inter);
    };
    const six: SpotItem[] = [{ bbox: [0, 0, 5, 1000], char: '王' }];
    expect(iou(625, 5 * (1000 / 6))).toBeGreaterThanOrEqual(0.75);
    expect(iou(625, (5 * 1000) / 6)).toBeLessThan(0.75);
    expect(judgeSpotting(six, 6, 1000, [{ bbox: [0, 0, 625, 1000], char: '王' }]).detection.tp).toBe(1);
    // width 9, GT x2 = 3 px: 3·(1000/9) = 333.33…37 → IoU with [0,0,250,1000] is 0.7499999999999999
    // → no match (multiplying first would give 0.7500000000000002).
    const nine: SpotItem[] = [{ bbox: [0, 0, 3, 1000], char: '王' }];
    expect(iou(250, 3 * (1000 / 9))).toBeLessThan(0.75);
    expect(iou(250, (3 * 1000) / 9)).toBeGreaterThanOrEqual(0.75);
    expect(judgeSpotting(nine, 9, 1000, [{ bbox: [0, 0, 250, 1000], char: '王' }]).detection.tp).toBe(0);
  });

  it('matching: IoU-descending stable sort, greedy one-to-one; Spotting needs equal chars', () => {
    // GT0 [0,0,72,100], GT1 [0,0,100,100]; pred0 [0,0,90,100], pred1 [0,0,100,100].
    // IoUs: p0–g0 7200/9000 = 0.8, p0–g1 9000/10000 = 0.9, p1–g1 1.0, p1–g0 0.72 (< 0.75).
    // Sorted: p1–g1 (1.0), p0–g1 (0.9, g1 taken), p0–g0 (0.8) → 2 pairs.
    const gts: SpotItem[] = [
      { bbox: [0, 0, 72, 100], char: 'a' },
      { bbox: [0, 0, 100, 100], char: 'a' },
    ];
    const preds: SpotItem[] = [
      { bbox: [0, 0, 90, 100], char: 'a' },
      { bbox: [0, 0, 100, 100], char: 'a' },
    ];
    const m = greedyMatch(preds, gts, true);
    expect(m.pairs.map((p) => [p.pred, p.gt])).toEqual([
      [1, 1],
      [0, 0],
    ]);
    // Equal IoU ties keep prediction-major then GT order: one pred, two identical GTs → GT 0.
    const tie = greedyMatch([preds[1]], [gts[1], gts[1]], false);
    expect(tie.pairs.map((p) => [p.pred, p.gt])).toEqual([[0, 0]]);
    // Two identical preds, one GT → pred 0 takes it.
    expect(greedyMatch([preds[1], preds[1]], [gts[1]], false).pairs.map((p) => p.pred)).toEqual([0]);
    // Different chars: no Spotting pair (Detection would pair them).
    expect(greedyMatch([{ bbox: [0, 0, 100, 100], char: 'b' }], [gts[1]], true).tp).toBe(0);
  });

  it('UNK items are dropped on both sides for Spotting only; F1 = 2PR/(P+R)', () => {
    // GT: 王 [0,0,100,100], □■ [200,0,300,100], [unk] [400,0,500,100].
    // Pred: 王 on the first, " UNK " on the second, 贞 far away [700,700,800,800].
    // Detection: 2 TP (王, UNK box), FP 1 (贞), FN 1 (third GT) → P = R = 2/3 → F1 = 2/3.
    // Spotting: GT {王}, pred {王, 贞}: TP 1, FP 1, FN 0 → P 1/2, R 1 → F1 = 2·0.5·1/1.5 = 2/3.
    const gts: SpotItem[] = [
      { bbox: [0, 0, 100, 100], char: '王' },
      { bbox: [200, 0, 300, 100], char: '□■' },
      { bbox: [400, 0, 500, 100], char: '[unk]' },
    ];
    const items = [
      { bbox: [0, 0, 100, 100], char: '王' },
      { bbox: [200, 0, 300, 100], char: ' UNK ' },
      { bbox: [700, 700, 800, 800], char: '贞' },
    ];
    const j = judgeSpotting(gts, 1000, 1000, items);
    expect(j.detection).toEqual({ tp: 2, fp: 1, fn: 1 });
    expect(j.spotting).toEqual({ tp: 1, fp: 1, fn: 0 });
    expect(j.detection_f1).toBeCloseTo(2 / 3, 15);
    expect(j.spotting_f1).toBeCloseTo(2 / 3, 15);
  });
});

// ------------------------------------------------------------------ aggregation through the session

const box = (x1: number, x2: number) => ({ x1, y1: 0, x2, y2: 100 });
const GT = [
  { image_path: 'images/甲骨文/o1.png', font_type: '甲骨文', annotation: '王[UNK]', width: 1000, height: 1000, spotting: [{ bbox: box(0, 100), text: '王' }, { bbox: box(200, 300), text: '[UNK]' }] },
  { image_path: 'images/甲骨文/o2.png', font_type: '甲骨文', annotation: '王', width: 1000, height: 1000, spotting: [{ bbox: box(0, 100), text: '王' }] },
  { image_path: 'images/金文/b1.png', font_type: '金文', annotation: '唯王', width: 1000, height: 1000, spotting: [{ bbox: box(0, 100), text: '唯' }] },
  { image_path: 'images/楷书/r1.png', font_type: '楷书', annotation: '九成宫，醴泉铭' },
  { image_path: 'images/隶书/c1.png', font_type: '隶书', annotation: '不在预测里' },
];
const rec = (extract: unknown, extra: Record<string, unknown> = {}) => ({ thinking: '', answer: '', ...(extract === undefined ? {} : { extract }), ...extra });
const PRED = [
  {
    image_path: 'images/甲骨文/o1.png',
    infer_results: {
      字体分类: rec({ category: '甲骨文' }),
      字符提取: rec({ extracted_text: '王' }),
      字符检测: rec({ items: [{ idx: 1, bbox: [0, 0, 100, 100], char: '王' }, { idx: 2, bbox: [200, 0, 300, 100], char: '[UNK]' }] }),
      单字识别: rec({ char: '王' }, { gt_char: '王' }),
    },
  },
  {
    image_path: 'images/甲骨文/o2.png',
    infer_results: {
      字符提取: rec(undefined),
      字符检测: rec(undefined),
      单字识别: rec({ char: '《王》' }, { gt_char: '王' }),
    },
  },
  {
    image_path: 'images/金文/b1.png',
    infer_results: { 字体分类: rec({ category: '篆书' }), 字符提取: rec({ extracted_text: '唯王' }), 单字识别: rec({ char: '唯' }) },
  },
  {
    image_path: 'images/楷书/r1.png',
    infer_results: { 字体分类: rec({ category: ' 楷书 ' }), 字符提取: rec({ extracted_text: '九成宫醴泉' }) },
  },
  { image_path: 'images/not-in-gt.png', infer_results: {} },
];

async function run(options: Record<string, string> = {}) {
  const src = new MemorySource('audit', {
    'data/Chronicles_OCR.jsonl': GT.map((r) => JSON.stringify(r)).join('\n') + '\n',
    'infer_results/m/results.jsonl': PRED.map((r) => JSON.stringify(r)).join('\n') + '\n',
  });
  const s = await BenchSession.open(src);
  await s.addBundledPredictions();
  const [r] = await s.score(s.resolveProtocol(undefined, options));
  return r;
}

describe('aggregation (the official summary)', () => {
  it('per script, group and all-scripts values over existing values; errored Spotting rows left out', async () => {
    const r = await run();
    // Oracle Bone, 2 rows.
    //  o1: classification 1; parsing GT 王[UNK] → 王UNK (4) vs 王 (1): lev 3 → 1 − 3/4 = 0.25;
    //      detection 2 TP → 1; spotting (UNK dropped both sides) 1 TP → 1; recognition 王 = 王 → 1.
    //  o2: classification no_infer → 0; parsing no_extract → 0; spotting no_extract → LEFT OUT;
    //      recognition 《王》 trimmed to 王 → 1.
    //  → classification 0.5, parsing 0.125, spotting 1 (n 1), detection 1 (n 1), recognition 1.
    //  average over the 4 displayed: (1 + 1 + 0.125 + 0.5) / 4 = 0.65625.
    // Bronze, 1 row: classification 篆书 ≠ 金文 → 0; parsing 1; spotting no_infer → left out (no
    //  key); recognition without gt_char → 0 (no_gt, counted). average (0 + 1 + 0) / 3 = 1/3.
    // Regular, 1 row: classification " 楷书 " trimmed → 1; parsing 九成宫醴泉铭 (6) vs 九成宫醴泉 (5):
    //  lev 1 → 5/6. average (5/6 + 1) / 2 = 11/12.
    // Clerical: its image is absent from the results file → not judged → no key.
    const expected: Record<string, number> = {
      'oracle_bone/classification': 0.5,
      'oracle_bone/classification/n': 2,
      'oracle_bone/parsing': 0.125,
      'oracle_bone/parsing/n': 2,
      'oracle_bone/spotting': 1,
      'oracle_bone/spotting/n': 1,
      'oracle_bone/detection': 1,
      'oracle_bone/detection/n': 1,
      'oracle_bone/recognition': 1,
      'oracle_bone/recognition/n': 2,
      'oracle_bone/average': 0.65625,
      'bronze/classification': 0,
      'bronze/classification/n': 1,
      'bronze/parsing': 1,
      'bronze/parsing/n': 1,
      'bronze/recognition': 0,
      'bronze/recognition/n': 1,
      'bronze/average': 1 / 3,
      'regular/classification': 1,
      'regular/classification/n': 1,
      'regular/parsing': 5 / 6,
      'regular/parsing/n': 1,
      'regular/average': 11 / 12,
      // Ancient: spotting over the scripts that have it (oracle only) = 1; recognition (1 + 0)/2;
      // parsing (0.125 + 1)/2 = 0.5625; classification (0.5 + 0)/2 = 0.25;
      // average (1 + 0.5 + 0.5625 + 0.25)/4 = 0.578125.
      'ancient/spotting': 1,
      'ancient/recognition': 0.5,
      'ancient/parsing': 0.5625,
      'ancient/classification': 0.25,
      'ancient/average': 0.578125,
      // Modern: regular only.
      'modern/parsing': 5 / 6,
      'modern/classification': 1,
      'modern/average': 11 / 12,
      // All: spotting 1; recognition 0.5; parsing (1/8 + 1 + 5/6)/3 = 47/72;
      // classification (0.5 + 0 + 1)/3 = 0.5; average over the 9 cells
      // (1 + 1 + 0.125 + 0.5) + (0 + 1 + 0) + (5/6 + 1) = 131/24 → /9 = 131/216.
      'all/spotting': 1,
      'all/recognition': 0.5,
      'all/parsing': 47 / 72,
      'all/classification': 0.5,
      'all/average': 131 / 216,
    };
    expect(Object.keys(r.metrics).sort()).toEqual(Object.keys(expected).sort());
    for (const [k, v] of Object.entries(expected)) expect(r.metrics[k], k).toBeCloseTo(v, 12);
    expect(r.counts).toMatchObject({ unknown_rows: 1, images: 4 });
  });

  it('reextract=true judges the extraction of the raw answer instead of the stored extract', async () => {
    // With reextract every answer here is '' → every extraction fails → no_extract everywhere:
    // spotting rows all left out (keys omitted), other tasks 0 — except Recognition, whose ''
    // answer also fails. So every present mean is 0.
    const r = await run({ reextract: 'true' });
    expect(r.metrics['oracle_bone/spotting']).toBeUndefined();
    expect(r.metrics['oracle_bone/classification']).toBe(0);
    expect(r.metrics['regular/parsing']).toBe(0);
    expect(r.metrics['all/average']).toBe(0);
  });
});

describe('GT reading', () => {
  it('bbox shapes: object; list as xywh with modern_char (even null) or a reversed corner; else xyxy; empty dropped', async () => {
    const row = {
      image_path: 'images/甲骨文/g.png',
      font_type: ' 甲骨文 ', // trimmed → an ancient script with all four tasks
      annotation: '',
      width: 1000.9, // int() truncates → 1000
      height: '1000', // int("1000") → 1000
      spotting: [
        { bbox: { x1: 1, y1: 2, x2: 3, y2: 4 }, text: 'a' }, // object → [1, 2, 3, 4]
        { bbox: [10, 10, 5, 5], modern_char: 'b' }, // modern_char → xywh → [10, 10, 15, 15]
        { bbox: [10, 10, 5, 5], modern_char: null, text: 'c' }, // key present → xywh; char from text
        { bbox: [20, 20, 30, 30], text: 'd' }, // no signal → xyxy [20, 20, 30, 30]
        { bbox: [20, 20, 5, 30], text: 'e' }, // x2 < x1 → xywh → [20, 20, 25, 50]
        { bbox: [20, 20, 20, 30], text: 'f' }, // xyxy with x2 = x1 → dropped
        { bbox: [1, 2, 3], text: 'g' }, // 3 numbers → dropped
        { bbox: ['1', '2', '3', '4'], text: ' h ' }, // float("1") works → xyxy, char trimmed
      ],
    };
    const src = new MemorySource('g', { 'data/Chronicles_OCR.jsonl': JSON.stringify(row) + '\n' });
    const s = await BenchSession.open(src);
    const ds = s.dataset as unknown as { rows: { width: number; height: number; tasks: string[]; chars: SpotItem[] }[] };
    const r = ds.rows[0];
    expect([r.width, r.height]).toEqual([1000, 1000]);
    expect(r.tasks).toHaveLength(4);
    expect(r.chars.map((c) => [c.char, ...c.bbox])).toEqual([
      ['a', 1, 2, 3, 4],
      ['b', 10, 10, 15, 15],
      ['c', 10, 10, 15, 15],
      ['d', 20, 20, 30, 30],
      ['e', 20, 20, 25, 50],
      ['h', 1, 2, 3, 4],
    ]);
  });
});
