/**
 * The pre-scaled copies of a case image the viewer draws when zoomed out (1/2, 1/4, … of each
 * side), so a zoomed-out view never resamples the whole image: which factors an image gets, and
 * making them. Shared by the worker that makes them (mipLevels.worker.ts) and Pane.tsx, which
 * makes them itself for an image that came without them. Imports nothing: the worker's chunk
 * stays tiny.
 */
export interface MipLevel {
  image: ImageBitmap;
  /** The copy's size is the image's divided by this. */
  factor: number;
}

/** Halvings down to 1/16 while both sides keep at least 256 pixels. */
export function mipFactors(width: number, height: number): number[] {
  const out: number[] = [];
  for (let f = 2; width / f >= 256 && height / f >= 256 && f <= 16; f *= 2) out.push(f);
  return out;
}

/** The smallest copy that still has at least one source pixel per screen pixel at `scale`, or null (the image itself). */
export function mipFor(mips: readonly MipLevel[], scale: number): MipLevel | null {
  let best: MipLevel | null = null;
  for (const m of mips) if (scale * m.factor <= 1) best = m;
  return best;
}

/**
 * Makes `image`'s copies (mipFactors), halving further while `wanted()`: those made until a copy
 * fails; none (the ones made closed) once it is no longer wanted.
 */
export async function makeMipLevels(image: ImageBitmap, wanted: () => boolean = () => true): Promise<MipLevel[]> {
  const levels: MipLevel[] = [];
  for (const factor of mipFactors(image.width, image.height)) {
    let copy: ImageBitmap;
    try {
      copy = await createImageBitmap(image, { resizeWidth: Math.round(image.width / factor), resizeHeight: Math.round(image.height / factor), resizeQuality: 'medium' });
    } catch {
      break;
    }
    levels.push({ image: copy, factor });
    if (!wanted()) {
      for (const l of levels) l.image.close();
      return [];
    }
  }
  return levels;
}
