/**
 * A small ZIP reader for ICDAR-style submissions (`submit.zip` of `res_img_<n>.txt`): stored and
 * deflated entries, read through the central directory, inflated with the platform's
 * DecompressionStream('deflate-raw') that Node ≥ 20, browsers and workers all provide.
 */
import { throughStream } from '../../io/bytes';
import { decodeText } from '../../io/text';

export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

const EOCD = 0x06054b50;
const CDIR = 0x02014b50;
const LOCAL = 0x04034b50;

/** Every file entry of the archive (folders skipped). Throws an Error saying what is wrong. */
export async function unzip(bytes: Uint8Array): Promise<ZipEntry[]> {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (dv.getUint32(i, true) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a ZIP archive (no end-of-central-directory record)');
  const count = dv.getUint16(eocd + 10, true);
  let p = dv.getUint32(eocd + 16, true);
  if (count === 0xffff || p === 0xffffffff) throw new Error('ZIP64 archives are not supported');
  const out: ZipEntry[] = [];
  for (let k = 0; k < count; k++) {
    if (p + 46 > bytes.length || dv.getUint32(p, true) !== CDIR) throw new Error(`broken central directory at entry ${k + 1}`);
    const flags = dv.getUint16(p + 8, true);
    const method = dv.getUint16(p + 10, true);
    const csize = dv.getUint32(p + 20, true);
    const nameLen = dv.getUint16(p + 28, true);
    const extraLen = dv.getUint16(p + 30, true);
    const commentLen = dv.getUint16(p + 32, true);
    const local = dv.getUint32(p + 42, true);
    // Some Windows tools write `sub\res_img_1.txt`: read backslashes as folder separators.
    const name = decodeText(bytes.subarray(p + 46, p + 46 + nameLen)).replace(/\\/g, '/');
    p += 46 + nameLen + extraLen + commentLen;
    if (name.endsWith('/')) continue;
    if (flags & 1) throw new Error(`${name}: encrypted entries are not supported`);
    if (local + 30 > bytes.length || dv.getUint32(local, true) !== LOCAL) throw new Error(`${name}: broken local header`);
    const start = local + 30 + dv.getUint16(local + 26, true) + dv.getUint16(local + 28, true);
    const raw = bytes.subarray(start, start + csize);
    if (raw.length !== csize) throw new Error(`${name}: truncated`);
    if (method === 0) out.push({ name, data: raw });
    else if (method === 8) out.push({ name, data: await inflateRaw(raw, name) });
    else throw new Error(`${name}: compression method ${method} is not supported (only stored and deflate)`);
  }
  return out;
}

async function inflateRaw(data: Uint8Array, name: string): Promise<Uint8Array> {
  try {
    return await throughStream(new DecompressionStream('deflate-raw'), data);
  } catch (e) {
    throw new Error(`${name}: cannot inflate (${(e as Error).message})`);
  }
}
