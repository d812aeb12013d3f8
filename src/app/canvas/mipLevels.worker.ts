/**
 * Makes a case image's pre-scaled copies (mipLevels.ts) off the main thread, from the image file's
 * bytes, and hands them to the page (transferred). Why here: Chromium makes a resized ImageBitmap
 * synchronously on the thread that asks for it — from a 4000×3000 image the copies took 74–186 ms
 * of the main thread (measured in a page), a frozen page right after every case's image arrived.
 * The image the viewer draws is still the one decoded on the page (decode.ts): the viewer bench
 * found the first draw at full size of one made here, or on a canvas, 14.6–16.8 ms of main-thread
 * CPU against 3.8–5.4 ms later (in 5 of 7 traced runs), and none for one decoded in the page.
 *
 * One request at a time, in the order asked: a decode and its resizes take a core for about half
 * a second for a 12-MP image, and the page draws on the same cores. A request cancelled while it
 * waits is dropped; one cancelled while under way stops before its next copy, and sends nothing
 * (mipRequests.ts cancels when no pane shows the image any more).
 *
 * Messages in:  { id, blob } | { cancel: id }
 * Messages out: { id, levels } | { id, error }
 */
import { makeMipLevels, type MipLevel } from './mipLevels';

export type MipRequest = { id: number; blob: Blob };
export type MipMessage = MipRequest | { cancel: number };
export type MipReply = { id: number; levels: MipLevel[] } | { id: number; error: string };

const scope = self as unknown as { onmessage: ((e: MessageEvent<MipMessage>) => void) | null; postMessage(m: MipReply, transfer?: Transferable[]): void };

const queue: MipRequest[] = [];
/** The request under way, and whether it has been cancelled. */
let current: { id: number; cancelled: boolean } | null = null;

async function copiesOf(blob: Blob, wanted: () => boolean): Promise<MipLevel[]> {
  // EXIF orientation applied, as decode.ts does for the image itself.
  const image = await createImageBitmap(blob, { imageOrientation: 'from-image' });
  try {
    return wanted() ? await makeMipLevels(image, wanted) : [];
  } finally {
    image.close();
  }
}

async function work() {
  while (!current && queue.length > 0) {
    const { id, blob } = queue.shift()!;
    const job = (current = { id, cancelled: false });
    try {
      const levels = await copiesOf(blob, () => !job.cancelled);
      if (!job.cancelled) scope.postMessage({ id, levels }, levels.map((l) => l.image));
      else for (const l of levels) l.image.close();
    } catch (err) {
      if (!job.cancelled) scope.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
    }
    current = null;
  }
}

scope.onmessage = (e) => {
  const m = e.data;
  if ('cancel' in m) {
    if (current?.id === m.cancel) current.cancelled = true;
    const at = queue.findIndex((r) => r.id === m.cancel);
    if (at >= 0) queue.splice(at, 1);
    return;
  }
  queue.push(m);
  void work();
};
