/**
 * FileSource over node:fs, for the CLI and the tests: lists a folder once, reads lazily.
 *
 * What the walk does with what it meets, so that a file-system problem is one line and never a
 * stack trace, and nothing outside the folder is read:
 * - dot-files and dot-folders (.git, .DS_Store) are skipped: never benchmark data;
 * - FIFOs, sockets and devices are skipped (reading a FIFO would block for ever);
 * - a symbolic link is followed when its target lies inside the folder (an `images` link to a
 *   sibling folder of the dataset); one pointing outside, dangling, or back to a folder already
 *   walked is skipped and named in `warnings`;
 * - a folder or file that cannot be read (EACCES, EIO …) is an InputError naming it and why.
 * Only listed paths are read: a path built from a GT line (`../../etc/passwd`) is "no such file".
 *
 * Whole files and ranges are read with the synchronous calls: the CLI has nothing else to do
 * meanwhile, and a promise read of a big file goes back and forth through the thread pool in
 * 512 KiB pieces (a FileHandle per image-header read costs more than the read itself).
 */
import { closeSync, createReadStream, openSync, readdirSync, readFileSync, readSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import { basename, join, relative, sep, isAbsolute } from 'node:path';
import type { FileEntry, FileSource } from '../src/core/io/fileSource';
import { InputError } from '../src/core/model';

/** The node:fs calls the walk makes, replaceable in tests. */
export interface WalkFs {
  readdirSync(dir: string): Dirent[];
  statSync(path: string): Stats;
  realpathSync(path: string): string;
}

const realFs: WalkFs = {
  readdirSync: (dir) => readdirSync(dir, { withFileTypes: true }),
  statSync: (p) => statSync(p),
  realpathSync: (p) => realpathSync(p),
};

/** "permission denied" for EACCES, the code alone for others, the message when there is no code. */
export function fsReason(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    ENOENT: 'no such file or folder',
    ENOTDIR: 'not a folder',
    EISDIR: 'a folder, not a file',
    EIO: 'input/output error',
    ELOOP: 'too many levels of symbolic links',
    EMFILE: 'too many open files',
  };
  return err?.code ? (words[err.code] ?? err.code) : String(err?.message ?? e);
}

export type NodeSource = FileSource & { readonly warnings: readonly string[] };

/** What kind of non-file a Stats is, for messages ("a FIFO"). */
export function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isDirectory()) return 'a folder';
  return 'not a regular file';
}

export function nodeFolderSource(root: string, fs: WalkFs = realFs): NodeSource {
  const entries: FileEntry[] = [];
  const warnings: string[] = [];
  let realRoot: string;
  try {
    realRoot = fs.realpathSync(root);
  } catch (e) {
    throw new InputError(`${root}: cannot read (${fsReason(e)})`);
  }
  const inside = (real: string) => {
    const r = relative(realRoot, real);
    return r === '' || (!r.startsWith('..') && !isAbsolute(r));
  };
  const seen = new Set<string>([realRoot]);
  const rel = (full: string) => relative(root, full).split(sep).join('/');
  /** `real`: the folder's real path, so that a link back to it (a loop) is recognised. */
  const walk = (dir: string, real: string) => {
    let list: Dirent[];
    try {
      list = fs.readdirSync(dir);
    } catch (e) {
      throw new InputError(`${dir === root ? root : `${root}: folder ${rel(dir)}`}: cannot read (${fsReason(e)})`);
    }
    for (const d of list) {
      if (d.name.startsWith('.')) continue; // .git, .DS_Store: never benchmark data
      const full = join(dir, d.name);
      if (d.isDirectory()) {
        seen.add(join(real, d.name));
        walk(full, join(real, d.name));
      } else if (d.isFile()) {
        add(full);
      } else if (d.isSymbolicLink()) {
        let target: string;
        let st: Stats;
        try {
          target = fs.realpathSync(full);
          st = fs.statSync(target);
        } catch {
          warnings.push(`${rel(full)}: a symbolic link to nothing readable (skipped)`);
          continue;
        }
        if (!inside(target)) {
          warnings.push(`${rel(full)}: a symbolic link to ${target}, outside ${basename(root)} (skipped: nothing outside the folder is read)`);
        } else if (st.isDirectory()) {
          if (seen.has(target)) {
            warnings.push(`${rel(full)}: a symbolic link to a folder read already (skipped)`);
          } else {
            seen.add(target);
            walk(full, target);
          }
        } else if (st.isFile()) {
          entries.push({ path: rel(full), size: st.size });
        }
      }
      // FIFOs, sockets, devices: not files a benchmark holds, and a FIFO would block the read.
    }
  };
  const add = (full: string) => {
    try {
      entries.push({ path: rel(full), size: fs.statSync(full).size });
    } catch (e) {
      throw new InputError(`${root}: ${rel(full)}: cannot read (${fsReason(e)})`);
    }
  };
  walk(root, realRoot);
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { ...fileReader(basename(root), entries, (p) => join(root, ...p.split('/'))), warnings };
}

/**
 * A source holding exactly the file `file` (a `--pred FILE`): its folder is never listed, so a
 * file beside it (or a 100,000-file folder around it) costs nothing and is never read.
 */
export function nodeFileSource(file: string): NodeSource {
  let st: Stats;
  try {
    st = statSync(file);
  } catch (e) {
    throw new InputError(`${file}: cannot read (${fsReason(e)})`);
  }
  if (!st.isFile()) throw new InputError(`${file}: ${kindOf(st)}, not a file`);
  const name = basename(file);
  return { ...fileReader(name, [{ path: name, size: st.size }], () => file), warnings: [] };
}

/** read / readRange / stream over listed paths; errors are InputErrors naming the path. */
function fileReader(label: string, entries: FileEntry[], abs: (p: string) => string): FileSource {
  const listed = new Set(entries.map((e) => e.path));
  const check = (p: string) => {
    if (!listed.has(p)) throw new Error(`${p}: no such file`);
    return abs(p);
  };
  const failed = (p: string, e: unknown) => (e instanceof InputError || (e as Error).message?.endsWith('no such file') ? e : new InputError(`${p}: cannot read (${fsReason(e)})`));
  return {
    label,
    list: () => entries,
    // A plain Uint8Array over the Buffer's memory when the file has an ArrayBuffer of its own
    // (every file over a few KiB): no copy, and no Buffer semantics (a Buffer's slice() is a
    // view) leak into the core. A small file may sit in Node's shared pool: that one is copied,
    // so `.buffer` is only ever the file.
    read: async (p) => {
      try {
        const b = readFileSync(check(p));
        return b.byteOffset === 0 && b.buffer.byteLength === b.byteLength ? new Uint8Array(b.buffer) : new Uint8Array(b);
      } catch (e) {
        throw failed(p, e);
      }
    },
    readRange: async (p, start, end) => {
      try {
        const fd = openSync(check(p), 'r');
        try {
          const buf = new Uint8Array(Math.max(0, end - start));
          const bytesRead = readSync(fd, buf, 0, buf.length, start);
          return bytesRead === buf.length ? buf : buf.subarray(0, bytesRead);
        } finally {
          closeSync(fd);
        }
      } catch (e) {
        throw failed(p, e);
      }
    },
    stream: (p) => ({
      async *[Symbol.asyncIterator]() {
        try {
          yield* createReadStream(check(p), { highWaterMark: 1 << 20 }) as AsyncIterable<Uint8Array>;
        } catch (e) {
          throw failed(p, e);
        }
      },
    }),
  };
}
