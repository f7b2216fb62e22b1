// One critical section per key (file): check-and-write of one call completes before the next
// call on the same file starts its check (docs/design.md §Rules, rule 9).

export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, body: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    try {
      return await body();
    } finally {
      release();
      // drop the entry when nobody queued behind us, so the map does not grow with every file
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
