import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { nodeFolderSource } from '../../../cli/nodeSource';
import { HAS_SHARED, shared } from '../../../test/shared';
import { parseImageHeader } from '../image/header';
import { MemorySource } from './fileSource';
import { openParquet, ParquetError, parquetCompressors, readParquetRows } from './parquet';

// ---------------------------------------------------------------------------------------------
// A minimal parquet writer for test fixtures (hyparquet-writer is not a dependency): one
// REQUIRED BYTE_ARRAY column without a UTF8 annotation, PLAIN values in one v1 data page,
// compressed with the codec under test. Thrift compact protocol written by hand.

class Thrift {
  bytes: number[] = [];
  private last: number[] = [0];
  varint(n: bigint | number) {
    let v = BigInt(n);
    while (v >= 0x80n) {
      this.bytes.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.bytes.push(Number(v));
  }
  zigzag(n: number | bigint) {
    const v = BigInt(n);
    this.varint(v >= 0n ? v << 1n : (-v << 1n) - 1n);
  }
  field(id: number, type: number) {
    const delta = id - this.last[this.last.length - 1];
    if (delta > 0 && delta <= 15) this.bytes.push((delta << 4) | type);
    else {
      this.bytes.push(type);
      this.zigzag(id);
    }
    this.last[this.last.length - 1] = id;
  }
  i32(id: number, v: number) {
    this.field(id, 5);
    this.zigzag(v);
  }
  i64(id: number, v: number) {
    this.field(id, 6);
    this.zigzag(v);
  }
  binary(id: number, s: string) {
    this.field(id, 8);
    this.rawBinary(s);
  }
  rawBinary(s: string) {
    const b = new TextEncoder().encode(s);
    this.varint(b.length);
    this.bytes.push(...b);
  }
  listHeader(id: number, elemType: number, size: number) {
    this.field(id, 9);
    if (size < 15) this.bytes.push((size << 4) | elemType);
    else {
      this.bytes.push(0xf0 | elemType);
      this.varint(size);
    }
  }
  begin(id?: number) {
    if (id !== undefined) this.field(id, 12);
    this.last.push(0);
  }
  end() {
    this.bytes.push(0);
    this.last.pop();
  }
}

function concat(...parts: (Uint8Array | number[])[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

const le32 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24];

const CODEC = { UNCOMPRESSED: 0, SNAPPY: 1, GZIP: 2, BROTLI: 4, ZSTD: 6 } as const;
type Codec = keyof typeof CODEC;

/** Snappy with literals only (valid: a decoder must accept any mix of literals and copies). */
function snappyLiteral(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  let n = data.length;
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  const parts: (Uint8Array | number[])[] = [out];
  for (let i = 0; i < data.length; i += 65536) {
    const part = data.subarray(i, Math.min(data.length, i + 65536));
    parts.push([61 << 2, (part.length - 1) & 0xff, (part.length - 1) >> 8], part);
  }
  return concat(...parts);
}

/** A zstd frame of raw (stored) blocks: single segment, 4-byte content size, no checksum. */
function zstdRaw(data: Uint8Array): Uint8Array {
  const n = data.length;
  const parts: (Uint8Array | number[])[] = [[0x28, 0xb5, 0x2f, 0xfd, 0xa0, ...le32(n)]];
  const MAX = 128 * 1024;
  for (let i = 0; i === 0 || i < n; i += MAX) {
    const part = data.subarray(i, Math.min(n, i + MAX));
    const last = i + MAX >= n ? 1 : 0;
    const h = (part.length << 3) | (0 << 1) | last; // block type 0: raw
    parts.push([h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff], part);
  }
  return concat(...parts);
}

function compress(codec: Codec, data: Uint8Array): Uint8Array {
  switch (codec) {
    case 'UNCOMPRESSED':
      return data;
    case 'SNAPPY':
      return snappyLiteral(data);
    case 'GZIP':
      return new Uint8Array(gzipSync(data));
    case 'BROTLI':
      return new Uint8Array(brotliCompressSync(data));
    case 'ZSTD':
      return zstdRaw(data);
  }
}

function writeParquet(values: Uint8Array[], codec: Codec): Uint8Array {
  const raw = concat(...values.flatMap((v) => [le32(v.length), v]));
  const body = compress(codec, raw);
  const ph = new Thrift();
  ph.begin();
  ph.i32(1, 0); // DATA_PAGE
  ph.i32(2, raw.length);
  ph.i32(3, body.length);
  ph.begin(5);
  ph.i32(1, values.length);
  ph.i32(2, 0); // PLAIN
  ph.i32(3, 3); // RLE
  ph.i32(4, 3);
  ph.end();
  ph.end();
  const chunk = concat(ph.bytes, body);
  const dataOffset = 4;
  const md = new Thrift();
  md.begin();
  md.i32(1, 1);
  md.listHeader(2, 12, 2);
  md.begin();
  md.binary(4, 'schema');
  md.i32(5, 1);
  md.end();
  md.begin();
  md.i32(1, 6); // BYTE_ARRAY
  md.i32(3, 0); // REQUIRED
  md.binary(4, 'v');
  md.end();
  md.i64(3, values.length);
  md.listHeader(4, 12, 1);
  md.begin(); // RowGroup
  md.listHeader(1, 12, 1);
  md.begin(); // ColumnChunk
  md.i64(2, dataOffset);
  md.begin(3); // ColumnMetaData
  md.i32(1, 6);
  md.listHeader(2, 5, 1);
  md.zigzag(0);
  md.listHeader(3, 8, 1);
  md.rawBinary('v');
  md.i32(4, CODEC[codec]);
  md.i64(5, values.length);
  md.i64(6, ph.bytes.length + raw.length);
  md.i64(7, chunk.length);
  md.i64(9, dataOffset);
  md.end();
  md.end();
  md.i64(2, chunk.length);
  md.i64(3, values.length);
  md.end();
  md.end();
  const magic = [0x50, 0x41, 0x52, 0x31];
  const n = md.bytes.length;
  return concat(magic, chunk, md.bytes, le32(n), magic);
}

// ---------------------------------------------------------------------------------------------

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const MINI = 'data/pulsebench-select-mini';

describe('parquet codecs', () => {
  it('hands hyparquet a decompressor for snappy, gzip, brotli and zstd', async () => {
    const compressors = await parquetCompressors();
    for (const c of ['SNAPPY', 'GZIP', 'BROTLI', 'ZSTD', 'LZ4', 'LZ4_RAW'] as const) {
      expect(typeof compressors[c], c).toBe('function');
    }
  });

  const values = [
    Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 255, 0xc3, 0x28]), // not UTF-8: must stay bytes
    new TextEncoder().encode('plain text row'),
    new Uint8Array(200_000).map((_, i) => (i * 31) & 0xff), // several zstd blocks, snappy chunks
  ];
  for (const codec of ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI', 'ZSTD'] as const) {
    it(`reads a ${codec} file and returns binary values unchanged`, async () => {
      const src = new MemorySource('t', { 'x.parquet': writeParquet(values, codec) });
      const pf = await openParquet(src, 'x.parquet');
      expect(pf.codecs).toEqual([codec]);
      expect(pf.columns).toEqual(['v']);
      const rows = await readParquetRows(pf, { utf8: false });
      expect(rows).toHaveLength(3);
      rows.forEach((r, i) => {
        expect(r.v).toBeInstanceOf(Uint8Array);
        expect(Buffer.from(r.v as Uint8Array).equals(Buffer.from(values[i]))).toBe(true);
      });
    });
  }

  it('names the file when a page is corrupt', async () => {
    const good = writeParquet(values, 'GZIP');
    const bad = good.slice();
    bad[40] ^= 0xff; // inside the gzip stream
    bad[41] ^= 0xff;
    const pf = await openParquet(new MemorySource('t', { 'bad.parquet': bad }), 'bad.parquet');
    await expect(readParquetRows(pf, { utf8: false })).rejects.toThrow(/bad\.parquet/);
  });
});

describe.skipIf(!HAS_SHARED)('parquet over a FileSource (pulsebench-select-mini)', () => {
  const file = 'data/train-00000-of-00001.parquet';

  it('reads embedded PNG bytes unchanged with ranged reads (Node source)', async () => {
    const src = nodeFolderSource(shared(MINI));
    const pf = await openParquet(src, file);
    expect(pf.rows).toBe(10);
    expect(pf.codecs).toEqual(['SNAPPY']);
    expect(pf.columns).toEqual(['sample_id', 'image', 'ground_truth', 'annotation_count', 'selected_count', 'selection_candidate_count', 'selection_stats']);
    const rows = await readParquetRows(pf, { columns: ['sample_id', 'image'], utf8: false });
    for (const r of rows) {
      const img = r.image as { bytes: Uint8Array; path: string };
      expect(img.bytes).toBeInstanceOf(Uint8Array);
      expect([...img.bytes.subarray(0, 8)]).toEqual(PNG_MAGIC);
      // The IEND chunk closes the file: nothing was cut or re-encoded.
      expect(Buffer.from(img.bytes.subarray(-8, -4)).toString('latin1')).toBe('IEND');
      expect(parseImageHeader(img.bytes)).toMatchObject({ width: 850, height: 1100, format: 'png' });
      expect(img.path).toBe(`${r.sample_id as string}.png`);
    }
  });

  it('reads the same bytes from a source without readRange', async () => {
    const node = nodeFolderSource(shared(MINI));
    const bytes = await node.read(file);
    const mem = new MemorySource('m', { [file]: bytes });
    (mem as { readRange?: unknown }).readRange = undefined;
    const a = await readParquetRows(await openParquet(node, file), { columns: ['image'], rowStart: 3, rowEnd: 4, utf8: false });
    const b = await readParquetRows(await openParquet(mem, file), { columns: ['image'], rowStart: 3, rowEnd: 4, utf8: false });
    const ba = (a[0].image as { bytes: Uint8Array }).bytes;
    const bb = (b[0].image as { bytes: Uint8Array }).bytes;
    expect(ba.length).toBeGreaterThan(1000);
    expect(Buffer.from(ba).equals(Buffer.from(bb))).toBe(true);
  });

  it('rejects a truncated file with an error naming it', async () => {
    const bytes = await nodeFolderSource(shared(MINI)).read(file);
    const src = new MemorySource('m', { 'data/train-cut.parquet': bytes.slice(0, 5000) });
    const err = await openParquet(src, 'data/train-cut.parquet').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParquetError);
    expect((err as Error).message).toMatch(/^data\/train-cut\.parquet: not a readable parquet file/);
  });
});
