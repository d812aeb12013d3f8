/**
 * The header reader's EXIF orientation for PNG files (src/core/image/header.ts parsePng) against
 * what Chromium itself shows: decoded as the viewer decodes (createImageBitmap with
 * imageOrientation 'from-image', decode.ts) and as an <img>, each PNG below is turned by the
 * browser exactly when the reader says so — so lint's exif_rotated and PulseBench's displayed size
 * say what the screen shows.
 */
import { expect, test } from '@playwright/test';
import { displaySize, parseImageHeader } from '../src/core/image/header';
import { pngWithExif, type PngExifOptions } from '../test/pngExif';

const CASES: [string, PngExifOptions][] = [
  ['eXIf before IDAT, orientation 6', { exif: 'before' }],
  ['eXIf before IDAT, orientation 8, after a 5 KB tEXt chunk', { exif: 'before', orientation: 8, padding: 5000 }],
  ['eXIf before IDAT, orientation 3 (no swap)', { exif: 'before', orientation: 3 }],
  ['eXIf before IDAT with an "Exif\\0\\0" prefix', { exif: 'before', prefixed: true }],
  ['eXIf after IDAT', { exif: 'after' }],
  ['no eXIf', { exif: 'none' }],
];

test('Chromium turns a PNG exactly when the header reader gives it an orientation that swaps its sides', async ({ page }) => {
  await page.goto('/');
  for (const [name, o] of CASES) {
    const bytes = pngWithExif(40, 20, o);
    const shown = await page.evaluate(async (b64) => {
      const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const blob = new Blob([data], { type: 'image/png' });
      const bitmap = await createImageBitmap(blob, { imageOrientation: 'from-image' });
      const img = new Image();
      img.src = URL.createObjectURL(blob);
      await img.decode();
      return { bitmap: [bitmap.width, bitmap.height], img: [img.naturalWidth, img.naturalHeight] };
    }, Buffer.from(bytes).toString('base64'));
    const d = displaySize(parseImageHeader(bytes)!);
    expect(shown, name).toEqual({ bitmap: [d.width, d.height], img: [d.width, d.height] });
  }
  // The cases do differ: the reader swaps the first two and not the others.
  expect(CASES.map(([, o]) => displaySize(parseImageHeader(pngWithExif(40, 20, o))!).width)).toEqual([20, 20, 40, 40, 40, 40]);
});
