/**
 * Small PNG files with an `eXIf` chunk (PNG extensions 1.5.0), for the header reader's tests and
 * for checking, in Chromium, which of them the browser shows turned.
 */
import { zlibSync } from 'fflate';
import { ihdrRgb8, pngChunk as chunk, pngFile } from '../src/core/image/png';
import { tiffWithOrientation } from './exif';

export interface PngExifOptions {
  /** Where the eXIf chunk goes: before the image data (IDAT), after it, or nowhere. */
  exif: 'before' | 'after' | 'none';
  orientation?: number;
  /** Writes "Exif\0\0" before the TIFF header, as some tools do. */
  prefixed?: boolean;
  /** A tEXt chunk of this many bytes before everything else (pushes the eXIf past a first read). */
  padding?: number;
}

/** A `width`×`height` red RGB PNG. */
export function pngWithExif(width: number, height: number, o: PngExifOptions): Uint8Array {
  const raw = new Uint8Array((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) raw[y * (width * 3 + 1) + 1 + x * 3] = 255;
  const tiff = tiffWithOrientation(o.orientation ?? 6, 'II');
  const exif = chunk('eXIf', o.prefixed ? Uint8Array.from([0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff]) : tiff);
  const chunks = [chunk('IHDR', ihdrRgb8(width, height))];
  if (o.padding) chunks.push(chunk('tEXt', new Uint8Array(o.padding).fill(0x61)));
  if (o.exif === 'before') chunks.push(exif);
  chunks.push(chunk('IDAT', zlibSync(raw)));
  if (o.exif === 'after') chunks.push(exif);
  chunks.push(chunk('IEND', new Uint8Array(0)));
  return pngFile(chunks);
}
