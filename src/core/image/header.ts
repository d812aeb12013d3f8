/**
 * Image size (and EXIF orientation) from the first bytes of a PNG, JPEG, GIF, BMP or WebP file,
 * without decoding the picture. Used to map rel-1000 boxes to pixels and to place shapes on
 * EXIF-rotated photos.
 */
import type { FileSource } from '../io/fileSource';

export interface ImageHeader {
  width: number;
  height: number;
  format: 'png' | 'jpeg' | 'gif' | 'bmp' | 'webp';
  /** EXIF orientation 1..8 (1 when absent). Orientations 5–8 swap width and height on display. */
  orientation: number;
  /**
   * The bytes ended before the place where an orientation could still be (a PNG's chunks before
   * its image data): the size is right, the orientation is 1 only as far as they went. Readers
   * that care read further (readImageHeader does).
   */
  partial?: true;
}

/** Width and height as displayed, after the EXIF orientation is applied. */
export function displaySize(h: ImageHeader): { width: number; height: number } {
  return h.orientation >= 5 ? { width: h.height, height: h.width } : { width: h.width, height: h.height };
}

export function parseImageHeader(b: Uint8Array): ImageHeader | null {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (b.length >= 24 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return parsePng(b, dv);
  if (b.length >= 10 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46) {
    return { width: dv.getUint16(6, true), height: dv.getUint16(8, true), format: 'gif', orientation: 1 };
  }
  if (b.length >= 26 && b[0] === 0x42 && b[1] === 0x4d) {
    return { width: Math.abs(dv.getInt32(18, true)), height: Math.abs(dv.getInt32(22, true)), format: 'bmp', orientation: 1 };
  }
  if (b.length >= 30 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') {
    const kind = ascii(b, 12, 16);
    if (kind === 'VP8 ') return { width: dv.getUint16(26, true) & 0x3fff, height: dv.getUint16(28, true) & 0x3fff, format: 'webp', orientation: 1 };
    if (kind === 'VP8L') {
      const bits = dv.getUint32(21, true);
      return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1, format: 'webp', orientation: 1 };
    }
    if (kind === 'VP8X') {
      const w = 1 + (b[24] | (b[25] << 8) | (b[26] << 16));
      const h = 1 + (b[27] | (b[28] << 8) | (b[29] << 16));
      return { width: w, height: h, format: 'webp', orientation: 1 };
    }
    return null;
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) return parseJpeg(b, dv);
  return null;
}

function ascii(b: Uint8Array, s: number, e: number): string {
  return String.fromCharCode(...b.subarray(s, e));
}

/**
 * A PNG's size (IHDR) and the orientation of an `eXIf` chunk (PNG extensions 1.5.0: the TIFF
 * header and IFDs). What counts is what the browser shows (e2e/image-orientation.spec.ts):
 * Chromium 156 turns a PNG whose eXIf precedes IDAT (an <img>'s naturalWidth and
 * createImageBitmap's size swap for orientation 6), and ignores an eXIf after IDAT (which the
 * extension lets decoders do) and one whose data starts with "Exif\0\0" instead of a TIFF
 * header (as some writers made them): those read as orientation 1 here too. Firefox has turned
 * PNGs by an eXIf before IDAT since 2025 (w3c/png pull 522, Mozilla bugs 1682759 and 1969853);
 * CSS Images 3 lets browsers ignore one after the image data (w3c/csswg-drafts issue 4929).
 */
function parsePng(b: Uint8Array, dv: DataView): ImageHeader {
  const h: ImageHeader = { width: dv.getUint32(16), height: dv.getUint32(20), format: 'png', orientation: 1 };
  let i = 8;
  for (;;) {
    if (i + 8 > b.length) return { ...h, partial: true };
    const len = dv.getUint32(i);
    const type = ascii(b, i + 4, i + 8);
    if (type === 'IDAT' || type === 'IEND') return h;
    if (type === 'eXIf') {
      if (i + 8 + len > b.length) return { ...h, partial: true };
      const tiff = ascii(b, i + 8, i + 10);
      return { ...h, orientation: (tiff === 'II' || tiff === 'MM' ? exifOrientation(b, i + 8, i + 8 + len) : null) ?? 1 };
    }
    i += 12 + len;
  }
}

function parseJpeg(b: Uint8Array, dv: DataView): ImageHeader | null {
  let orientation = 1;
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) {
      i++;
      continue;
    }
    const marker = b[i + 1];
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const len = dv.getUint16(i + 2);
    if (marker === 0xe1 && ascii(b, i + 4, i + 8) === 'Exif') {
      orientation = exifOrientation(b, i + 10, i + 2 + len) ?? orientation;
    }
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) {
      if (i + 9 > b.length) return null;
      return { height: dv.getUint16(i + 5), width: dv.getUint16(i + 7), format: 'jpeg', orientation };
    }
    i += 2 + len;
  }
  return null;
}

function exifOrientation(b: Uint8Array, tiff: number, end: number): number | null {
  if (tiff + 8 > b.length) return null;
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const le = b[tiff] === 0x49;
  const ifd = tiff + dv.getUint32(tiff + 4, le);
  if (ifd + 2 > Math.min(end, b.length)) return null;
  const n = dv.getUint16(ifd, le);
  for (let k = 0; k < n; k++) {
    const e = ifd + 2 + k * 12;
    if (e + 12 > b.length) return null;
    if (dv.getUint16(e, le) === 0x0112) {
      const v = dv.getUint16(e + 8, le);
      return v >= 1 && v <= 8 ? v : null;
    }
  }
  return null;
}

/**
 * Reads just enough of a file to know its size: 64 KiB first (EXIF blocks can be large), the
 * whole file only when the header lies further in.
 */
export async function readImageHeader(src: FileSource, path: string): Promise<ImageHeader | null> {
  const head = src.readRange ? await src.readRange(path, 0, 65536) : await src.read(path);
  const h = parseImageHeader(head);
  if ((h && !h.partial) || !src.readRange || head.length < 65536) return h;
  return parseImageHeader(await src.read(path));
}
