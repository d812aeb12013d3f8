import { describe, expect, it } from 'vitest';
import { firstBoxListInProse, parseFigureAnswer } from './parse';

describe('parseFigureAnswer (gansulishuzhi.md Decisions)', () => {
  it('takes structured lists as they are', () => {
    expect(parseFigureAnswer([[1, 2, 3, 4]])).toMatchObject({ boxes: [[1, 2, 3, 4]], rule: 'json' });
    expect(parseFigureAnswer([])).toMatchObject({ boxes: [], rule: 'json-empty', unparseable: false });
  });
  it('reads a bare 4-number list as one box, and bbox / bbox_2d objects anywhere in a list', () => {
    expect(parseFigureAnswer('[10, 20, 30, 40]').boxes).toEqual([[10, 20, 30, 40]]);
    expect(parseFigureAnswer('[{"bbox_2d": [1, 2, 3, 4]}, [5, 6, 7, 8], {"bbox": [9, 10, 11, 12]}]').boxes).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
      [9, 10, 11, 12],
    ]);
  });
  it('gives JSON of another shape zero boxes and unparseable_output, with no bracket scan', () => {
    expect(parseFigureAnswer('{"figures": [[1, 2, 3, 4]]}')).toMatchObject({ boxes: [], unparseable: true });
    expect(parseFigureAnswer('"see [[1, 2, 3, 4]]"')).toMatchObject({ boxes: [], unparseable: true });
  });
  it('strips think blocks and fences, then parses JSON', () => {
    expect(parseFigureAnswer('<think>\n页面中部有一张照片。\n</think>\n```json\n[[117, 298, 581, 642]]\n```')).toMatchObject({
      boxes: [[117, 298, 581, 642]],
      steps: ['think', 'fence'],
    });
    expect(parseFigureAnswer('```json\n[]\n```')).toMatchObject({ boxes: [], rule: 'json-empty', unparseable: false });
  });
  it('falls back to the first [ … ] in prose that parses as a list of 4-number lists', () => {
    expect(parseFigureAnswer('页面中有两张图：[[82, 130, 362, 530], [128, 510, 624, 876]]。')).toMatchObject({
      boxes: [
        [82, 130, 362, 530],
        [128, 510, 624, 876],
      ],
      rule: 'prose-list',
    });
    // `图[1]` comes first and parses, but not as a list of boxes: the scan moves on.
    expect(parseFigureAnswer('图[1]位于 [[150, 450, 548, 750]]').boxes).toEqual([[150, 450, 548, 750]]);
  });
  it('finds nothing in a lone 4-number list in prose, and a valid empty answer in [] in prose', () => {
    expect(parseFigureAnswer('the figure is at [10,20,30,40].')).toMatchObject({ boxes: [], unparseable: true });
    expect(parseFigureAnswer('没有图：[]')).toMatchObject({ boxes: [], rule: 'prose-empty', unparseable: false });
    expect(parseFigureAnswer('抱歉，我无法确定这一页中图的位置。')).toMatchObject({ unparseable: true });
  });
  it('takes the shortest span from the first [ that works', () => {
    expect(firstBoxListInProse('a [[1,2,3,4]] b [[5,6,7,8]]')).toEqual([[1, 2, 3, 4]]);
  });
  it('does not swap corners in the wrong order', () => {
    expect(parseFigureAnswer('[[30, 40, 10, 20]]').boxes).toEqual([[30, 40, 10, 20]]);
  });
});
