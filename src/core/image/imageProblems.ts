/**
 * Missing and undecodable images, said the same way in every benchmark's dataset warnings: each
 * path (the first 20 of each kind), then "… and N more". A case without its picture still scores;
 * the user must still learn which pictures the viewer will not show, and why.
 */
import type { FileSource } from '../io/fileSource';

/** Paths named per kind; the rest are counted. */
export const SHOW_IMAGE_PATHS = 20;

export class ImageProblems {
  private readonly missing: string[] = [];
  private readonly broken: { path: string; why: string }[] = [];

  /** `consequence`: what the missing picture costs, e.g. "its case is scored without a picture". */
  constructor(private readonly consequence = 'its case is scored without a picture') {}

  notFound(path: string): void {
    this.missing.push(path);
  }

  undecodable(path: string, why: string): void {
    this.broken.push({ path, why });
  }

  get notFoundCount(): number {
    return this.missing.length;
  }

  get undecodableCount(): number {
    return this.broken.length;
  }

  /** The warning lines: missing first, then undecodable. */
  warnings(): string[] {
    const out: string[] = [];
    for (const m of this.missing.slice(0, SHOW_IMAGE_PATHS)) out.push(`image not found: ${m} (${this.consequence})`);
    if (this.missing.length > SHOW_IMAGE_PATHS) out.push(`… and ${this.missing.length - SHOW_IMAGE_PATHS} more images not found`);
    for (const b of this.broken.slice(0, SHOW_IMAGE_PATHS)) out.push(`image not decodable: ${b.path}: ${b.why} (${this.consequence})`);
    if (this.broken.length > SHOW_IMAGE_PATHS) out.push(`… and ${this.broken.length - SHOW_IMAGE_PATHS} more images not decodable`);
    return out;
  }
}

const FORMATS = 'not a PNG, JPEG, GIF, BMP, WebP or TIFF image';

/** Whether the first bytes are the signature of an image format (16 bytes are enough). */
function hasImageSignature(b: Uint8Array): boolean {
  const at = (i: number, ...v: number[]) => v.every((x, k) => b[i + k] === x);
  return (
    at(0, 0x89, 0x50, 0x4e, 0x47) || // PNG
    at(0, 0xff, 0xd8, 0xff) || // JPEG
    at(0, 0x47, 0x49, 0x46, 0x38) || // GIF8
    at(0, 0x42, 0x4d) || // BMP
    (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) || // RIFF….WEBP
    at(0, 0x49, 0x49, 0x2a, 0x00) || // TIFF, little-endian
    at(0, 0x4d, 0x4d, 0x00, 0x2a) // TIFF, big-endian
  );
}

/** Why image bytes cannot be shown (none, or no known image signature), or null when they can. */
export function imageBytesProblem(bytes: Uint8Array | null | undefined): string | null {
  if (!bytes || bytes.length === 0) return 'no image bytes';
  return hasImageSignature(bytes) ? null : FORMATS;
}

/**
 * Checks image files cheaply, 8 at a time, in the order given: an empty file, or one whose first
 * bytes are no known image signature (an HTML error page saved as .jpg, a Git LFS pointer), is
 * undecodable. Reads the first 16 bytes of each file, never a whole image.
 */
export async function checkImageFiles(src: FileSource, paths: readonly string[], problems: ImageProblems, signal?: AbortSignal): Promise<void> {
  const sizes = new Map(src.list().map((e) => [e.path, e.size]));
  const why: (string | null)[] = new Array(paths.length).fill(null);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < paths.length; i = next++) {
      signal?.throwIfAborted();
      const p = paths[i];
      if (sizes.get(p) === 0) {
        why[i] = 'empty file';
        continue;
      }
      try {
        why[i] = imageBytesProblem(src.readRange ? await src.readRange(p, 0, 16) : (await src.read(p)).subarray(0, 16));
      } catch (e) {
        why[i] = `cannot be read (${(e as Error).message})`;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, paths.length) }, worker));
  why.forEach((w, i) => {
    if (w) problems.undecodable(paths[i], w);
  });
}
