import { describe, expect, it } from 'vitest';
import { tiffWithOrientation } from '../../../test/exif';
import { pngWithExif } from '../../../test/pngExif';
import { overlappingPairs } from './pairs';
import { suspiciousText, isBlank } from './text';
import { polygonDefect } from './polygon';
import { compareFindings } from './index';
import { finding, type LintFinding } from './types';
import { checkImages } from './images';
import { MemorySource } from '../io/fileSource';
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

describe('checkImages', () => {
  /** A JPEG header whose EXIF segment (orientation 6) is padded past the first read (4 KiB). */
  function jpegWithBigExif(width: number, height: number, pad: number): Uint8Array {
    const payload = [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiffWithOrientation(6), ...new Array(pad).fill(0)];
    const len = payload.length + 2;
    const sof = [0xff, 0xc0, 0, 17, 8, height >> 8, height & 255, width >> 8, width & 255, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
    return Uint8Array.from([0xff, 0xd8, 0xff, 0xe1, len >> 8, len & 255, ...payload, ...sof, 0xff, 0xd9]);
  }

  it('reads size and EXIF orientation past the first 4 KiB, and says which files are missing or not images', async () => {
    const src = new MemorySource('imgs', { 'a.jpg': jpegWithBigExif(640, 480, 20_000), 'b.jpg': 'not an image' });
    const out: LintFinding[] = [];
    const headers = await checkImages(
      src,
      [
        { caseIds: ['a'], name: 'a.jpg', file: 'a.jpg', annotated: { width: 600, height: 480, field: 'width/height' } },
        { caseIds: ['b1', 'b2'], name: 'b.jpg', file: 'b.jpg' },
        { caseIds: ['c'], name: 'c.jpg', file: null },
      ],
      out,
    );
    expect(headers[0]).toMatchObject({ width: 640, height: 480, orientation: 6 });
    expect(out.map((f) => `${f.case_id} ${f.kind}`)).toEqual(['a image_size_mismatch', 'a exif_rotated', 'b1 image_missing', 'b2 image_missing', 'c image_missing']);
    expect(out[0].detail).toMatch(/width\/height is 600×480 but a\.jpg is 640×480 \(480×640 as displayed\)/);
    expect(out[2].detail).toMatch(/b\.jpg does not decode: not a PNG, JPEG/);
  });

  it("reads a PNG's eXIf orientation before its image data, past the first 4 KiB too; one after the image data is not the browser's", async () => {
    const src = new MemorySource('imgs', {
      'turned.png': pngWithExif(40, 20, { exif: 'before', padding: 6000 }),
      'after.png': pngWithExif(40, 20, { exif: 'after' }),
    });
    const out: LintFinding[] = [];
    const headers = await checkImages(
      src,
      [
        { caseIds: ['t'], name: 'turned.png', file: 'turned.png', annotated: { width: 20, height: 40, field: 'width/height' } },
        { caseIds: ['u'], name: 'after.png', file: 'after.png', annotated: { width: 40, height: 20, field: 'width/height' } },
      ],
      out,
    );
    expect(headers.map((h) => h?.orientation)).toEqual([6, 1]);
    // The annotation has the displayed size: no size mismatch, but the orientation is named.
    expect(out.map((f) => `${f.case_id} ${f.kind}`)).toEqual(['t exif_rotated']);
    expect(out[0].detail).toMatch(/turned\.png carries EXIF orientation 6 \(rotated 90° clockwise\): browsers show it turned \(20×40\).*the annotation's width\/height 20×40 is the displayed image's/);
  });
});
