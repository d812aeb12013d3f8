import { describe, expect, it } from 'vitest';
import { parseR2t, parseT2r } from './parse';

describe('parseR2t (tabench.md tolerant parsing)', () => {
  it('unwraps a JSON string literal', () => {
    expect(parseR2t('"引用"')).toMatchObject({ text: '引用', rule: 'json-string' });
  });
  it("reads an object's text, and an object without a string text as empty", () => {
    expect(parseR2t('{"text": "hello"}')).toMatchObject({ text: 'hello', rule: 'json-object-text' });
    expect(parseR2t('{"text": 5}').text).toBe('');
    expect(parseR2t('{"label": "x"}').text).toBe('');
  });
  it("joins an array's objects' string text values with one space, skipping everything else", () => {
    expect(parseR2t('[{"text": "KOREAN"}, {"text": "RESTAURANT"}]')).toMatchObject({ text: 'KOREAN RESTAURANT', rule: 'json-array-text' });
    expect(parseR2t('[{"text": "a"}, "b", 3, {"text": null}, {"text": "c"}]').text).toBe('a c');
    expect(parseR2t('[]').text).toBe('');
  });
  it('keeps the raw spelling of a bare number, boolean or null', () => {
    expect(parseR2t('1.50')).toMatchObject({ text: '1.50', rule: 'json-scalar-as-text' });
    expect(parseR2t('12345.67').text).toBe('12345.67');
    expect(parseR2t('true').text).toBe('true');
    expect(parseR2t('null').text).toBe('null');
  });
  it('takes anything that is not JSON as the text itself', () => {
    expect(parseR2t('Genaxis Theater')).toMatchObject({ text: 'Genaxis Theater', rule: 'plain-text' });
    expect(parseR2t('')).toMatchObject({ text: '', rule: 'plain-text' });
  });
  it('strips think blocks and fences first', () => {
    expect(parseR2t('<think>x</think>\n"703-777-5833"')).toMatchObject({ text: '703-777-5833', steps: ['think'] });
    expect(parseR2t('```json\n{"text": "CHAPTER ONE"}\n```')).toMatchObject({ text: 'CHAPTER ONE', steps: ['fence'] });
  });
  it('uses an output field that already holds JSON as parsed', () => {
    expect(parseR2t({ text: 'hi' }).text).toBe('hi');
    expect(parseR2t([{ text: 'a' }, { text: 'b' }]).text).toBe('a b');
    expect(parseR2t(42).text).toBe('42');
  });
});

describe('parseT2r (tabench.md tolerant parsing)', () => {
  it('reads one box, a list of boxes, bbox and bbox_2d objects, recursively', () => {
    expect(parseT2r('[8, 316, 61, 336]').boxes).toEqual([[8, 316, 61, 336]]);
    expect(parseT2r('[[1, 2, 3, 4], [5, 6, 7, 8]]').boxes).toEqual([[1, 2, 3, 4], [5, 6, 7, 8]]);
    expect(parseT2r('{"bbox": [1, 2, 3, 4]}').boxes).toEqual([[1, 2, 3, 4]]);
    expect(parseT2r('{"bbox_2d": [1, 2, 3, 4]}').boxes).toEqual([[1, 2, 3, 4]]);
    expect(parseT2r('[{"bbox_2d": [1, 2, 3, 4], "label": "x"}, {"bbox": [[5, 6, 7, 8]]}]').boxes).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ]);
  });
  it('skips elements of other shapes', () => {
    expect(parseT2r('[[1, 2, 3, 4], "x", [1, 2, 3], {"label": 1}]')).toMatchObject({ boxes: [[1, 2, 3, 4]], rule: 'json' });
  });
  it('accepts [] as a valid empty answer', () => {
    expect(parseT2r('[]')).toMatchObject({ boxes: [], rule: 'json-empty', unparseable: false });
  });
  it('calls a JSON value without a box unparseable and never falls back to the regex', () => {
    expect(parseT2r('[580, 201, 609, 226, 0.93]')).toMatchObject({ boxes: [], unparseable: true });
    expect(parseT2r('{"answer": "see [1, 2, 3, 4]"}')).toMatchObject({ boxes: [], unparseable: true });
    expect(parseT2r('"[1, 2, 3, 4]"').unparseable).toBe(true);
    expect(parseT2r('[[]]').unparseable).toBe(true);
  });
  it('collects every bracketed group of exactly four numbers from prose', () => {
    const r = parseT2r('There are two: [628, 364, 669, 388] and [517, 646, 558, 671].');
    expect(r).toMatchObject({ rule: 'regex', unparseable: false });
    expect(r.boxes).toEqual([
      [628, 364, 669, 388],
      [517, 646, 558, 671],
    ]);
    // Signs, decimals without a leading digit and exponents count; three or five numbers do not.
    expect(parseT2r('at [1.5, -2, +3e1, .5] and [1, 2, 3] and [1, 2, 3, 4, 5]').boxes).toEqual([[1.5, -2, 30, 0.5]]);
  });
  it('swaps corners when x2 < x1 or y2 < y1', () => {
    const r = parseT2r('[[175, 966, 23, 908]]');
    expect(r.boxes).toEqual([[23, 908, 175, 966]]);
    expect(r.swapped).toEqual([0]);
    expect(parseT2r('[10, 40, 30, 20]').boxes).toEqual([[10, 20, 30, 40]]);
  });
  it('calls prose without a four-number group, and empty output, unparseable', () => {
    expect(parseT2r('I cannot find the text "CC22" in the image.')).toMatchObject({ rule: 'unparseable', unparseable: true });
    expect(parseT2r('').unparseable).toBe(true);
    expect(parseT2r('nothing here: []').unparseable).toBe(true);
  });
  it('strips think blocks and fences before reading boxes', () => {
    expect(parseT2r('<think>0-1000</think>\nThe word is at [451, 295, 526, 323].').boxes).toEqual([[451, 295, 526, 323]]);
    expect(parseT2r('```json\n[[375, 197, 424, 213]]\n```')).toMatchObject({ boxes: [[375, 197, 424, 213]], rule: 'json' });
  });
});
