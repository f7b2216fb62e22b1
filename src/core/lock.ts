// One critical section per key (file): check-and-write of one call completes before the next
// call on the same file starts its check (docs/design.md §Rules, rule 9).

export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, body: () => Promise<T>): Promise<T> {
    const done = await this.runWithin(key, Infinity, body);
    // without a deadline the turn always comes
    return (done as { ran: true; value: T }).value;
  }

  /**
   * `body` in the key's critical section, if its turn comes before `deadline` (ms since the epoch);
   * else `{ ran: false }`, and the place in the queue is given up (those behind wait only for those before).
   */
  async runWithin<T>(key: string, deadline: number, body: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    // drop the entry when nobody queued behind us, so the map does not grow with every file
    const forget = () => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
    if (!(await turnComes(previous, deadline))) {
      release();
      void tail.then(forget);
      return { ran: false };
    }
    try {
      return { ran: true, value: await body() };
    } finally {
      release();
      forget();
    }
  }
}

/** Resolves `true` when `previous` settles, `false` when `deadline` passes first. */
function turnComes(previous: Promise<void>, deadline: number): Promise<boolean> {
  if (deadline === Infinity) return previous.then(() => true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
    void previous.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
