/** FileSource over node:fs, for the CLI and the tests: lists a folder once, reads lazily. */
import { createReadStream, readdirSync, statSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
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
    read: async (p) => new Uint8Array(await readFile(abs(p))),
    readRange: async (p, start, end) => {
      const fh = await open(abs(p), 'r');
      try {
        const buf = Buffer.alloc(Math.max(0, end - start));
        const { bytesRead } = await fh.read(buf, 0, buf.length, start);
        return new Uint8Array(buf.buffer, buf.byteOffset, bytesRead);
      } finally {
        await fh.close();
      }
    },
    stream: (p) => createReadStream(abs(p), { highWaterMark: 1 << 20 }) as AsyncIterable<Uint8Array>,
  };
}
