/**
 * Loads thumbnails for the rows on screen only. Tiles subscribe while they are mounted; a request
 * nobody is waiting for any more is dropped before it starts, or cancelled in the decoder when it
 * already runs, so fast scrolling through 25,000 cases never queues 25,000 decodes. The newest
 * request goes first (what the user looks at now), a few at a time. Results live in an LRU.
 *
 * Everything browser-specific (reading the file, decoding, object URLs) is injected, so the
 * scheduling is tested in Node.
 */
import { LruCache } from './lru';

export type Thumb = { kind: 'ok'; url: string } | { kind: 'missing' } | { kind: 'error'; message: string };

export interface ThumbnailDeps {
  /** Reads the image file; null when it is not in the folder. */
  loadImage: (path: string) => Promise<Blob | null>;
  /** Decodes and shrinks off the main thread; rejects with an AbortError when the signal fires. */
  decode: (blob: Blob, width: number, signal: AbortSignal) => Promise<Blob>;
  createUrl: (blob: Blob) => string;
  revokeUrl: (url: string) => void;
}

export interface ThumbnailLoaderOptions {
  width: number;
  concurrency?: number;
  capacity?: number;
}

interface Pending {
  path: string;
  listeners: Set<(t: Thumb) => void>;
  controller: AbortController;
  started: boolean;
}

export class ThumbnailLoader {
  private readonly cache: LruCache<string, Thumb>;
  private readonly pending = new Map<string, Pending>();
  /** Waiting requests, newest last (taken from the end). */
  private queue: Pending[] = [];
  private running = 0;
  readonly width: number;
  private readonly concurrency: number;
  /** Counters for tests and the harness's status line. */
  readonly stats = { started: 0, cancelled: 0, decoded: 0 };

  constructor(
    private readonly deps: ThumbnailDeps,
    { width, concurrency = 4, capacity = 400 }: ThumbnailLoaderOptions,
  ) {
    this.width = width;
    this.concurrency = concurrency;
    this.cache = new LruCache(capacity, (_k, t) => {
      if (t.kind === 'ok') deps.revokeUrl(t.url);
    });
  }

  /** A finished thumbnail, if cached (refreshes its place in the LRU). */
  peek(path: string): Thumb | undefined {
    return this.cache.get(path);
  }

  /**
   * Asks for `path`; `listener` is called once with the result unless the returned function is
   * called first (the tile scrolled away), which also cancels the work if nobody else wants it.
   */
  request(path: string, listener: (t: Thumb) => void): () => void {
    const cached = this.cache.get(path);
    if (cached) {
      listener(cached);
      return () => {};
    }
    let p = this.pending.get(path);
    if (!p) {
      p = { path, listeners: new Set(), controller: new AbortController(), started: false };
      this.pending.set(path, p);
      this.queue.push(p);
    } else if (!p.started) {
      // Wanted again: move it to the front of the line.
      this.queue = this.queue.filter((q) => q !== p);
      this.queue.push(p);
    }
    const entry = p;
    const wrapped = (t: Thumb) => listener(t);
    entry.listeners.add(wrapped);
    this.pump();
    return () => {
      if (!entry.listeners.delete(wrapped) || entry.listeners.size > 0) return;
      this.pending.delete(entry.path);
      this.stats.cancelled++;
      if (entry.started) entry.controller.abort();
      else this.queue = this.queue.filter((q) => q !== entry);
    };
  }

  /** Revokes every URL (when the dataset changes or the browser unmounts). */
  dispose(): void {
    for (const p of this.pending.values()) p.controller.abort();
    this.pending.clear();
    this.queue = [];
    this.cache.clear();
  }

  private pump(): void {
    while (this.running < this.concurrency && this.queue.length > 0) {
      const p = this.queue.pop()!;
      p.started = true;
      this.running++;
      this.stats.started++;
      void this.load(p).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  private async load(p: Pending): Promise<void> {
    const signal = p.controller.signal;
    let result: Thumb;
    try {
      const blob = await this.deps.loadImage(p.path);
      if (signal.aborted) return;
      if (!blob) result = { kind: 'missing' };
      else {
        const small = await this.deps.decode(blob, this.width, signal);
        if (signal.aborted) return;
        this.stats.decoded++;
        result = { kind: 'ok', url: this.deps.createUrl(small) };
      }
    } catch (e) {
      if (signal.aborted) return;
      result = { kind: 'error', message: e instanceof Error ? e.message : String(e) };
    }
    this.cache.set(p.path, result);
    if (this.pending.get(p.path) === p) this.pending.delete(p.path);
    for (const l of p.listeners) l(result);
  }
}
