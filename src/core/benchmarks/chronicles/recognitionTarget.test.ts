/**
 * The Recognition target infer.py picks, recomputed: every test vector of shared/specs/chronicles.md
 * ("The Recognition target when a prediction carries none"), and the Python pieces it is made of.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HAS_SHARED, shared } from '../../../../test/shared';
import { md5Hex } from './md5';
import { PyRandom } from './pyRandom';
import { pyFloatRepr, pyJsonDumps, readPyJson } from './pyJson';
import { pickTarget, referringBasis, sampleKey, seedInteger } from './recognitionTarget';
import { parseGtRow } from './gt';

describe('md5', () => {
  it('gives RFC 1321 digests, UTF-8 for text', () => {
    expect(md5Hex('')).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(md5Hex('abc')).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(md5Hex('The quick brown fox jumps over the lazy dog')).toBe('9e107d9d372bb6826bd81d3542a419d6');
    expect(md5Hex('12345678901234567890123456789012345678901234567890123456789012345678901234567890')).toBe('57edf4a22be3c955ac49da2e2107b67a');
    // Python: hashlib.md5("甲骨文".encode("utf-8")).hexdigest()
    expect(md5Hex('甲骨文')).toBe(md5Hex(new TextEncoder().encode('甲骨文')));
  });
});

describe("Python's random.Random", () => {
  it('random.Random(12345678901234567890): getrandbits(32) ×3 and choice(range(7)) ×5', () => {
    const r = new PyRandom(12345678901234567890n);
    expect([r.getrandbits(32), r.getrandbits(32), r.getrandbits(32)]).toEqual([2199100970, 3695432519, 4002396509]);
    const c = new PyRandom(12345678901234567890n);
    const seven = [0, 1, 2, 3, 4, 5, 6];
    expect(Array.from({ length: 5 }, () => c.choice(seven))).toEqual([4, 6, 4, 5, 3]);
  });
  it('refuses an empty choice as Python does', () => {
    expect(() => new PyRandom(1n).choice([])).toThrow(/empty/);
  });
});

describe("Python's json.dumps(ensure_ascii=False, sort_keys=True)", () => {
  it('sorts keys, keeps non-ASCII, escapes as Python does, uses ", " and ": "', () => {
    expect(pyJsonDumps({ b: 1, a: ['字', null, true], c: { z: 'x"\\\n\u0001', y: false } })).toBe(
      '{"a": ["字", null, true], "b": 1, "c": {"y": false, "z": "x\\"\\\\\\n\\u0001"}}',
    );
  });
  it('writes floats as repr and ints as their digits, from the text as written', () => {
    const v = readPyJson('[1.0, 1, 2.50, 1e16, 1E-5, 0.0001, 123456789012345678901, -0, -0.0, 1234567890123456.0, 3.3e2]');
    expect(pyJsonDumps(v)).toBe('[1.0, 1, 2.5, 1e+16, 1e-05, 0.0001, 123456789012345678901, 0, -0.0, 1234567890123456.0, 330.0]');
    expect([pyFloatRepr(0.1), pyFloatRepr(1.5e300), pyFloatRepr(2.5e-7), pyFloatRepr(100)]).toEqual(['0.1', '1.5e+300', '2.5e-07', '100.0']);
  });
  it('sorts keys by code point (Python), not UTF-16 unit', () => {
    // U+FF01 sorts before U+1F600 by code point, after it by UTF-16 unit.
    expect(pyJsonDumps({ '\u{1F600}': 1, '\uFF01': 2 })).toBe('{"\uFF01": 2, "\u{1F600}": 1}');
  });
  it('keeps the last of a repeated key, as a dict does', () => {
    expect(pyJsonDumps(readPyJson('{"a": 1, "b": 2, "a": 3}'))).toBe('{"a": 3, "b": 2}');
  });
});

const VECTORS = [
  { path: 'images/甲骨文/ob_001.png', index: 1, char: '巳' },
  { path: 'images/甲骨文/ob_002.png', index: 0, char: '王' },
  { path: 'images/甲骨文/ob_003.png', index: 3, char: '雨' },
  { path: 'images/金文/br_001.png', index: 4, char: '永' },
];

describe.skipIf(!HAS_SHARED)('the spec test vectors (chronicles-mini, seed 42)', () => {
  // Read while collecting even when skipped (a skipped describe's body still runs), so only with ../shared.
  const lines = HAS_SHARED ? readFileSync(shared('data/chronicles-mini/data/Chronicles_OCR.jsonl'), 'utf8').split('\n').filter(Boolean) : [];
  const rowOf = (path: string) => {
    const text = lines.find((l) => JSON.parse(l).image_path === path)!;
    const raw = JSON.parse(text) as Record<string, unknown>;
    return { text, raw, row: parseGtRow(raw, 1, path, () => {}, text) };
  };
  it('ob_001: the sample key, its md5 and the seed integer', () => {
    const { raw, text } = rowOf('images/甲骨文/ob_001.png');
    const key = sampleKey(raw, text);
    expect(key).toBe('image_path=images/甲骨文/ob_001.png|sp_fp=a82d6e72615d');
    expect(md5Hex(`42::${key}`)).toBe('bfb549dab1d3c59f5f7dd3059ab4d99b');
    expect(seedInteger(key, 42)).toBe(13814028635664008607n);
    expect((raw.spotting as unknown[]).length).toBe(7);
  });
  it('br_001 fingerprint', () => {
    const { raw, text } = rowOf('images/金文/br_001.png');
    expect(sampleKey(raw, text)).toBe('image_path=images/金文/br_001.png|sp_fp=8fb055e27474');
  });
  for (const v of VECTORS) {
    it(`${v.path} → index ${v.index} (${v.char})`, () => {
      const { row } = rowOf(v.path);
      expect(row.referring).toBeTruthy();
      const t = pickTarget(row.referring!, 42);
      expect([t.index, t.char]).toEqual([v.index, v.char]);
      // From the parsed value alone (no line text: integer numbers dump the same).
      const again = referringBasis(rowOf(v.path).raw, row.chars);
      expect(pickTarget(again!, 42).index).toBe(v.index);
    });
  }
  it('agrees with every gt_char / target_index / sample_key infer.py stored in the mini set', () => {
    let checked = 0;
    for (const model of ['model-a', 'model-b']) {
      const preds = readFileSync(shared(`data/chronicles-mini/infer_results/${model}/results.jsonl`), 'utf8').split('\n').filter(Boolean);
      for (const p of preds) {
        const o = JSON.parse(p) as { image_path: string; infer_results: Record<string, Record<string, unknown>> };
        const rec = o.infer_results['单字识别'];
        if (!rec || rec.gt_char === undefined) continue;
        const { row } = rowOf(o.image_path);
        const t = pickTarget(row.referring!, rec.seed as number);
        expect({ index: t.index, char: t.char, key: t.sample_key, bbox: t.bbox }).toEqual({
          index: rec.target_index,
          char: rec.gt_char,
          key: rec.sample_key,
          bbox: rec.target_bbox_xyxy,
        });
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(17);
  });
});
