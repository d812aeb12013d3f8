/**
 * Makes a case image's pre-scaled copies (mipLevels.ts) off the main thread, from the image file's
 * bytes, and hands them to the page (transferred). Why here: Chromium makes a resized ImageBitmap
 * synchronously on the thread that asks for it — from a 4000×3000 image the copies took 74–186 ms
 * of the main thread (measured in a page), a frozen page right after every case's image arrived.
 * The image the viewer draws is still the one decoded on the page (decode.ts): the viewer bench
 * found the first draw at full size of one made here, or on a canvas, 14.6–16.8 ms of main-thread
 * CPU against 3.8–5.4 ms later (in 5 of 7 traced runs), and none for one decoded in the page.
 *
 * Messages in:  { id, blob }
 * Messages out: { id, levels } | { id, error }
 */
import { makeMipLevels, type MipLevel } from './mipLevels';

export type MipRequest = { id: number; blob: Blob };
export type MipReply = { id: number; levels: MipLevel[] } | { id: number; error: string };

const scope = self as unknown as { onmessage: ((e: MessageEvent<MipRequest>) => void) | null; postMessage(m: MipReply, transfer?: Transferable[]): void };

async function copiesOf(blob: Blob): Promise<MipLevel[]> {
  // EXIF orientation applied, as decode.ts does for the image itself.
  const image = await createImageBitmap(blob, { imageOrientation: 'from-image' });
  try {
    return await makeMipLevels(image);
  } finally {
    image.close();
  }
}

scope.onmessage = (e) => {
  const { id, blob } = e.data;
  copiesOf(blob).then(
    (levels) => scope.postMessage({ id, levels }, levels.map((l) => l.image)),
    (err: unknown) => scope.postMessage({ id, error: err instanceof Error ? err.message : String(err) }),
  );
};
