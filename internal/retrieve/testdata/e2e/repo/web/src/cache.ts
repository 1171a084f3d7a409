/**
 * A least-recently-used cache: a Map keeps insertion order, so the first
 * key is the least recently used one as long as every use re-inserts it.
 */
export class LruCache<K, V> {
  private readonly items = new Map<K, V>();

  constructor(private readonly capacity: number) {
    if (capacity < 1) throw new RangeError("capacity must be at least 1");
  }

  get(key: K): V | undefined {
    return this.items.get(key);
  }

  set(key: K, value: V): void {
    this.items.delete(key);
    this.items.set(key, value);
    this.evict();
  }

  has(key: K): boolean {
    return this.items.has(key);
  }

  get size(): number {
    return this.items.size;
  }

  private evict(): void {
    while (this.items.size > this.capacity) {
      const oldest = this.items.keys().next().value as K;
      this.items.delete(oldest);
    }
  }
}
