/**
 * Decodes an image file for the canvas. EXIF orientation is applied ('from-image'), so a photo
 * taken on its side is drawn the way the annotators saw it and its boxes land where they belong.
 *
 * The image is decoded here (the browser decodes off the main thread); its pre-scaled copies, for
 * an image large enough to have any, are made from the same bytes in a worker
 * (mipLevels.worker.ts), and the viewer finds them with mipLevelsOf instead of making them on the
 * main thread. Where the worker cannot run, the viewer makes them itself.
 */
import { mipLevelWorker } from '../../worker/spawn';
import { mipFactors, type MipLevel } from './mipLevels';
import type { MipReply } from './mipLevels.worker';

const levelsOf = new WeakMap<ImageBitmap, Promise<MipLevel[] | null>>();

/**
 * The pre-scaled copies the worker is making (or has made) for `image`, if it was decoded here:
 * null once it is known they will not come (no worker, or it failed).
 */
export function mipLevelsOf(image: ImageBitmap): Promise<MipLevel[] | null> | undefined {
  return levelsOf.get(image);
}

let worker: Worker | null | undefined;
let nextId = 1;
const waiting = new Map<number, (levels: MipLevel[] | null) => void>();

function levelWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = mipLevelWorker();
    worker.onmessage = (e: MessageEvent<MipReply>) => {
      const done = waiting.get(e.data.id);
      waiting.delete(e.data.id);
      done?.('levels' in e.data ? e.data.levels : null);
    };
    // A worker that fails to start: the viewer makes every image's copies itself.
    worker.onerror = (e) => {
      e.preventDefault?.();
      console.warn(`benchlens: the image worker failed (${e.message || 'it did not start'}); pre-scaled copies of images are made on the main thread`);
      worker = null;
      for (const done of waiting.values()) done(null);
      waiting.clear();
    };
  } catch {
    worker = null;
  }
  return worker;
}

function levelsInWorker(blob: Blob): Promise<MipLevel[] | null> {
  const w = levelWorker();
  if (!w) return Promise.resolve(null);
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    w.postMessage({ id, blob });
  });
}

export async function decodeImage(blob: Blob): Promise<ImageBitmap> {
  const image = await createImageBitmap(blob, { imageOrientation: 'from-image' });
  if (mipFactors(image.width, image.height).length > 0) levelsOf.set(image, levelsInWorker(blob));
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
