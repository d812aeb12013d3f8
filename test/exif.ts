/**
 * A TIFF header whose IFD0 holds one entry, Orientation (0x0112, SHORT) = `orientation`: the EXIF
 * payload of a JPEG's APP1 segment (after "Exif\0\0") and the whole of a PNG's eXIf chunk, in
 * either byte order ('MM' big-endian, 'II' little-endian).
 */
export function tiffWithOrientation(orientation: number, order: 'MM' | 'II' = 'MM'): Uint8Array {
  const le = order === 'II';
  const b = new Uint8Array(26);
  const dv = new DataView(b.buffer);
  b.set(le ? [0x49, 0x49] : [0x4d, 0x4d]);
  dv.setUint16(2, 0x2a, le);
  dv.setUint32(4, 8, le); // IFD0 right after the header
  dv.setUint16(8, 1, le); // one entry
  dv.setUint16(10, 0x0112, le);
  dv.setUint16(12, 3, le); // SHORT
  dv.setUint32(14, 1, le); // one value
  dv.setUint16(18, orientation, le);
  return b; // the next-IFD offset (22–25) is 0
}
