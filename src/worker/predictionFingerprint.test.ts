import { describe, expect, it } from 'vitest';
import { MemorySource } from '../core/io/fileSource';
import { predictionFingerprint } from './predictionFingerprint';

const enc = (s: string) => new TextEncoder().encode(s);

describe('the content fingerprint of a prediction set', () => {
  it('is the same for the same bytes under another folder name, and differs when one byte differs', async () => {
    const a = new MemorySource('run-a', { 'preds.json': enc('{"img_1.jpg": [[1,2,3,4,5,6,7,8,0.9]]}') });
    const b = new MemorySource('copy of run-a', { 'preds.json': enc('{"img_1.jpg": [[1,2,3,4,5,6,7,8,0.9]]}') });
    const c = new MemorySource('run-c', { 'preds.json': enc('{"img_1.jpg": [[1,2,3,4,5,6,7,8,0.8]]}') });
    const fa = await predictionFingerprint(a, a.list());
    expect(fa.full).toBe(true);
    expect((await predictionFingerprint(b, b.list())).hash).toBe(fa.hash);
    expect((await predictionFingerprint(c, c.list())).hash).not.toBe(fa.hash);
  });

  it('covers every file of a folder set, in path order, and skips hidden files', async () => {
    const one = new MemorySource('icdar', { 'res_img_1.txt': enc('1,2,3,4'), 'res_img_2.txt': enc('5,6,7,8'), '.DS_Store': enc('x') });
    const two = new MemorySource('icdar2', { 'res_img_2.txt': enc('5,6,7,8'), 'res_img_1.txt': enc('1,2,3,4') });
    const other = new MemorySource('icdar3', { 'res_img_1.txt': enc('1,2,3,4'), 'res_img_2.txt': enc('5,6,7,9') });
    const h = (s: MemorySource) => predictionFingerprint(s, s.list()).then((f) => f.hash);
    expect(await h(one)).toBe(await h(two));
    expect(await h(one)).not.toBe(await h(other));
  });
});
