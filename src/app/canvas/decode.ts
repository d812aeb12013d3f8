/**
 * Decodes an image file for the canvas. EXIF orientation is applied ('from-image'), so a photo
 * taken on its side is drawn the way the annotators saw it and its boxes land where they belong.
 *
 * The image is decoded here (the browser decodes off the main thread); its pre-scaled copies, for
 * an image large enough to have any, are made from the same bytes in a worker
 * (mipLevels.worker.ts) once a pane shows it, and the viewer finds them with mipLevelsOf instead of
 * making them on the main thread (mipRequests.ts). Where the worker cannot run, the viewer makes
 * them itself.
 */
import { mipLevelWorker } from '../../worker/spawn';
import { mipFactors } from './mipLevels';
import { MipRequests, type Copies } from './mipRequests';

const requests = new MipRequests(mipLevelWorker);

/**
 * A pane shows `image`: the pre-scaled copies the worker makes for it, if it was decoded here
 * (null once it is known they will not come: no worker, or it failed). Pair every call with
 * releaseMipLevels, which cancels the worker's request once no pane shows the image.
 */
export function mipLevelsOf(image: ImageBitmap): Copies | undefined {
  return requests.ask(image);
}

/** A pane no longer shows `image` (see mipLevelsOf). */
export function releaseMipLevels(image: ImageBitmap): void {
  requests.release(image);
}

/** For tests: the copies asked for or made for `image`, without asking for them. */
export function mipLevelsAsked(image: ImageBitmap): Copies | undefined {
  return requests.peek(image);
}

/** For tests: requests sent to the copies' worker, cancelled, answered with copies (MipRequests.stats). */
export const mipWork = requests.stats;

export async function decodeImage(blob: Blob): Promise<ImageBitmap> {
  const image = await createImageBitmap(blob, { imageOrientation: 'from-image' });
  if (mipFactors(image.width, image.height).length > 0) requests.register(image, blob);
  return image;
}

/** decodeImage with the viewer's status: 'error' when the browser cannot decode the bytes. */
export async function decodeImageStatus(blob: Blob | null): Promise<{ image: ImageBitmap | null; status: 'ok' | 'missing' | 'error' }> {
  if (!blob) return { image: null, status: 'missing' };
  try {
    return { image: await decodeImage(blob), status: 'ok' };
  } catch {
    return { image: null, status: 'error' };
  }
}
