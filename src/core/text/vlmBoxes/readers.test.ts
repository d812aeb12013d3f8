/**
 * The dialect readers one by one, on answers written as each family's own code or docs write them.
 * smart_resize is checked against values printed by the Python original (qwen-vl-utils
 * `vision_process.py`, run with python3 when this test was written), including the half-to-even
 * rounding and the floating-point floor of the max_pixels branch.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../../test/shared';
import { answerText, BOX_FAMILIES, detectFamily, readAs, readContext, readerOf } from './families';
import { kosmosPatchBox } from './locTokens';
import { pythonRound, smartResize } from './smartResize';
import { DOTS_MAX_PIXELS, DOTS_MIN_PIXELS } from './smartResize';

const ctx = readContext({ width: 1000, height: 500 }, {});
const read = (family: Parameters<typeof readerOf>[0], text: string) => readAs(family, answerText(text), ctx, () => []);
const close = (got: readonly number[][], want: readonly number[][]) => {
  expect(got).toHaveLength(want.length);
  got.forEach((b, i) => b.forEach((v, k) => expect(v).toBeCloseTo(want[i][k], 12)));
};

describe('smart_resize (Qwen2.5-VL input size)', () => {
  // [width, height, min_pixels?, max_pixels?] → (width, height) as the Python function returns them.
  const cases: [number, number, number | undefined, number | undefined, number, number][] = [
    [698, 1019, undefined, undefined, 700, 1008],
    [70, 2800, undefined, undefined, 56, 2800], // 70/28 = 2.5 rounds to 2 (half to even)
    [98, 280, undefined, undefined, 112, 280], // 98/28 = 3.5 rounds to 4
    [10000, 10000, undefined, undefined, 3556, 3556], // floor(3583.99…/28): the float floor, as Python does
    [20, 20, undefined, undefined, 56, 56], // below min_pixels: scaled up, ceil
    [1395, 2037, undefined, undefined, 1400, 2044],
    [1280, 720, undefined, undefined, 1288, 728],
    [50, 30, undefined, undefined, 84, 56],
    [5000, 7000, undefined, undefined, 3024, 4228],
    [4032, 3024, undefined, 1003520, 1148, 840],
    [300, 200, 200704, undefined, 560, 392],
    [5000, 7000, DOTS_MIN_PIXELS, DOTS_MAX_PIXELS, 2828, 3948],
  ];
  for (const [w, h, min, max, ew, eh] of cases) {
    it(`${w}×${h}${min ? ` min ${min}` : ''}${max ? ` max ${max}` : ''} → ${ew}×${eh}`, () => {
      expect(smartResize(w, h, min, max)).toEqual({ width: ew, height: eh });
    });
  }
  it('rounds halves to even like Python, and refuses what Qwen refuses', () => {
    expect([0.5, 1.5, 2.5, 3.5, 2.4999, 2.5001].map(pythonRound)).toEqual([0, 2, 2, 4, 2, 3]);
    expect(smartResize(10, 2500)).toBeNull(); // aspect ratio beyond 200
    expect(smartResize(0, 100)).toBeNull();
  });
});

describe('each family reads every box of an answer', () => {
  it('Qwen2.5-VL: bbox_2d in the resized input’s pixels, also from an answer cut mid-JSON', () => {
    const c = readContext({ width: 698, height: 1019 }, {}); // resized 700 × 1008
    const r = readAs('qwen25vl', answerText('```json\n[{"bbox_2d": [70, 100.8, 350, 504], "label": "a"}, {"bbox_2d": [0, 0, 700, 1008]}, {"bbox_2d": [1, 2'), c, () => []);
    close(r.boxes, [[0.1, 0.1, 0.5, 0.5], [0, 0, 1, 1]]);
    // No size, no boxes: said, never read as something else.
    expect(readAs('qwen25vl', '[{"bbox_2d": [1, 2, 3, 4]}]', readContext(null, {}), () => [])).toMatchObject({ boxes: [], needsSize: true });
    // The resize options are used.
    const small = readAs('qwen25vl', '[{"bbox_2d": [0, 0, 560, 392]}]', readContext({ width: 300, height: 200 }, { qwen25vl_min_pixels: 200704 }), () => []);
    close(small.boxes, [[0, 0, 1, 1]]);
  });
  it('Gemini: box_2d y first, 0–1000', () => {
    close(read('gemini', '[{"box_2d": [100, 200, 300, 400], "label": "x"}]').boxes, [[0.2, 0.1, 0.4, 0.3]]);
  });
  it('InternVL: one <box> per object, several groups in one box', () => {
    close(read('internvl', '<ref>a</ref><box>[[100, 200, 300, 400]]</box> and <ref>b</ref><box>[[0,0,10,10],[20,20,30,30]]</box>').boxes, [
      [0.1, 0.2, 0.3, 0.4],
      [0, 0, 0.01, 0.01],
      [0.02, 0.02, 0.03, 0.03],
    ]);
  });
  it('MiniCPM-V: spaces inside <box>', () => {
    close(read('minicpmv', '<ref>a</ref><box>100 200 300 400</box><ref>b</ref><box>1 2 3 4</box>').boxes, [[0.1, 0.2, 0.3, 0.4], [0.001, 0.002, 0.003, 0.004]]);
  });
  it('GLM: whatever brackets sit between the box tokens', () => {
    close(read('glm', '<|begin_of_box|>[100,200,300,400]<|end_of_box|> <|begin_of_box|>[[0,0,10,10], [20,20,30,30]]<|end_of_box|>').boxes, [
      [0.1, 0.2, 0.3, 0.4],
      [0, 0, 0.01, 0.01],
      [0.02, 0.02, 0.03, 0.03],
    ]);
  });
  it('DeepSeek-VL2: <|det|> groups in 0–999', () => {
    close(read('deepseek', '<|ref|>a<|/ref|><|det|>[[0, 0, 999, 999], [0, 0, 333, 333]]<|/det|>').boxes, [[0, 0, 1, 1], [0, 0, 1 / 3, 1 / 3]]);
  });
  it('Florence-2: bins at their centre; 8 locations forming a quad are one box, 8 that are two boxes are two', () => {
    close(read('florence2', 'car<loc_100><loc_200><loc_299><loc_399>').boxes, [[0.1005, 0.2005, 0.2995, 0.3995]]);
    const quad = 'STOP</s><loc_100><loc_200><loc_300><loc_205><loc_298><loc_400><loc_102><loc_396>';
    close(read('florence2', quad).boxes, [[0.1005, 0.2005, 0.3005, 0.4005]]);
    close(read('florence2', 'cat<loc_10><loc_10><loc_20><loc_20><loc_30><loc_30><loc_40><loc_40>').boxes, [
      [0.0105, 0.0105, 0.0205, 0.0205],
      [0.0305, 0.0305, 0.0405, 0.0405],
    ]);
  });
  it('PaliGemma: y first, value / 1023', () => {
    close(read('paligemma', '<loc0000><loc0512><loc1023><loc1023> cat ; <loc0100><loc0200><loc0300><loc0400> dog').boxes, [
      [512 / 1023, 0, 1, 1],
      [200 / 1023, 100 / 1023, 400 / 1023, 300 / 1023],
    ]);
  });
  it('PaddleOCR-VL: a quad of eight LOC tokens is its bounding box', () => {
    close(read('paddleocrvl', 'HELLO<|LOC_100|><|LOC_200|><|LOC_300|><|LOC_200|><|LOC_300|><|LOC_250|><|LOC_100|><|LOC_250|>').boxes, [[0.1, 0.2, 0.3, 0.25]]);
  });
  it('MinerU2.5: spaces inside box tokens; Qwen2-VL pairs are not MinerU', () => {
    close(read('mineru', '<|box_start|>100 200 300 400<|box_end|><|ref_start|>text<|ref_end|>').boxes, [[0.1, 0.2, 0.3, 0.4]]);
    expect(detectFamily('<|box_start|>100 200 300 400<|box_end|>')).toBe('mineru');
    expect(detectFamily('<|box_start|>(100,200),(300,400)<|box_end|>')).toBe('qwen2vl');
  });
  it('Kosmos-2: the transformers docs example (a snowman, a fire)', () => {
    // transformers Kosmos-2 docs: <patch_index_0044><patch_index_0863> → (0.390625, 0.046875, 0.984375, 0.828125),
    // <patch_index_0005><patch_index_0911> → (0.171875, 0.015625, 0.484375, 0.890625).
    expect(kosmosPatchBox(44, 863)).toEqual([0.390625, 0.046875, 0.984375, 0.828125]);
    expect(kosmosPatchBox(5, 911)).toEqual([0.171875, 0.015625, 0.484375, 0.890625]);
    const r = read('kosmos2', '<phrase> a snowman</phrase><object><patch_index_0044><patch_index_0863></object> and <object><patch_index_0005><patch_index_0911></delimiter_of_multi_objects/><patch_index_0000><patch_index_0000></object>');
    close(r.boxes, [[0.390625, 0.046875, 0.984375, 0.828125], [0.171875, 0.015625, 0.484375, 0.890625], [0, 0, 1 / 32, 1 / 32]]);
  });
  it('Molmo: a pair of points in <points> is a box; a lone point is a zero-area box and is counted', () => {
    const r = read('molmo', '<points x1="10" y1="20" x2="30.5" y2="40" alt="a">a</points> <point x="50" y="60" alt="b">b</point>');
    close(r.boxes, [[0.1, 0.2, 0.305, 0.4], [0.5, 0.6, 0.5, 0.6]]);
    expect(r.points).toBe(1);
  });
  it('dots.ocr: bbox beside category, in its own resize bounds', () => {
    const c = readContext({ width: 5000, height: 7000 }, {}); // dots.ocr: 2828 × 3948
    close(readAs('dotsocr', answerText('[{"bbox": [0, 0, 2828, 3948], "category": "Picture"}]'), c, () => []).boxes, [[0, 0, 1, 1]]);
  });
  it('a think block is not read; a plain box is taken in the family’s space when the syntax is absent', () => {
    close(read('internvl', '<think><box>[[1,1,2,2]]</box></think><box>[[100,100,200,200]]</box>').boxes, [[0.1, 0.1, 0.2, 0.2]]);
    const plain = readAs('gemini', answerText('[[100, 200, 300, 400]]'), ctx, () => [[100, 200, 300, 400]]);
    expect(plain.found).toBe(false);
    close(plain.boxes, [[0.2, 0.1, 0.4, 0.3]]);
  });
  it('markers decide the dialect, most specific first', () => {
    const cases: [string, string | null][] = [
      ['<|begin_of_box|>[[1,2,3,4]]<|end_of_box|>', 'glm'],
      ['<|ref|>a<|/ref|><|det|>[[1,2,3,4]]<|/det|>', 'deepseek'],
      ['<ref>a</ref><box>[[1,2,3,4]]</box>', 'internvl'],
      ['<ref>a</ref><box>1 2 3 4</box>', 'minicpmv'],
      ['<ref>a</ref><box>(1,2),(3,4)</box>', 'qwen2vl'],
      ['[{"box_2d": [1,2,3,4]}]', 'gemini'],
      ['[{"bbox_2d": [1,2,3,4]}]', 'qwen25vl'],
      ['[{"bbox": [1,2,3,4], "category": "Text"}]', 'dotsocr'],
      ['[{"bbox": [1,2,3,4]}]', null],
      ['[[1,2,3,4]]', null],
      ['<loc_1><loc_2><loc_3><loc_4>', 'florence2'],
      ['<loc0001><loc0002><loc0003><loc0004>', 'paligemma'],
      ['<point x="1" y="2">a</point>', 'molmo'],
    ];
    for (const [text, family] of cases) expect(detectFamily(text), text).toBe(family);
  });
});

describe('the README', () => {
  it('has a row per family naming its models and its option', () => {
    const doc = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    for (const f of BOX_FAMILIES) {
      const row = doc.split('\n').find((l) => l.includes(`--option boxes=${f}\``));
      expect(row, f).toBeDefined();
      expect(row!.startsWith(`| ${readerOf(f).models} |`), `${f}: ${row}`).toBe(true);
    }
  });
});
