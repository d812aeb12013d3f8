/**
 * The one interface through which the core reads user files. The browser (directory handles,
 * dropped entries, <input webkitdirectory>), Node (node:fs) and tests (in-memory maps) each
 * implement it; the core never sees a File, a FileSystemHandle or a node:fs call.
 */
export interface FileEntry {
  /** '/'-separated, relative to the source root, no leading './' or '/'. */
  path: string;
  size: number;
}

export interface FileSource {
  /** The folder (or file) name the user chose; used for default model names and messages. */
  readonly label: string;
  list(): readonly FileEntry[];
  /** Whole file. Rejects with an Error naming the path when the file cannot be read. */
  read(path: string): Promise<Uint8Array>;
  /** Bytes [start, end) — image headers are read this way without loading whole images. */
  readRange?(path: string, start: number, end: number): Promise<Uint8Array>;
  /** Chunks of the file in order, so a 1 GB JSONL never sits in memory at once. */
  stream?(path: string): AsyncIterable<Uint8Array>;
  /** What listing the source skipped and why (a symbolic link out of the folder); shown as warnings. */
  readonly warnings?: readonly string[];
}

/** A FileSource over an in-memory map; used by tests and by the generated demo data. */
export class MemorySource implements FileSource {
  private readonly files = new Map<string, Uint8Array>();
  constructor(
    readonly label: string,
    files: Record<string, Uint8Array | string> | Map<string, Uint8Array | string> = {},
  ) {
    const entries = files instanceof Map ? [...files.entries()] : Object.entries(files);
    for (const [p, v] of entries) this.set(p, v);
  }
  set(path: string, content: Uint8Array | string): void {
    this.files.set(normalizePath(path), typeof content === 'string' ? new TextEncoder().encode(content) : content);
  }
  list(): FileEntry[] {
    return [...this.files.entries()].map(([path, b]) => ({ path, size: b.byteLength }));
  }
  async read(path: string): Promise<Uint8Array> {
    const b = this.files.get(normalizePath(path));
    if (!b) throw new Error(`${path}: no such file`);
    return b;
  }
  async readRange(path: string, start: number, end: number): Promise<Uint8Array> {
    return (await this.read(path)).subarray(start, end);
  }
}

/** A view of a sub-folder of another source, with paths relative to that sub-folder. */
export function subSource(src: FileSource, dir: string, label?: string): FileSource {
  const prefix = dir === '' ? '' : normalizePath(dir) + '/';
  const inner = (p: string) => prefix + p;
  const listing = src
    .list()
    .filter((e) => e.path.startsWith(prefix))
    .map((e) => ({ path: e.path.slice(prefix.length), size: e.size }));
  return {
    label: label ?? (dir === '' ? src.label : basename(dir)),
    list: () => listing,
    read: (p) => src.read(inner(p)),
    readRange: src.readRange ? (p, s, e) => src.readRange!(inner(p), s, e) : undefined,
    stream: src.stream ? (p) => src.stream!(inner(p)) : undefined,
  };
}

/** A source holding exactly one file of another source (a `--pred file` on the command line). */
export function singleFileSource(src: FileSource, path: string): FileSource {
  const entry = src.list().find((e) => e.path === path);
  if (!entry) throw new Error(`${path}: no such file`);
  const name = basename(path);
  return {
    label: name,
    list: () => [{ path: name, size: entry.size }],
    read: () => src.read(path),
    readRange: src.readRange ? (_p, s, e) => src.readRange!(path, s, e) : undefined,
    stream: src.stream ? () => src.stream!(path) : undefined,
  };
}

export function normalizePath(p: string): string {
  return p.replace(/\\/g, '/').replace(/^\.\//, '').replace(/^\/+/, '').replace(/\/+/g, '/').replace(/\/$/, '');
}

export function basename(p: string): string {
  const n = normalizePath(p);
  const i = n.lastIndexOf('/');
  return i < 0 ? n : n.slice(i + 1);
}

export function dirname(p: string): string {
  const n = normalizePath(p);
  const i = n.lastIndexOf('/');
  return i < 0 ? '' : n.slice(0, i);
}

/** File name without its last extension: `img_1.jpg` → `img_1`. */
export function stem(p: string): string {
  const b = basename(p);
  const i = b.lastIndexOf('.');
  return i <= 0 ? b : b.slice(0, i);
}

export function joinPath(...parts: string[]): string {
  return normalizePath(parts.filter((p) => p !== '').join('/'));
}

/** Files directly or indirectly under `dir` ('' = everything). */
export function filesUnder(src: FileSource, dir: string): FileEntry[] {
  const prefix = dir === '' ? '' : normalizePath(dir) + '/';
  return src.list().filter((e) => e.path.startsWith(prefix));
}

/**
 * An index from file name (and stem) to paths, for "resolve against the image folder, else match
 * by file name anywhere under the dropped folder".
 */
export class NameIndex {
  private readonly byName = new Map<string, string[]>();
  private readonly byStem = new Map<string, string[]>();
  constructor(paths: Iterable<string>) {
    for (const p of paths) {
      push(this.byName, basename(p), p);
      push(this.byStem, stem(p), p);
    }
  }
  byFileName(name: string): string | undefined {
    return this.byName.get(basename(name))?.[0];
  }
  byFileStem(name: string): string | undefined {
    return this.byStem.get(stem(name))?.[0];
  }
}

function push(m: Map<string, string[]>, k: string, v: string) {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
}

export const IMAGE_EXTENSIONS = /\.(jpe?g|png|gif|bmp|webp|tiff?)$/i;
