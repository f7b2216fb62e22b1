// The one bounded map every cache and per-chat map uses: a Map that forgets its least recently used
// entry once it holds `max`. A Map keeps insertion order, so moving an entry to the end on each use
// makes the first entry the least recently used — the whole of an LRU, in a few lines (a library
// would add ~20 KB to a bundle every VS Code window loads at startup).
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`a bounded map holds at least one entry, not ${max}`);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key) as V;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** The value, without counting as a use: a look (a label drawn) must not keep an entry alive. */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** Sets the value as the most recently used; the least recently used entry goes when over `max`. */
  set(key: K, value: V): this {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as K);
    return this;
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  /** Every entry, least recently used first: `set` in this order rebuilds the same map (a saved state's order). */
  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries.entries();
  }
}
