/**
 * A fast path for reading the 14 split files after the first: LTB's files are the same JSON
 * written 15 times with only the `"ignore"` values changed. When a file's bytes equal the first
 * file's bytes everywhere except at `"ignore": true|false` literals, its instances ARE the first
 * file's instances and only those flags need reading — no JSON.parse of another 60 MB. Anything
 * else (other whitespace, another key order, a changed polygon) makes the diff give up, and the
 * file is parsed and joined the ordinary way.
 */

export interface IgnoreIndex {
  /** Byte offset of each instance's `true` / `false` literal, in file order. */
  offsets: Int32Array;
  /** The first file's value at each offset (1 = ignore). */
  values: Uint8Array;
}

const WS = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * Finds every `"ignore": <literal>` of a pure-ASCII JSON text (byte offsets = string offsets).
 * Null when the text is not ASCII or the count differs from `expected` instances.
 */
export function indexIgnoreLiterals(text: string, byteLength: number, expected: number): IgnoreIndex | null {
  if (text.length !== byteLength) return null; // non-ASCII (or a BOM): offsets would not be bytes
  const offsets = new Int32Array(expected);
  const values = new Uint8Array(expected);
  let n = 0;
  let pos = 0;
  for (;;) {
    const at = text.indexOf('"ignore"', pos);
    if (at < 0) break;
    pos = at + 8;
    let p = pos;
    while (p < text.length && WS(text.charCodeAt(p))) p++;
    if (text.charCodeAt(p) !== 0x3a) continue; // a string value "ignore", not the key
    p++;
    while (p < text.length && WS(text.charCodeAt(p))) p++;
    let v: number;
    if (text.startsWith('true', p)) v = 1;
    else if (text.startsWith('false', p)) v = 0;
    else return null;
    if (n >= expected) return null;
    offsets[n] = p;
    values[n] = v;
    n++;
    pos = p;
  }
  return n === expected ? { offsets, values } : null;
}

/**
 * The `ignore` flag of every instance of `other`, when `other` equals `canon` byte for byte
 * except at the indexed literals; null otherwise.
 */
export function diffIgnoreFlags(canon: Uint8Array, index: IgnoreIndex, other: Uint8Array): Uint8Array | null {
  const out = index.values.slice();
  const { offsets } = index;
  const na = canon.length;
  const nb = other.length;
  const da = new DataView(canon.buffer, canon.byteOffset, na);
  const db = new DataView(other.buffer, other.byteOffset, nb);
  let pa = 0;
  let pb = 0;
  let j = 0;
  for (;;) {
    // Equal runs 16 bytes at a time, then byte by byte up to the first difference. Reading 8
    // bytes as a big-endian double is exact here: JSON text (bytes < 0x7F before any non-ASCII
    // byte) cannot form a NaN, and a NaN or ±0 pair only sends the loop to the byte compare.
    while (pa + 16 <= na && pb + 16 <= nb && da.getFloat64(pa) === db.getFloat64(pb) && da.getFloat64(pa + 8) === db.getFloat64(pb + 8)) {
      pa += 16;
      pb += 16;
    }
    while (pa < na && pb < nb && canon[pa] === other[pb]) {
      pa++;
      pb++;
    }
    if (pa === na && pb === nb) return out;
    if (pa >= na || pb >= nb) return null;
    // The only difference allowed: a true/false literal at an indexed offset.
    while (j < offsets.length && offsets[j] < pa) j++;
    if (j >= offsets.length || offsets[j] !== pa) return null;
    const canonLen = index.values[j] ? 4 : 5;
    let v: number;
    if (other[pb] === 0x74 && other[pb + 1] === 0x72 && other[pb + 2] === 0x75 && other[pb + 3] === 0x65) v = 1;
    else if (other[pb] === 0x66 && other[pb + 1] === 0x61 && other[pb + 2] === 0x6c && other[pb + 3] === 0x73 && other[pb + 4] === 0x65) v = 0;
    else return null;
    out[j] = v;
    pa += canonLen;
    pb += v ? 4 : 5;
    j++;
  }
}
