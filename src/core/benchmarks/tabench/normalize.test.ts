import { describe, expect, it } from 'vitest';
import { normalizeR2t } from './normalize';

describe('normalizeR2t (r2t_norm=nfkc-ws-punct)', () => {
  it('applies NFKC: full-width forms fold to ASCII', () => {
    expect(normalizeR2t('合计：￥86.00')).toBe(normalizeR2t('合计:¥86.00'));
    expect(normalizeR2t('小龙坎（南京夫子庙店）')).toBe('小龙坎(南京夫子庙店)');
  });
  it('maps curly quotes, CJK punctuation and dashes to ASCII', () => {
    expect(normalizeR2t('“I don’t know,” she said—looking away.')).toBe(`"I don't know," she said-looking away.`);
    expect(normalizeR2t('„a‟ ‚b‛ ′')).toBe(`"a" 'b' '`);
    expect(normalizeR2t('一、二。')).toBe('一,二.');
    expect(normalizeR2t('「引用」『书名』【注】《书》–')).toBe('"引用""书名"[注]<书>-');
  });
  it('lets NFKC turn ″ into two primes (so two apostrophes) and … into three dots', () => {
    expect(normalizeR2t('5″')).toBe("5''");
    expect(normalizeR2t('wait…')).toBe('wait...');
  });
  it('folds every run of Unicode white space to one space and trims', () => {
    expect(normalizeR2t('  Genaxis  \n\t Theatre\n')).toBe('Genaxis Theatre');
    expect(normalizeR2t('第三章\u3000实验')).toBe('第三章 实验');
    expect(normalizeR2t('a\u0085b\u2028c')).toBe('a b c');
  });
  it('keeps case unless r2t_casefold is on', () => {
    expect(normalizeR2t('Summer Sale')).not.toBe(normalizeR2t('SUMMER SALE'));
    expect(normalizeR2t('Summer Sale', 'nfkc-ws-punct', true)).toBe(normalizeR2t('SUMMER SALE', 'nfkc-ws-punct', true));
  });
  it('leaves empty strings empty', () => {
    expect(normalizeR2t('')).toBe('');
    expect(normalizeR2t(' \n ')).toBe('');
  });
  it('offers the weaker variants as options', () => {
    expect(normalizeR2t('“a”', 'nfkc-ws')).toBe('“a”');
    expect(normalizeR2t(' Ａ ', 'none')).toBe(' Ａ ');
  });
});
