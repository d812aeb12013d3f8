/**
 * `image_missing`, `image_size_mismatch`, `exif_rotated`: from the image files' headers only
 * (size and EXIF orientation, image/header.ts), never a decoded picture: 4 KiB per image, more
 * only when the header lies further in.
 */
import type { FileSource } from '../io/fileSource';
import { displaySize, parseImageHeader, readImageHeader, type ImageHeader } from '../image/header';
import { imageBytesProblem } from '../image/imageProblems';
import { finding, type LintFinding } from './types';

export interface ImageToCheck {
  /** The cases the image findings are reported on (TABench: every query of the image). */
  caseIds: readonly string[];
  /** The image as the annotation names it. */
  name: string;
  /** Where it is in the folder; null when the reader did not find it. */
  file: string | null;
  /**
   * The annotation's size, the field(s) it came from ("width/height", "image_size_px"), and the
   * cases that use it (an image_size_mismatch goes there; default: every case of the image).
   */
  annotated?: { width: number; height: number; field: string; caseIds?: readonly string[] };
}

export interface CheckedImage {
  header: ImageHeader | null;
}

const ORIENTATION: Record<number, string> = {
  2: 'mirrored',
  3: 'rotated 180°',
  4: 'flipped upside down',
  5: 'mirrored and rotated 90°',
  6: 'rotated 90° clockwise',
  7: 'mirrored and rotated 90° counter-clockwise',
  8: 'rotated 90° counter-clockwise',
};

/** Bytes read first: a PNG's size is in its first 24, a JPEG's SOF (after its EXIF) mostly within 4 KiB. */
const FIRST_READ = 4096;

async function headerOf(src: FileSource, file: string): Promise<ImageHeader | string> {
  try {
    const head = src.readRange ? await src.readRange(file, 0, FIRST_READ) : await src.read(file);
    const bad = imageBytesProblem(head.subarray(0, 16));
    if (bad) return bad;
    // A header found in the first bytes is complete (a JPEG's APP1 lies before its SOF) unless it
    // says it is partial (a PNG whose chunks before IDAT go on); else the shared reader goes on
    // to 64 KiB, then the whole file (a large EXIF thumbnail or ICC profile).
    const first = parseImageHeader(head);
    const h = (first && !first.partial) || head.length < FIRST_READ ? first : await readImageHeader(src, file);
    return h ?? 'no readable size in its header (truncated or corrupt)';
  } catch (e) {
    return `cannot be read (${(e as Error).message})`;
  }
}

/**
 * Checks each image once (8 reads at a time), pushing findings for its cases; returns each
 * image's header (null when missing / undecodable), in the order given, for the bounds checks.
 */
export async function checkImages(
  src: FileSource,
  images: readonly ImageToCheck[],
  out: LintFinding[],
  signal?: AbortSignal,
): Promise<(ImageHeader | null)[]> {
  const headers: (ImageHeader | null)[] = new Array(images.length).fill(null);
  const why: (string | null)[] = new Array(images.length).fill(null);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < images.length; i = next++) {
      if (i % 256 === 0) signal?.throwIfAborted();
      const im = images[i];
      if (im.file === null) continue;
      const h = await headerOf(src, im.file);
      if (typeof h === 'string') why[i] = h;
      else headers[i] = h;
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, images.length) }, worker));
  images.forEach((im, i) => imageFindings(im, headers[i], why[i], out));
  return headers;
}

/**
 * The findings of one image whose header has been read (`h`; null with `why` when it could not
 * be): used by checkImages for image files, and directly for images held inside the dataset's
 * own files (PulseBench's parquet rows), whose `file` then says where they are.
 */
export function imageFindings(im: ImageToCheck, h: ImageHeader | null, why: string | null, out: LintFinding[]): void {
  const add = (kind: 'image_missing' | 'image_size_mismatch' | 'exif_rotated', detail: string) => {
    const cases = kind === 'image_size_mismatch' ? (im.annotated?.caseIds ?? im.caseIds) : im.caseIds;
    for (const c of cases) out.push(finding(c, undefined, kind, detail));
  };
  if (im.file === null) {
    add('image_missing', `the annotation names ${im.name}, which is not in the folder: the viewer has no picture to check the GT against, and no model can be run on it`);
    return;
  }
  if (!h) {
    add('image_missing', `${im.file} does not decode: ${why}`);
    return;
  }
  const shown = displaySize(h);
  const a = im.annotated;
  const turned = h.orientation !== 1;
  if (a && (a.width !== h.width || a.height !== h.height) && !(turned && a.width === shown.width && a.height === shown.height)) {
    add(
      'image_size_mismatch',
      `the annotation's ${a.field} is ${a.width}×${a.height} but ${im.file} is ${h.width}×${h.height}` +
        (turned ? ` (${shown.width}×${shown.height} as displayed)` : '') +
        `: GT drawn or scored against one size lands in the wrong place on the other`,
    );
  }
  if (turned) {
    const matches = a ? (a.width === h.width && a.height === h.height ? 'stored' : a.width === shown.width && a.height === shown.height ? 'displayed' : null) : null;
    const swaps = h.orientation >= 5;
    add(
      'exif_rotated',
      `${im.file} carries EXIF orientation ${h.orientation} (${ORIENTATION[h.orientation] ?? 'turned'}): browsers show it turned${swaps ? ` (${shown.width}×${shown.height})` : ''}, ` +
        `pipelines that read the stored pixels (PIL's Image.open without ImageOps.exif_transpose, cv2 with IMREAD_IGNORE_ORIENTATION) do not${swaps ? ` (${h.width}×${h.height})` : ''}` +
        (matches ? `; the annotation's ${a!.field} ${a!.width}×${a!.height} is the ${matches} image's` : '') +
        ', so the GT may be drawn on a turned image',
    );
  }
}
