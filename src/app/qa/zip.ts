/**
 * A minimal ZIP writer (stored, no compression) for downloading a corrected GT that spans several
 * files as one archive. Pure: text in, bytes out. UTF-8 names (flag bit 11), CRC-32, no ZIP64 —
 * a GT export is far below 4 GB and 65535 files.
 */
import { crc32 } from '../../core/io/bytes';

/** path → text, in the order given (paths use "/"; a leading "/" is dropped). */
export function zipStore(files: Record<string, string>): Uint8Array {
  const enc = new TextEncoder();
  const entries = Object.entries(files).map(([path, text]) => {
    const name = enc.encode(path.replace(/^\/+/, ''));
    const data = enc.encode(text);
    return { name, data, crc: crc32(data) };
  });
  if (entries.length > 0xffff) throw new Error('too many files for a ZIP without ZIP64');
  const size = entries.reduce((s, e) => s + 30 + e.name.length + e.data.length + 46 + e.name.length, 22);
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  let p = 0;
  const offsets: number[] = [];
  const header = (sig: number, central: boolean, e: (typeof entries)[number], offset: number) => {
    dv.setUint32(p, sig, true);
    p += 4;
    if (central) {
      dv.setUint16(p, 20, true); // version made by
      p += 2;
    }
    dv.setUint16(p, 20, true); // version needed
    dv.setUint16(p + 2, 0x0800, true); // UTF-8 names
    dv.setUint16(p + 4, 0, true); // stored
    dv.setUint16(p + 6, 0, true); // time
    dv.setUint16(p + 8, 0x21, true); // date: 1980-01-01
    dv.setUint32(p + 10, e.crc, true);
    dv.setUint32(p + 14, e.data.length, true);
    dv.setUint32(p + 18, e.data.length, true);
    dv.setUint16(p + 22, e.name.length, true);
    dv.setUint16(p + 24, 0, true); // extra
    p += 26;
    if (central) {
      dv.setUint16(p, 0, true); // comment
      dv.setUint16(p + 2, 0, true); // disk
      dv.setUint16(p + 4, 0, true); // internal attrs
      dv.setUint32(p + 6, 0, true); // external attrs
      dv.setUint32(p + 10, offset, true);
      p += 14;
    }
    out.set(e.name, p);
    p += e.name.length;
  };
  for (const e of entries) {
    offsets.push(p);
    header(0x04034b50, false, e, 0);
    out.set(e.data, p);
    p += e.data.length;
  }
  const cdStart = p;
  entries.forEach((e, i) => header(0x02014b50, true, e, offsets[i]));
  const cdSize = p - cdStart;
  dv.setUint32(p, 0x06054b50, true);
  dv.setUint16(p + 4, 0, true);
  dv.setUint16(p + 6, 0, true);
  dv.setUint16(p + 8, entries.length, true);
  dv.setUint16(p + 10, entries.length, true);
  dv.setUint32(p + 12, cdSize, true);
  dv.setUint32(p + 16, cdStart, true);
  dv.setUint16(p + 20, 0, true);
  return out;
}
