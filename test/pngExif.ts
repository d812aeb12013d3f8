/**
 * Small PNG files with an `eXIf` chunk (PNG extensions 1.5.0), for the header reader's tests and
 * for checking, in Chromium, which of them the browser shows turned.
 */
import { crc32 } from '../src/core/io/bytes';
import { zlibSync } from 'fflate';

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  dv.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

/** A little-endian TIFF header with IFD0 holding one entry: Orientation (0x0112) = `orientation`. */
export function tiffWithOrientation(orientation: number): Uint8Array {
  const b = new Uint8Array(26);
  const dv = new DataView(b.buffer);
  b.set([0x49, 0x49, 0x2a, 0x00]);
  dv.setUint32(4, 8, true);
  dv.setUint16(8, 1, true);
  dv.setUint16(10, 0x0112, true);
  dv.setUint16(12, 3, true);
  dv.setUint32(14, 1, true);
  dv.setUint16(18, orientation, true);
  return b;
}

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
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, width);
  dv.setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = new Uint8Array((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) raw[y * (width * 3 + 1) + 1 + x * 3] = 255;
  const tiff = tiffWithOrientation(o.orientation ?? 6);
  const exif = chunk('eXIf', o.prefixed ? Uint8Array.from([0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff]) : tiff);
  const parts = [Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr)];
  if (o.padding) parts.push(chunk('tEXt', new Uint8Array(o.padding).fill(0x61)));
  if (o.exif === 'before') parts.push(exif);
  parts.push(chunk('IDAT', zlibSync(raw)));
  if (o.exif === 'after') parts.push(exif);
  parts.push(chunk('IEND', new Uint8Array(0)));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
