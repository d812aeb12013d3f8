import { describe, expect, it } from 'vitest';
import { pngWithExif } from '../../../test/pngExif';
import { MemorySource } from '../io/fileSource';
import { displaySize, parseImageHeader, readImageHeader } from './header';

describe('PNG eXIf orientation', () => {
  it('reads the orientation of an eXIf chunk before the image data', () => {
    const before = parseImageHeader(pngWithExif(40, 20, { exif: 'before' }))!;
    expect(before).toEqual({ width: 40, height: 20, format: 'png', orientation: 6 });
    expect(displaySize(before)).toEqual({ width: 20, height: 40 });
    expect(parseImageHeader(pngWithExif(40, 20, { exif: 'before', orientation: 3 }))!.orientation).toBe(3);
  });

  it('takes no orientation from an eXIf after the image data, one with an "Exif\\0\\0" prefix, or a PNG without one (Chromium shows all three unturned)', () => {
    expect(parseImageHeader(pngWithExif(40, 20, { exif: 'before', prefixed: true }))!.orientation).toBe(1);
    expect(parseImageHeader(pngWithExif(40, 20, { exif: 'after' }))).toEqual({ width: 40, height: 20, format: 'png', orientation: 1 });
    expect(parseImageHeader(pngWithExif(40, 20, { exif: 'none' }))).toEqual({ width: 40, height: 20, format: 'png', orientation: 1 });
  });

  it('says when the bytes end before the image data, and readImageHeader then reads on', async () => {
    const file = pngWithExif(40, 20, { exif: 'before', padding: 70_000 });
    const head = parseImageHeader(file.subarray(0, 65536))!;
    expect(head).toEqual({ width: 40, height: 20, format: 'png', orientation: 1, partial: true });
    const src = new MemorySource('imgs', { 'a.png': file });
    expect(await readImageHeader(src, 'a.png')).toEqual({ width: 40, height: 20, format: 'png', orientation: 6 });
  });
});
