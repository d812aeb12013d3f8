import { describe, expect, it } from 'vitest';
import { mipFactors } from './mipLevels';

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
