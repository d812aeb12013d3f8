/**
 * ZIP archives built byte by byte from the PKWARE APPNOTE (6.3.10), for the reader's tests: ZIP64
 * archives (no writer we ship produces them: fflate writes 32-bit archives only) and zip bombs
 * with honest or lying sizes. Compression is Node's zlib, so the fixtures do not depend on the
 * library under test.
 */
import { constants, deflateRawSync } from 'node:zlib';
import { crc32 } from '../src/core/io/bytes';

export interface FixtureEntry {
  name: string;
  /** 0 stored, 8 deflate (others to test refusals). */
  method: number;
  /** The bytes as they sit in the archive (already compressed for method 8). */
  payload: Uint8Array;
  /** The uncompressed size and CRC-32 the headers declare (a bomb may lie). */
  size: number;
  crc: number;
  /** Sizes and offset in the ZIP64 extra field (APPNOTE 4.5.3) with 0xFFFFFFFF in the headers. */
  zip64?: boolean;
}

export function stored(name: string, data: Uint8Array | string, zip64 = false): FixtureEntry {
  const d = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return { name, method: 0, payload: d, size: d.length, crc: crc32(d), zip64 };
}

export function deflated(name: string, data: Uint8Array | string, zip64 = false): FixtureEntry {
  const d = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return { name, method: 8, payload: new Uint8Array(deflateRawSync(d)), size: d.length, crc: crc32(d), zip64 };
}

/**
 * A raw deflate stream that inflates to `mib` MiB of zeros, built without ever holding them: one
 * MiB of zeros compressed with a full flush (byte-aligned, no back-references across it) repeated,
 * then an empty final block. 4096 MiB come from ~4 MiB.
 */
export function zerosDeflate(mib: number): Uint8Array {
  const seg = deflateRawSync(Buffer.alloc(1 << 20), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const out = new Uint8Array(seg.length * mib + 2);
  for (let i = 0; i < mib; i++) out.set(seg, i * seg.length);
  out.set([0x03, 0x00], seg.length * mib); // BFINAL=1, fixed Huffman, end-of-block
  return out;
}

/** A one-entry zip bomb: `mib` MiB of zeros; `declare` = the uncompressed size its headers claim. */
export function zipBomb(mib: number, declare: 'honest' | number = 'honest'): Uint8Array {
  const size = declare === 'honest' ? mib * 2 ** 20 : declare;
  return buildZip([{ name: 'res_img_1.txt', method: 8, payload: zerosDeflate(mib), size, crc: 0, zip64: size > 0xfffffffe }]);
}

/** The archive: local headers and data, central directory, (ZIP64 end record and locator), end record. */
export function buildZip(entries: readonly FixtureEntry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let at = 0;
  const put = (b: Uint8Array) => {
    parts.push(b);
    at += b.length;
  };
  const enc = new TextEncoder();
  const offsets: number[] = [];
  const anyZip64 = entries.some((e) => e.zip64);
  for (const e of entries) {
    offsets.push(at);
    const name = enc.encode(e.name);
    const extra = e.zip64 ? zip64Extra([e.size, e.payload.length]) : new Uint8Array(0);
    const h = new Writer(30);
    h.u32(0x04034b50).u16(e.zip64 ? 45 : 20).u16(0x0800).u16(e.method).u16(0).u16(0x21).u32(e.crc);
    h.u32(e.zip64 ? 0xffffffff : e.payload.length).u32(e.zip64 ? 0xffffffff : e.size).u16(name.length).u16(extra.length);
    put(h.bytes);
    put(name);
    put(extra);
    put(e.payload);
  }
  const cdStart = at;
  entries.forEach((e, i) => {
    const name = enc.encode(e.name);
    // In the central directory the extra holds only the fields whose header value is 0xFFFFFFFF.
    const extra = e.zip64 ? zip64Extra([e.size, e.payload.length, offsets[i]]) : new Uint8Array(0);
    const h = new Writer(46);
    h.u32(0x02014b50).u16(e.zip64 ? 45 : 20).u16(e.zip64 ? 45 : 20).u16(0x0800).u16(e.method).u16(0).u16(0x21).u32(e.crc);
    h.u32(e.zip64 ? 0xffffffff : e.payload.length).u32(e.zip64 ? 0xffffffff : e.size).u16(name.length).u16(extra.length).u16(0);
    h.u16(0).u16(0).u32(0).u32(e.zip64 ? 0xffffffff : offsets[i]);
    put(h.bytes);
    put(name);
    put(extra);
  });
  const cdSize = at - cdStart;
  if (anyZip64) {
    const z64eocd = at;
    const r = new Writer(56);
    r.u32(0x06064b50).u64(44).u16(45).u16(45).u32(0).u32(0).u64(entries.length).u64(entries.length).u64(cdSize).u64(cdStart);
    put(r.bytes);
    const l = new Writer(20);
    l.u32(0x07064b50).u32(0).u64(z64eocd).u32(1);
    put(l.bytes);
  }
  const end = new Writer(22);
  end.u32(0x06054b50).u16(0).u16(0);
  end.u16(anyZip64 ? 0xffff : entries.length).u16(anyZip64 ? 0xffff : entries.length);
  end.u32(anyZip64 ? 0xffffffff : cdSize).u32(anyZip64 ? 0xffffffff : cdStart).u16(0);
  put(end.bytes);
  const out = new Uint8Array(at);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Extra field 0x0001: the given 8-byte values in APPNOTE order (size, compressed size, offset). */
function zip64Extra(values: readonly number[]): Uint8Array {
  const w = new Writer(4 + 8 * values.length);
  w.u16(0x0001).u16(8 * values.length);
  for (const v of values) w.u64(v);
  return w.bytes;
}

class Writer {
  readonly bytes: Uint8Array;
  private readonly dv: DataView;
  private p = 0;
  constructor(n: number) {
    this.bytes = new Uint8Array(n);
    this.dv = new DataView(this.bytes.buffer);
  }
  u16(v: number): this {
    this.dv.setUint16(this.p, v, true);
    this.p += 2;
    return this;
  }
  u32(v: number): this {
    this.dv.setUint32(this.p, v >>> 0, true);
    this.p += 4;
    return this;
  }
  u64(v: number): this {
    this.dv.setBigUint64(this.p, BigInt(v), true);
    this.p += 8;
    return this;
  }
}
