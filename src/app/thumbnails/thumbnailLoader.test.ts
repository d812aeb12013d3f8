import { describe, expect, it } from 'vitest';
import { LruCache } from './lru';
import { ThumbnailLoader, type Thumb } from './thumbnailLoader';

describe('LruCache', () => {
  it('evicts the least recently used entry and reports it', () => {
    const evicted: string[] = [];
    const c = new LruCache<string, number>(2, (k) => evicted.push(k));
    c.set('a', 1);
    c.set('b', 2);
    c.get('a'); // a is now newer than b
    c.set('c', 3);
    expect(evicted).toEqual(['b']);
    expect(c.has('a') && c.has('c')).toBe(true);
    c.clear();
    expect(evicted.sort()).toEqual(['a', 'b', 'c']);
    expect(c.size).toBe(0);
  });
});

/** A loader over fake I/O where the test decides when each decode finishes. */
function harness(files: Record<string, string>, opts = { concurrency: 2, capacity: 3 }) {
  const decodes: { path: string; signal: AbortSignal; finish: () => void }[] = [];
  const revoked: string[] = [];
  const loader = new ThumbnailLoader(
    {
      loadImage: async (path) => (path in files ? new Blob([files[path]]) : null),
      decode: (blob, width, signal) =>
        new Promise<Blob>((resolve, reject) => {
          void blob.text().then((path) => decodes.push({ path, signal, finish: () => resolve(new Blob([`${path}@${width}`])) }));
          signal.addEventListener('abort', () => reject(new Error('aborted')));
        }),
      createUrl: (b) => `blob:${(b as Blob & { size: number }).size}:${Math.random()}`,
      revokeUrl: (u) => revoked.push(u),
    },
    { width: 96, ...opts },
  );
  return { loader, decodes, revoked };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('ThumbnailLoader', () => {
  it('decodes a few at a time, newest first, and caches the result', async () => {
    const files = Object.fromEntries(['p1', 'p2', 'p3', 'p4'].map((p) => [p, p]));
    const { loader, decodes } = harness(files);
    const got: Record<string, Thumb> = {};
    for (const p of ['p1', 'p2', 'p3', 'p4']) loader.request(p, (t) => (got[p] = t));
    await tick();
    // p1 and p2 started at once (concurrency 2); p4 is next because it was asked for last.
    expect(decodes.map((d) => d.path)).toEqual(['p1', 'p2']);
    decodes[0].finish();
    await tick();
    await tick();
    expect(got.p1.kind).toBe('ok');
    expect(decodes.map((d) => d.path)).toEqual(['p1', 'p2', 'p4']);
    expect(loader.peek('p1')).toBe(got.p1);
    let again: Thumb | undefined;
    loader.request('p1', (t) => (again = t));
    expect(again).toBe(got.p1); // synchronously from the cache
  });

  it('drops a queued request when its tile scrolls away, and aborts one already decoding', async () => {
    const files = { a: 'a', b: 'b', c: 'c' };
    const { loader, decodes } = harness(files, { concurrency: 1, capacity: 10 });
    const seen: string[] = [];
    const cancelA = loader.request('a', () => seen.push('a'));
    const cancelB = loader.request('b', () => seen.push('b'));
    loader.request('c', () => seen.push('c'));
    await tick();
    expect(decodes.map((d) => d.path)).toEqual(['a']);
    cancelB(); // never started: it simply leaves the queue
    cancelA(); // started: its decode is aborted
    expect(decodes[0].signal.aborted).toBe(true);
    await tick();
    await tick();
    expect(decodes.map((d) => d.path)).toEqual(['a', 'c']);
    decodes[1].finish();
    await tick();
    expect(seen).toEqual(['c']);
    expect(loader.stats.cancelled).toBe(2);
  });

  it('keeps a shared request alive while one of its tiles still wants it', async () => {
    const { loader, decodes } = harness({ x: 'x' });
    const seen: string[] = [];
    const c1 = loader.request('x', () => seen.push('first'));
    loader.request('x', () => seen.push('second'));
    await tick();
    c1();
    expect(decodes[0].signal.aborted).toBe(false);
    decodes[0].finish();
    await tick();
    expect(seen).toEqual(['second']);
  });

  it('reports a missing image without decoding, and a decode failure as an error', async () => {
    const l = new ThumbnailLoader(
      { loadImage: async (p) => (p === 'bad' ? new Blob(['x']) : null), decode: async () => Promise.reject(new Error('not an image')), createUrl: () => 'u', revokeUrl: () => {} },
      { width: 64 },
    );
    const got: Thumb[] = [];
    l.request('nope.jpg', (t) => got.push(t));
    l.request('bad', (t) => got.push(t));
    await tick();
    await tick();
    expect(got).toContainEqual({ kind: 'missing' });
    expect(got).toContainEqual({ kind: 'error', message: 'not an image' });
  });

  it('revokes object URLs it evicts and on dispose', async () => {
    const files = { a: 'a', b: 'b' };
    const { loader, decodes, revoked } = harness(files, { concurrency: 2, capacity: 1 });
    loader.request('a', () => {});
    loader.request('b', () => {});
    await tick();
    decodes.forEach((d) => d.finish());
    await tick();
    await tick();
    expect(revoked).toHaveLength(1);
    loader.dispose();
    expect(revoked).toHaveLength(2);
  });
});
