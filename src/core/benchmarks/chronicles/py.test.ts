import { describe, expect, it } from 'vitest';
import { pyStr } from './py';

/** The recursive form pyStr had before it was rewritten with a stack: the reference it must match. */
function recursivePyStr(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return Number.isNaN(v) ? 'nan' : v === Infinity ? 'inf' : v === -Infinity ? '-inf' : String(v);
  const repr = (x: unknown) => (typeof x === 'string' ? `'${x.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : recursivePyStr(x));
  if (Array.isArray(v)) return `[${v.map(repr).join(', ')}]`;
  return `{${Object.entries(v as Record<string, unknown>)
    .map(([k, x]) => `${repr(k)}: ${repr(x)}`)
    .join(', ')}}`;
}

describe("Python's str() of a JSON value", () => {
  it('writes what the recursive form wrote, for every kind of value', () => {
    const values: unknown[] = ['top', 1, 1.5, -0, NaN, Infinity, -Infinity, true, false, null, [], {}, ["a'b", 'c\\d', 2, null, true], { k: [1, { "it's": 'x' }], n: null }, [[[]], [{}]]];
    for (const v of values) expect(pyStr(v), JSON.stringify(v)).toBe(recursivePyStr(v));
  });

  it('writes a value nested 100,000 deep without overflowing the stack', () => {
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000));
    expect(() => recursivePyStr(deep)).toThrow(RangeError);
    expect(pyStr(deep)).toBe('['.repeat(100_000) + ']'.repeat(100_000));
  });
});
