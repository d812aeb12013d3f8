/**
 * The prose fallback pairs brackets in one pass instead of trying every `]` for every `[`
 * (quadratic in JSON.parse calls: 86 s on 3,000 `[1]`). Checked here against the brute-force
 * reading of the spec sentence on random strings, and on pathological answers.
 */
import { describe, expect, it } from 'vitest';
import type { Box } from '../../geometry/box';
import { isBox } from '../tabench/parse';
import { firstBoxListInProse, parseFigureAnswer } from './parse';

/** The spec's sentence, literally: each `[` left to right, the shortest span to a `]` that parses. */
function bruteForce(text: string): Box[] | null {
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '[') continue;
    for (let j = i + 1; j < text.length; j++) {
      if (text[j] !== ']') continue;
      let v: unknown;
      try {
        v = JSON.parse(text.slice(i, j + 1));
      } catch {
        continue;
      }
      if (Array.isArray(v) && v.every(isBox)) return v as Box[];
    }
  }
  return null;
}

function* randomStrings(alphabet: string[], count: number, maxLen: number): Generator<string> {
  let x = 88172645;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
  for (let i = 0; i < count; i++) {
    const n = Math.floor(next() * maxLen);
    let s = '';
    for (let k = 0; k < n; k++) s += alphabet[Math.floor(next() * alphabet.length)];
    yield s;
  }
}

describe('audit: prose fallback', () => {
  it('agrees with the brute-force reading on random bracket soup', () => {
    const alphabet = ['[', ']', '[', ']', '1,2,3,4', '1', ',', ' ', 'x', '"', '[1,2,3,4]', '[[1,2,3,4]]'];
    for (const s of randomStrings(alphabet, 30000, 10)) expect(firstBoxListInProse(s), JSON.stringify(s)).toEqual(bruteForce(s));
  });
  it('handles hundreds of thousands of brackets quickly', () => {
    const t0 = performance.now();
    expect(parseFigureAnswer('[1] '.repeat(100000))).toMatchObject({ boxes: [], unparseable: true });
    expect(parseFigureAnswer('['.repeat(100000) + ' x ' + ']'.repeat(100000))).toMatchObject({ boxes: [], unparseable: true });
    expect(parseFigureAnswer('见 ' + '['.repeat(50000) + ' [[1, 2, 3, 4]]').boxes).toEqual([[1, 2, 3, 4]]);
    expect(performance.now() - t0).toBeLessThan(3000);
  });
});
