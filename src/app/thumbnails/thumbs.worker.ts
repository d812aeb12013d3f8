/**
 * Shrinks images for the case grid off the main thread: decode at the target width (the browser
 * decodes straight to the small size, honouring EXIF orientation), then encode a small JPEG the
 * page shows through an object URL. It imports nothing, so the chunk stays tiny.
 *
 * Messages in:  { type: 'decode', id, blob, width } | { type: 'cancel', id }
 * Messages out: { id, blob } | { id, error }
 */
interface WorkerScope {
  onmessage: ((ev: MessageEvent<ThumbRequest>) => void) | null;
  postMessage(message: ThumbReply): void;
}

export type ThumbRequest = { type: 'decode'; id: number; blob: Blob; width: number } | { type: 'cancel'; id: number };
export type ThumbReply = { id: number; blob: Blob } | { id: number; error: string; cancelled?: boolean };

const scope = self as unknown as WorkerScope;
const cancelled = new Set<number>();

async function decode(id: number, blob: Blob, width: number): Promise<ThumbReply> {
  const bitmap = await createImageBitmap(blob, { resizeWidth: width, resizeQuality: 'low', imageOrientation: 'from-image' });
  try {
    if (cancelled.has(id)) return { id, error: 'cancelled', cancelled: true };
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2D context in the thumbnail worker');
    ctx.drawImage(bitmap, 0, 0);
    return { id, blob: await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.8 }) };
  } finally {
    bitmap.close();
  }
}

scope.onmessage = (ev) => {
  const msg = ev.data;
  if (msg.type === 'cancel') {
    cancelled.add(msg.id);
    return;
  }
  decode(msg.id, msg.blob, msg.width)
    .catch((e: unknown): ThumbReply => ({ id: msg.id, error: e instanceof Error ? e.message : String(e) }))
    .then((reply) => {
      cancelled.delete(msg.id);
      scope.postMessage(reply);
    });
};
