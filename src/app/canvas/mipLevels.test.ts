import { describe, expect, it } from 'vitest';
import { mipFactors, mipFor, type MipLevel } from './mipLevels';

describe('mipFactors', () => {
  it('halves while both sides keep 256 pixels, down to 1/16', () => {
    expect(mipFactors(4000, 3000)).toEqual([2, 4, 8]); // 1/16 would be 250×188
    expect(mipFactors(8192, 8192)).toEqual([2, 4, 8, 16]);
    expect(mipFactors(100000, 4096)).toEqual([2, 4, 8, 16]);
  });
  it('gives a small or narrow image none', () => {
    expect(mipFactors(511, 4000)).toEqual([]);
    expect(mipFactors(512, 512)).toEqual([2]);
    expect(mipFactors(300, 200)).toEqual([]);
  });
});

describe('mipFor', () => {
  it('picks the smallest copy that keeps at least one source pixel per screen pixel, or none (the image itself)', () => {
    const mips = [2, 4, 8].map((factor) => ({ factor, image: { factor } as unknown as ImageBitmap })) as MipLevel[];
    expect(mipFor(mips, 0.21)?.factor).toBe(4); // 1/4 at 0.84, 1/8 would be 1.68
    expect(mipFor(mips, 0.125)?.factor).toBe(8);
    expect(mipFor(mips, 0.35)?.factor).toBe(2);
    expect(mipFor(mips, 0.5)?.factor).toBe(2);
    expect(mipFor(mips, 0.51)).toBeNull();
    expect(mipFor([], 0.1)).toBeNull();
  });
});
