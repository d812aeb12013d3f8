import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan, parseJsonLine, quoteValue } from './json';

const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);

describe('what the engine does with deep JSON (why the limit exists)', () => {
  it('JSON.parse reads 100,000 nested arrays, but JSON.stringify and structuredClone (postMessage) overflow the stack', () => {
    const v = JSON.parse(nested(100_000));
    expect(Array.isArray(v)).toBe(true);
    expect(() => JSON.stringify(v)).toThrow(RangeError);
    expect(() => structuredClone(v)).toThrow(RangeError);
  });
});

describe('bounded JSON lines', () => {
  it('refuses a line nested deeper than the limit, in one pass that skips brackets inside strings', () => {
    expect(parseJsonLine(`{"a": ${nested(100_000)}}`)).toEqual({ ok: false, why: `nested deeper than ${MAX_JSON_DEPTH} levels` });
    expect(parseJsonLine(nested(MAX_JSON_DEPTH))).toMatchObject({ ok: true });
    expect(parseJsonLine(nested(MAX_JSON_DEPTH + 1))).toMatchObject({ ok: false });
    // Brackets inside a string are text: a model answer full of "[" is not deep.
    const s = JSON.stringify({ answer: '['.repeat(5000) + '"\\' + '{'.repeat(5000) });
    expect(parseJsonLine(s)).toEqual({ ok: true, value: JSON.parse(s) });
    expect(nestsDeeperThan(s)).toBe(false);
    expect(parseJsonLine('{"a": 1,')).toEqual({ ok: false, why: 'not valid JSON' });
  });

  it('a line nested 1,000,000 deep is refused without a stack overflow (the scan is a loop)', () => {
    expect(parseJsonLine(nested(1_000_000))).toEqual({ ok: false, why: `nested deeper than ${MAX_JSON_DEPTH} levels` });
    expect(nestsDeeperThan('['.repeat(1_000_000))).toBe(true);
  });
});

describe('quoting a value in a warning', () => {
  it('writes what JSON.stringify writes when it fits, NaN and Infinity by name', () => {
    for (const v of [null, 0.5, 'a"b', [1, [2, 3]], { a: [1, { b: 'x' }] }, [], {}]) expect(quoteValue(v, 100)).toBe(JSON.stringify(v));
    expect(quoteValue(undefined)).toBe('missing');
    expect(quoteValue([NaN, Infinity], 100)).toBe('[NaN,Infinity]');
  });

  it('cuts at max characters, and a value nested a million deep or a million items long costs only that', () => {
    expect(quoteValue('x'.repeat(100), 10)).toBe('"xxxxxxxx…');
    const deep = JSON.parse(nested(1_000_000));
    expect(quoteValue(deep, 24)).toBe('['.repeat(23) + '…');
    expect(quoteValue(new Array(1_000_000).fill(7), 12)).toBe('[7,7,7,7,7,…');
  });
});
