/** Qwen2-VL grounding boxes in a raw answer, with and without the special tokens. */
import { describe, expect, it } from 'vitest';
import { looksLikeQwenBoxTokens, readQwenBoxTokens } from './groundingTokens';

describe('Qwen2-VL grounding tokens', () => {
  const table: [string, string, number[][]][] = [
    ['one box with a label', '<|object_ref_start|>SAFEWAY<|object_ref_end|><|box_start|>(343,86),(585,158)<|box_end|>', [[343, 86, 585, 158]]],
    ['two boxes', '<|box_start|>(1,2),(3,4)<|box_end|> and <|box_start|>(10, 20), (30, 40)<|box_end|>', [[1, 2, 3, 4], [10, 20, 30, 40]]],
    ['special tokens stripped by the server', 'SAFEWAY(343,86),(585,158)', [[343, 86, 585, 158]]],
    ['Qwen-VL <box> markers', '<ref>dog</ref><box>(100,200),(300,400)</box>', [[100, 200, 300, 400]]],
    ['no box', 'I cannot find it.', []],
  ];
  for (const [name, text, boxes] of table) {
    it(`reads ${name}`, () => {
      expect(readQwenBoxTokens(text)).toEqual(boxes);
      expect(looksLikeQwenBoxTokens(text)).toBe(boxes.length > 0);
    });
  }

  it('does not take JSON boxes or a bracketed list for tokens', () => {
    expect(looksLikeQwenBoxTokens('[[1, 2, 3, 4]]')).toBe(false);
    expect(looksLikeQwenBoxTokens({ bbox: [1, 2, 3, 4] })).toBe(false);
  });
});
