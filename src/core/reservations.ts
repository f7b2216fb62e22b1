// Rule 14 (docs/design.md §Rules): a write the gate let through holds its file until it lands. An agent
// that writes the file itself (through its hooks) does so after the gate has answered, so between the
// answer and the write the file still holds the old text; a check of the same file by anyone else in that
// moment would be decided on the old text too, and let through. The reservation names the chat whose
// write is in flight; every other check of the file waits until it is released (the agent's next event
// says the write is done) or its bound passes, then decides on what is there.

/** Whose write holds a file. */
export interface Holder {
  /** the chat the write belongs to (its own later calls never wait for it) */
  session: string;
  /** who writes, as the user knows it ("Claude Code"), for the refusal of a check that could not wait */
  writer: string;
}

/**
 * How long a reservation holds at most. The agent's next event normally ends it within tens of
 * milliseconds of its write; the bound is for a write that never comes (a tool that failed without an
 * event after it). It stays below the hook clients' wait (protocol.ts DEFAULT_BOUND_MS, 4 s), so a
 * waiting hook is answered by the gate, never let through by its client's timeout.
 */
export const RESERVATION_MS = 2500;

interface Reservation extends Holder {
  timer: ReturnType<typeof setTimeout>;
}

export class Reservations {
  /** uri → the write in flight on it */
  private readonly held = new Map<string, Reservation>();
  /** uri → the checks waiting for it to be free */
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(private readonly boundMs = RESERVATION_MS) {}

  /** The write of `holder` is in flight on `uri` from now until `release` or the bound. */
  hold(uri: string, holder: Holder): void {
    this.end(uri);
    const timer = setTimeout(() => this.end(uri), this.boundMs);
    // a reservation never keeps the process alive
    (timer as { unref?: () => void }).unref?.();
    this.held.set(uri, { ...holder, timer });
  }

  /** The write of `session` on `uri` landed (or will not come): the file is free again. */
  release(uri: string, session: string): void {
    if (this.held.get(uri)?.session === session) this.end(uri);
  }

  /** Whether `session`'s own write holds `uri` (a sibling call of one response, where an agent runs them at once). */
  heldBySelf(uri: string, session: string): boolean {
    return this.held.get(uri)?.session === session;
  }

  /** Who holds `uri`, unless it is `session` itself (a chat never waits for its own write). */
  heldByOther(uri: string, session: string): Holder | undefined {
    const r = this.held.get(uri);
    return r && r.session !== session ? { session: r.session, writer: r.writer } : undefined;
  }

  /** Resolves `true` once no other chat holds `uri`, `false` if `deadline` (ms since the epoch) comes first. */
  async whenFree(uri: string, session: string, deadline: number): Promise<boolean> {
    while (this.heldByOther(uri, session)) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        let waiters = this.waiters.get(uri);
        if (!waiters) this.waiters.set(uri, (waiters = new Set()));
        const wake = () => {
          clearTimeout(timer);
          waiters.delete(wake);
          if (waiters.size === 0 && this.waiters.get(uri) === waiters) this.waiters.delete(uri);
          resolve();
        };
        // no deadline: only the reservation's end (its own bound at most) wakes it
        const timer = left === Infinity ? undefined : setTimeout(wake, left);
        waiters.add(wake);
      });
    }
    return true;
  }

  /** How many files are held now (for the tests and the log). */
  get size(): number {
    return this.held.size;
  }

  private end(uri: string): void {
    const r = this.held.get(uri);
    if (!r) return;
    clearTimeout(r.timer);
    this.held.delete(uri);
    for (const wake of [...(this.waiters.get(uri) ?? [])]) wake();
  }
}
