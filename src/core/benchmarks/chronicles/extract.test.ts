/** Each official extraction rule and fallback, on answers written to take that path. */
import { describe, expect, it } from 'vitest';
import {
  cleanValue,
  extractByPrefix,
  extractClassification,
  extractParsing,
  extractRecognition,
  extractSpotting,
  stripThinking,
} from './extract';
import { pySplitLines, pyStrip, roundHalfEven } from './py';

describe('strip thinking', () => {
  it('prefers <answer>…</answer>, then text after the last closing tag, then text before an opening tag', () => {
    expect(stripThinking('<think>x</think><answer> 字体分类：金文 </answer>')).toEqual({ text: '字体分类：金文', path: 'answer-tag' });
    expect(stripThinking('<think>a</think>b</ Thinking >\n<answer>c')).toEqual({ text: 'c', path: 'after-closing-tag' });
    expect(stripThinking('结论：甲骨文 <reasoning> 还没想完')).toEqual({ text: '结论：甲骨文', path: 'before-opening-tag' });
    expect(stripThinking('  plain  ')).toEqual({ text: 'plain', path: 'none' });
  });
});

describe('by prefix', () => {
  it('takes the last hit, cleans the value, and reads a fenced value on the following lines', () => {
    expect(extractByPrefix('字体：楷书\n字体分类："隶书"。', ['字体分类', '字体'])).toBe('隶书');
    expect(extractByPrefix('字体分类：\n```\n金文\n```', ['字体分类'])).toBe('金文');
    expect(extractByPrefix('没有前缀', ['字体分类'])).toBe('');
  });
  it('merges trailing lines for Parsing until another known prefix starts a line', () => {
    expect(extractByPrefix('提取文本：天地\n玄黄\n字体分类：篆书', ['提取文本'], true)).toBe('天地\n玄黄');
  });
  it('cleans fence, then 。.；;，,"\'“”‘’ at both ends', () => {
    expect(cleanValue('```\n“永和”。\n```')).toBe('永和');
  });
});

describe('classification', () => {
  it('exact name after the prefix', () => {
    expect(extractClassification('字体分类：草书')).toMatchObject({ ok: true, extract: { category: '草书' }, path: 'prefix' });
  });
  it('a name contained in the value; several names: the first in the value, flagged ambiguous', () => {
    expect(extractClassification('字体：篆书体')).toMatchObject({ extract: { category: '篆书' }, path: 'partial-name', ambiguous: false });
    const amb = extractClassification('字体分类：草书或行书');
    expect(amb).toMatchObject({ extract: { category: '草书' }, path: 'partial-name', ambiguous: true });
  });
  it('else the name whose last occurrence is latest in the whole answer, marked fallback', () => {
    expect(extractClassification('像金文，但其实是甲骨文')).toMatchObject({ extract: { category: '甲骨文', fallback: true }, path: 'last-occurrence' });
  });
  it('else fails', () => {
    expect(extractClassification('Oracle bone script')).toMatchObject({ ok: false, extract: null });
    expect(extractClassification('')).toMatchObject({ ok: false });
  });
});

describe('parsing', () => {
  it('prefix with line merging', () => {
    expect(extractParsing('提取文本：\n天地\n玄黄')).toMatchObject({ extract: { extracted_text: '天地\n玄黄' }, path: 'prefix' });
  });
  it('falls back to the whole answer, dropping pleasantries and classification lines, cutting at an inner prefix', () => {
    const r = extractParsing('好的\n以下是结果\n```\n日月\n盈昃 字体分类：篆书\n```');
    expect(r).toMatchObject({ ok: true, extract: { extracted_text: '日月\n盈昃', fallback: true }, path: 'whole-answer' });
    expect(extractParsing('字体分类：隶书\n孔子作春秋').extract).toEqual({ extracted_text: '孔子作春秋', fallback: true });
  });
  it('fails below 2 code points: one astral character alone fails, two pass', () => {
    expect(extractParsing('𠀀').ok).toBe(false);
    expect(extractParsing('天').ok).toBe(false);
    expect(extractParsing('𠀀𠀁').extract).toEqual({ extracted_text: '𠀀𠀁', fallback: true });
    expect(extractParsing('抱歉，我无法识别').ok).toBe(false);
  });
});

describe('recognition', () => {
  it('prefix, UNK forms, first CJK character', () => {
    expect(extractRecognition('现代汉字：巳')).toMatchObject({ extract: { char: '巳' }, path: 'prefix/first-cjk' });
    expect(extractRecognition('答案：「王」')).toMatchObject({ extract: { char: '王' } });
    expect(extractRecognition('<unk>')).toMatchObject({ extract: { char: '[UNK]' }, path: 'whole-answer/unk' });
    expect(extractRecognition('我认为是王字')).toMatchObject({ extract: { char: '我' }, path: 'whole-answer/first-cjk' });
  });
  it('finds the first CJK character in Extensions B–G (astral), whole', () => {
    expect(extractRecognition('char: x𠀀').extract).toEqual({ char: '𠀀' }); // Ext B U+20000
    expect(extractRecognition('答案：ab 𪜀').extract).toEqual({ char: '𪜀' }); // Ext C U+2A700
    expect(extractRecognition('答案：ab 𰀀').extract).toEqual({ char: '𰀀' }); // Ext G U+30000
  });
  it('else the first character of the first token', () => {
    expect(extractRecognition('答案：  xyz abc')).toMatchObject({ extract: { char: 'x' }, path: 'prefix/first-char' });
  });
});

describe('spotting', () => {
  const item = (bbox: unknown[], char: unknown = '王') => ({ idx: 1, bbox, char });
  it('parses plain JSON, a ```json fence, and thinking first', () => {
    const j = JSON.stringify([item([1, 2, 3, 4])]);
    expect(extractSpotting(j)).toMatchObject({ ok: true, path: 'json', extract: { items: [{ idx: 1, bbox: [1, 2, 3, 4], char: '王' }] } });
    expect(extractSpotting('<think>…</think>```json\n' + j + '\n```')).toMatchObject({ ok: true, path: 'json' });
  });
  it('recovers the text from the first [ to the last ], then the first […] that parses as a list', () => {
    expect(extractSpotting(`结果如下：${JSON.stringify([item([1, 2, 3, 4])])} 以上。`)).toMatchObject({ ok: true, path: 'bracket-span' });
    expect(extractSpotting('a [] b ] c')).toMatchObject({ ok: true, path: 'first-list', extract: { items: [] } });
  });
  it('fails without fallbacks when the first parse is not a list', () => {
    expect(extractSpotting('{"items": [{"bbox": [1, 2, 3, 4], "char": "王"}]}')).toMatchObject({ ok: false, reason: 'the JSON is not a list' });
    // "null" parses to None, which the official code treats as "not parsed": the fallbacks run.
    expect(extractSpotting('null')).toMatchObject({ ok: false, reason: 'no JSON list in the answer' });
  });
  it('rounds half to even, clamps to [0, 1000], and fails when any item is invalid', () => {
    const r = extractSpotting(JSON.stringify([item([554.5, 138.5, 840.5, 445.5]), item([950, 960, 1012, 1040])]));
    expect((r.extract as { items: { bbox: number[] }[] }).items.map((i) => i.bbox)).toEqual([
      [554, 138, 840, 446],
      [950, 960, 1000, 1000],
    ]);
    expect(extractSpotting(JSON.stringify([item([1, 2, 3, 4]), item([1, 2, 3])])).ok).toBe(false);
    expect(extractSpotting(JSON.stringify([item([5, 2, 5.4, 4])])).ok).toBe(false); // x2 rounds to x1
    expect(extractSpotting(JSON.stringify([item([1, 2, '3', 4])])).ok).toBe(false);
    expect(extractSpotting('[]')).toMatchObject({ ok: true, extract: { items: [] } });
  });
  it('reads a missing or null char as "" and a non-string char as Python str()', () => {
    const r = extractSpotting(JSON.stringify([{ bbox: [1, 2, 3, 4] }, item([1, 2, 3, 4], null), item([1, 2, 3, 4], 5), item([1, 2, 3, 4], true)]));
    expect((r.extract as { items: { char: string }[] }).items.map((i) => i.char)).toEqual(['', '', '5', 'True']);
  });
});

describe('Python helpers', () => {
  it('round() is half to even', () => {
    expect([0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, 2.4999, 2.5001].map(roundHalfEven)).toEqual([0, 2, 2, 4, 0, -2, -2, 2, 3]);
  });
  it('strip() and splitlines() use Python\'s whitespace and line boundaries', () => {
    expect(pyStrip('\x1c\u3000a b\x85')).toBe('a b');
    expect(pySplitLines('a\r\nb\x0bc\u2028d\n')).toEqual(['a', 'b', 'c', 'd']);
  });
});
