/**
 * Turns a Listing posted from the page into the core's FileSource. Handles are resolved to File
 * snapshots once (metadata only: getFile() does not read the bytes); bytes are read lazily with
 * File.slice (image headers, ranges) and file.stream() (large JSONL), so opening a 20,000-image
 * folder reads nothing but the annotation files.
 */
import type { FileEntry, FileSource } from '../core';
import { normalizePath } from '../core';
import type { Listing } from '../io/listing';

const RESOLVE_BATCH = 256;

export async function listingSource(listing: Listing): Promise<FileSource> {
  const files = new Map<string, File>();
  for (let i = 0; i < listing.files.length; i += RESOLVE_BATCH) {
    const batch = listing.files.slice(i, i + RESOLVE_BATCH);
    const resolved = await Promise.all(batch.map((f) => (f.file instanceof Blob ? f.file : (f.file as FileSystemFileHandle).getFile())));
    batch.forEach((f, j) => files.set(normalizePath(f.path), resolved[j] as File));
  }
  return fileMapSource(listing.label, files);
}

export function fileMapSource(label: string, files: Map<string, File>): FileSource {
  const entries: FileEntry[] = [...files.entries()].map(([path, f]) => ({ path, size: f.size }));
  const get = (path: string): File => {
    const f = files.get(normalizePath(path));
    if (!f) throw new Error(`${path}: no such file in "${label}"`);
    return f;
  };
  return {
    label,
    list: () => entries,
    async read(path) {
      try {
        return new Uint8Array(await get(path).arrayBuffer());
      } catch (e) {
        throw new Error(`${path}: could not be read (${(e as Error).message})`);
      }
    },
    async readRange(path, start, end) {
      return new Uint8Array(await get(path).slice(start, end).arrayBuffer());
    },
    stream(path) {
      return streamChunks(get(path));
    },
  };
}

/**
 * A file in 4 MiB slices. File.stream() hands out 64 KiB chunks; bigger slices mean fewer awaits
 * and fewer lines cut in two, and the bytes are still never all in memory at once.
 */
const SLICE = 4 << 20;

async function* streamChunks(file: File): AsyncIterable<Uint8Array> {
  for (let at = 0; at < file.size; at += SLICE) yield new Uint8Array(await file.slice(at, at + SLICE).arrayBuffer());
}
