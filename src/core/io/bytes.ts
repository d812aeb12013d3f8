/**
 * Byte helpers of the PNG writer (demo images): CRC-32 and a pass through the platform's
 * (De)CompressionStream. ZIP archives are read and written with fflate (io/zip.ts, app/qa/zip.ts).
 */

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (IEEE, as PNG and ZIP use it) of bytes[start, end). */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * Pushes `data` through a platform (De)CompressionStream and returns all of its output. A corrupt
 * input rejects with the stream's error (the writer's own promises are silenced so that the
 * rejection surfaces once, through the reader).
 */
export async function throughStream(
  stream: { readonly writable: WritableStream<Uint8Array>; readonly readable: ReadableStream<Uint8Array> },
  data: Uint8Array,
): Promise<Uint8Array> {
  const writer = stream.writable.getWriter();
  writer.write(data).catch(() => undefined);
  writer.close().catch(() => undefined);
  const reader = stream.readable.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value) {
      chunks.push(value);
      total += value.length;
    }
  }
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}
