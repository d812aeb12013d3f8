/**
 * A content fingerprint of a prediction set, so the page can say "this file is identical to one
 * already loaded" whatever its name. 64-bit FNV-1a over the bytes of every file of the set (for a
 * folder set also its files' relative paths, sorted; a single file's name is left out). Sets up to FULL_HASH_MAX bytes are hashed whole
 * (streamed); a bigger one by its size and its first and last SAMPLE bytes — said as "sampled"
 * so the page does not claim more than was compared.
 */
import type { FileEntry, FileSource } from '../core/io/fileSource';

export const FULL_HASH_MAX = 256 * 1024 * 1024;
export const SAMPLE = 1024 * 1024;

export interface PredictionFingerprint {
  hash: string;
  /** false when only the size and samples of a big set were hashed. */
  full: boolean;
}

class Fnv64 {
  private h1 = 0x811c9dc5;
  private h2 = 0x01000193 ^ 0x5bd1e995;
  bytes(b: Uint8Array): void {
    let h1 = this.h1;
    let h2 = this.h2;
    for (let i = 0; i < b.length; i++) {
      h1 = Math.imul(h1 ^ b[i], 0x01000193);
      h2 = Math.imul(h2 ^ b[i], 0x5bd1e995) ^ (h1 >>> 13);
    }
    this.h1 = h1;
    this.h2 = h2;
  }
  text(s: string): void {
    this.bytes(new TextEncoder().encode(`${s}\u0000`));
  }
  digest(): string {
    return (this.h1 >>> 0).toString(16).padStart(8, '0') + (this.h2 >>> 0).toString(16).padStart(8, '0');
  }
}

export async function predictionFingerprint(src: FileSource, files: readonly FileEntry[], signal?: AbortSignal): Promise<PredictionFingerprint> {
  const list = [...files].filter((f) => !f.path.split('/').some((seg) => seg.startsWith('.'))).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const total = list.reduce((n, f) => n + f.size, 0);
  const full = total <= FULL_HASH_MAX || !src.readRange;
  const h = new Fnv64();
  for (const f of list) {
    signal?.throwIfAborted();
    // A folder set's file names are part of its content (res_img_1.txt is image 1); a single
    // file's own name is not — a renamed copy is the same predictions.
    h.text(list.length > 1 ? `${f.path}:${f.size}` : String(f.size));
    if (full) {
      if (src.stream) for await (const chunk of src.stream(f.path)) h.bytes(chunk);
      else h.bytes(await src.read(f.path));
    } else {
      h.bytes(await src.readRange!(f.path, 0, Math.min(f.size, SAMPLE)));
      h.bytes(await src.readRange!(f.path, Math.max(0, f.size - SAMPLE), f.size));
    }
  }
  return { hash: h.digest(), full };
}
