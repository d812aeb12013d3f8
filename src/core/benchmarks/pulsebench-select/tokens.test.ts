import { describe, expect, it } from 'vitest';
import { tokenOverlap, tokenSet } from './tokens';

const overlap = (a: string, b: string, empty = 0) => tokenOverlap(tokenSet(a), tokenSet(b), empty);

describe('PulseBench-Select tokens', () => {
  it('lower-cases and splits on anything that is not a letter, digit or underscore', () => {
    expect([...tokenSet('B) Carbon-Dioxide, CO2 snake_case')]).toEqual(['b', 'carbon', 'dioxide', 'co2', 'snake_case']);
  });

  it('is a set: repeated words count once', () => {
    expect(tokenSet('No no NO').size).toBe(1);
    expect(overlap('yes yes', 'yes')).toBe(1);
  });

  it('applies NFKC first: full-width letters and ligatures become plain letters', () => {
    expect([...tokenSet('ＦＵＬＬ－ＴＩＭＥ')]).toEqual(['full', 'time']);
    expect([...tokenSet('ﬁle')]).toEqual(['file']);
    expect(overlap('Full-time', 'ｆｕｌｌ ｔｉｍｅ')).toBe(1);
  });

  it('keeps ß (lower-casing, not case folding) and treats non-ASCII letters as letters', () => {
    expect([...tokenSet('Straße')]).toEqual(['straße']);
    expect(overlap('Straße', 'STRASSE')).toBe(0);
    expect(overlap('Straße', 'STRAẞE')).toBe(1); // capital sharp s lower-cases to ß
    expect([...tokenSet('Größe: München')]).toEqual(['größe', 'münchen']);
    expect([...tokenSet('是 否')]).toEqual(['是', '否']);
  });

  it('drops checkbox glyphs and punctuation', () => {
    expect([...tokenSet('☒ Email')]).toEqual(['email']);
    expect(tokenSet('☐ ✓ -- ()').size).toBe(0);
  });

  it('divides the common tokens by the larger set', () => {
    expect(overlap('Married filing jointly', 'Married filing separately')).toBeCloseTo(2 / 3, 15);
    expect(overlap('a b c d e', 'a b c d')).toBe(0.8);
    expect(overlap('a b', 'a b c d')).toBe(0.5);
  });

  it('gives two empty token sets the empty_overlap value, and one empty set 0', () => {
    expect(overlap('', '')).toBe(0);
    expect(overlap('', '', 1)).toBe(1);
    expect(overlap('☐', '', 1)).toBe(1);
    expect(overlap('', 'yes', 1)).toBe(0);
  });
});
