/**
 * FileSource over node:fs, for the CLI and the tests: lists a folder once, reads lazily.
 * Whole files and ranges are read with the synchronous calls: the CLI has nothing else to do
 * meanwhile, and a promise read of a big file goes back and forth through the thread pool in
 * 512 KiB pieces (a FileHandle per image-header read costs more than the read itself).
 */
import { closeSync, createReadStream, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import type { FileEntry, FileSource } from '../src/core/io/fileSource';

export function nodeFolderSource(root: string): FileSource {
  const entries: FileEntry[] = [];
  const walk = (dir: string) => {
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      if (d.name.startsWith('.')) continue; // .git, .DS_Store: never benchmark data
      const full = join(dir, d.name);
      if (d.isDirectory()) walk(full);
      else if (d.isFile() || d.isSymbolicLink()) {
        try {
          const st = statSync(full);
          if (st.isFile()) entries.push({ path: relative(root, full).split(sep).join('/'), size: st.size });
        } catch {
          /* a dangling link: not a file we can read */
        }
      }
    }
  };
  walk(root);
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const abs = (p: string) => join(root, ...p.split('/'));
  return {
    label: basename(root),
    list: () => entries,
    // A plain Uint8Array over the Buffer's memory when the file has an ArrayBuffer of its own
    // (every file over a few KiB): no copy, and no Buffer semantics (a Buffer's slice() is a
    // view) leak into the core. A small file may sit in Node's shared pool: that one is copied,
    // so `.buffer` is only ever the file.
    read: async (p) => {
      const b = readFileSync(abs(p));
      return b.byteOffset === 0 && b.buffer.byteLength === b.byteLength ? new Uint8Array(b.buffer) : new Uint8Array(b);
    },
    readRange: async (p, start, end) => {
      const fd = openSync(abs(p), 'r');
      try {
        const buf = new Uint8Array(Math.max(0, end - start));
        const bytesRead = readSync(fd, buf, 0, buf.length, start);
        return bytesRead === buf.length ? buf : buf.subarray(0, bytesRead);
      } finally {
        closeSync(fd);
      }
    },
    stream: (p) => createReadStream(abs(p), { highWaterMark: 1 << 20 }) as AsyncIterable<Uint8Array>,
  };
}
