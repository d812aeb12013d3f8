/**
 * Decodes an image file for the canvas. EXIF orientation is applied ('from-image'), so a photo
 * taken on its side is drawn the way the annotators saw it and its boxes land where they belong.
 */
export async function decodeImage(blob: Blob): Promise<ImageBitmap> {
  return createImageBitmap(blob, { imageOrientation: 'from-image' });
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
