import { describe, expect, it } from 'vitest';
import { overlappingPairs } from './pairs';
import { suspiciousText, isBlank } from './text';
import { polygonDefect } from './polygon';
import { compareFindings } from './index';
import { finding } from './types';
import { outsideImage } from './bounds';
import { rng } from '../benchmarks/ltb/synthetic';

describe('overlappingPairs', () => {
  it('visits exactly the pairs a brute-force comparison finds, each once', () => {
    const rand = rng(7);
    const n = 400;
    const b = new Float64Array(4 * n);
    for (let i = 0; i < n; i++) {
      const x = rand() * 1000, y = rand() * 1000;
      b.set([x, y, x + 5 + rand() * 60, y + 5 + rand() * 40], 4 * i);
    }
    const seen: string[] = [];
    overlappingPairs(b, (i, j) => seen.push(`${i},${j}`));
    const brute: string[] = [];
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++)
        if (b[4 * i] < b[4 * j + 2] && b[4 * j] < b[4 * i + 2] && b[4 * i + 1] < b[4 * j + 3] && b[4 * j + 1] < b[4 * i + 3]) brute.push(`${i},${j}`);
    expect(brute.length).toBeGreaterThan(50);
    expect(seen.sort()).toEqual(brute.sort());
  });
});

describe('suspiciousText', () => {
  it('names U+FFFD, control, private-use, unassigned code points and lone surrogates', () => {
    expect(suspiciousText('ab\uFFFD')).toMatch(/1 suspicious character .*U\+FFFD replacement character .* at character 3/);
    expect(suspiciousText('a\tb')).toMatch(/control character U\+0009/);
    expect(suspiciousText('\u{F0000}x')).toMatch(/private-use U\+F0000/);
    expect(suspiciousText('x\u0378')).toMatch(/unassigned code point U\+0378/);
    expect(suspiciousText('x\uD800')).toMatch(/lone surrogate U\+D800/);
  });

  it('passes real text of every script in the benchmarks, emoji and CJK punctuation included', () => {
    for (const t of ['HarbourFront', '癸巳卜贞旬亡', '合计：￥86.00', '“I don’t know,” she said—looking away.', 'Ünïcödé 🙂', '老北京炸酱面', '###']) expect(suspiciousText(t)).toBeNull();
  });

  it('counts white space, the ideographic space included, as blank', () => {
    expect(isBlank(' \u3000\n')).toBe(true);
    expect(isBlank(' a ')).toBe(false);
  });
});

describe('polygonDefect', () => {
  it('passes valid rings, convex or not', () => {
    expect(polygonDefect([0, 0, 10, 0, 10, 10, 0, 10])).toBeNull();
    expect(polygonDefect([0, 0, 10, 0, 10, 10, 5, 5, 0, 10])).toBeNull();
  });

  it('says why a ring with fewer than 3 distinct points or on one line is IoU 0', () => {
    expect(polygonDefect([1, 1, 1, 1, 5, 5, 5, 5])).toMatch(/^4-point polygon with 2 distinct points: area 0/);
    expect(polygonDefect([0, 0, 5, 5, 10, 10, 2, 2])).toMatch(/all lie on one line: area 0/);
  });

  it('gives the repaired area and the IoU of a correct detection for a bow-tie', () => {
    // A 40×10 rectangle with two corners swapped: shapely keeps one of the two 100 px² triangles.
    expect(polygonDefect([0, 0, 40, 0, 0, 10, 40, 10])).toMatch(/bow-tie.*to area 100 of 400 px².*IoU 0\.25/);
  });
});

describe('finding order', () => {
  it('sorts by case id in JS string order, whole-case findings first, then kind', () => {
    const fs = [
      finding('10', 0, 'empty_text', ''),
      finding('2', 1, 'out_of_image', ''),
      finding('2', undefined, 'image_missing', ''),
      finding('2', 1, 'duplicate_instance', ''),
      finding('2', 0, 'text_suspicious', ''),
    ].sort(compareFindings);
    expect(fs.map((f) => `${f.case_id}/${f.instance ?? '-'}/${f.kind}`)).toEqual(['10/0/empty_text', '2/-/image_missing', '2/0/text_suspicious', '2/1/duplicate_instance', '2/1/out_of_image']);
  });
});

describe('outsideImage', () => {
  it('allows 1 px of slack on each side and reports the farthest point beyond it', () => {
    expect(outsideImage([-1, -1, 101, 51], 100, 50)).toBeNull();
    expect(outsideImage([-1.5, 0, 100, 50], 100, 50)).toMatch(/^1 point outside the 100×50 image, the farthest point 1 \(-1\.5, 0\) by 1\.5 px$/);
  });
});
