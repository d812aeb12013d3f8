/**
 * A small least-recently-used map. Thumbnails are object URLs, which hold memory until revoked,
 * so eviction calls `onEvict` (the loader revokes the URL there).
 */
export class LruCache<K, V> {
  private readonly map = new Map<K, V>();

  constructor(
    readonly capacity: number,
    private readonly onEvict: (key: K, value: V) => void = () => {},
  ) {}

  get size(): number {
    return this.map.size;
  }

  /** Returns the value and marks it most recently used. */
  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      // Map keeps insertion order: re-inserting moves the key to the "newest" end.
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  set(key: K, value: V): void {
    const old = this.map.get(key);
    if (old !== undefined) {
      this.map.delete(key);
      if (old !== value) this.onEvict(key, old);
    }
    this.map.set(key, value);
    while (this.map.size > this.capacity) {
      const [oldestKey, oldest] = this.map.entries().next().value as [K, V];
      this.map.delete(oldestKey);
      this.onEvict(oldestKey, oldest);
    }
  }

  clear(): void {
    for (const [k, v] of this.map) this.onEvict(k, v);
    this.map.clear();
  }
}
