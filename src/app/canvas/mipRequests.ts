/**
 * The page's side of the image-copies worker (mipLevels.worker.ts): which decoded images may have
 * copies made, who is showing each, and the requests in flight.
 *
 * A request goes out only when a pane asks for an image's copies (not when it is decoded: an
 * image decoded for a case the user has already left is never shown), and it is cancelled when
 * the last pane showing that image lets go of it — paging through cases with the arrow key used
 * to leave one 12-MP decode and resize per case running in the worker, all at the same time, for
 * images nobody would see, on the cores the page draws with. Panes share an image (side by side),
 * so panes are counted. Copies already made stay with their image (a pane showing it again gets
 * them at once).
 */
import type { MipLevel } from './mipLevels';
import type { MipMessage, MipReply } from './mipLevels.worker';

/** What a pane gets: the copies, or null once it is known they will not come from the worker. */
export type Copies = Promise<MipLevel[] | null>;

type Entry = {
  /** The file's bytes, until the outcome is known (then let go: a few MB per image). */
  blob: Blob | null;
  /** Panes that asked and have not let go. */
  users: number;
  /** The copies asked for: in flight while `id` is set, else the outcome, kept (null: no worker, or it failed). */
  copies?: Copies;
  /** The request in flight. */
  id?: number;
};

/** The worker's port as this needs it (a Worker; a fake in unit tests). */
export interface MipPort {
  postMessage(m: MipMessage): void;
  onmessage: ((e: MessageEvent<MipReply>) => void) | null;
  onerror: ((e: ErrorEvent) => void) | null;
}

export class MipRequests {
  /**
   * For tests: requests sent; cancelled before their copies came; answered with copies while
   * still wanted; answered with copies after all (the worker had finished before the cancel
   * reached it).
   */
  readonly stats = { asked: 0, cancelled: 0, made: 0, late: 0 };
  private entries = new WeakMap<object, Entry>();
  private port: MipPort | null | undefined;
  private nextId = 1;
  private waiting = new Map<number, (levels: MipLevel[] | null) => void>();

  /** `spawn` starts the worker on first use; null or a throw: no worker (panes make the copies). */
  constructor(private spawn: () => MipPort | null) {}

  /** `image` (decoded from `blob`) may have copies made from the same bytes in the worker. */
  register(image: object, blob: Blob): void {
    this.entries.set(image, { blob, users: 0 });
  }

  /**
   * A pane shows `image`: its copies, asked of the worker unless already made or asked for;
   * undefined for an image not registered. Every call is paired with release().
   */
  ask(image: object): Copies | undefined {
    const e = this.entries.get(image);
    if (!e) return undefined;
    e.users++;
    if (!e.copies && e.blob) {
      const id = (e.id = this.nextId++);
      const blob = e.blob;
      const copies = (e.copies = new Promise((resolve) => this.send(id, blob, resolve)));
      void copies.then(() => {
        // Settled while still asked for (not cancelled): kept for the image.
        if (e.id === id) {
          e.id = undefined;
          e.blob = null;
        }
      });
    }
    return e.copies;
  }

  /** What ask() would give, without asking: for tests. */
  peek(image: object): Copies | undefined {
    return this.entries.get(image)?.copies;
  }

  /** A pane no longer shows `image`: the last one to let go cancels a request still in flight. */
  release(image: object): void {
    const e = this.entries.get(image);
    if (!e || e.users === 0) return;
    if (--e.users > 0 || e.id === undefined) return;
    const id = e.id;
    e.id = undefined;
    e.copies = undefined;
    const resolve = this.waiting.get(id);
    this.waiting.delete(id);
    this.stats.cancelled++;
    this.port?.postMessage({ cancel: id });
    // Nobody awaits it any more; settled so that nothing hangs on it.
    resolve?.(null);
  }

  private send(id: number, blob: Blob, resolve: (levels: MipLevel[] | null) => void): void {
    const port = this.worker();
    if (!port) return resolve(null);
    this.waiting.set(id, resolve);
    this.stats.asked++;
    port.postMessage({ id, blob });
  }

  private worker(): MipPort | null {
    if (this.port !== undefined) return this.port;
    try {
      this.port = this.spawn();
    } catch {
      this.port = null;
    }
    const port = this.port;
    if (!port) return null;
    port.onmessage = (e) => {
      const r = e.data;
      const done = this.waiting.get(r.id);
      this.waiting.delete(r.id);
      if ('levels' in r) {
        // Made before the cancel reached the worker: nobody's, freed now rather than by GC.
        if (done) this.stats.made++;
        else {
          this.stats.late++;
          for (const l of r.levels) l.image.close();
        }
      }
      done?.('levels' in r ? r.levels : null);
    };
    // A worker that fails to start: the panes make every image's copies themselves.
    port.onerror = (e) => {
      e.preventDefault?.();
      console.warn(`benchlens: the image worker failed (${e.message || 'it did not start'}); pre-scaled copies of images are made on the main thread`);
      this.port = null;
      for (const done of this.waiting.values()) done(null);
      this.waiting.clear();
    };
    return port;
  }
}
