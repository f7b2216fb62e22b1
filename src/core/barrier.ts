// The one round trip to the editor's side that owns the documents, shared (docs/design.md §Layers, *The
// answer comes first*). The workbench handles the extension host's calls in the order they arrive, and sends
// each document change to the extension host as it makes it: when a call of ours comes back, every change the
// workbench made before handling it — the user's keystrokes included — has reached the extension host. So one
// such call, sent after a hook event arrived, brings every document up to date for that event: its loads share
// it, and a second event that arrives before it is sent shares it too. One that arrives after it was sent does
// not — a keystroke the workbench made after handling it would be missing — and gets its own.

/** A time on the clock of `performance.now()`: when a call arrived, or a round trip was sent. */
export type Instant = number;

export class SharedBarrier {
  private last: { sentAt: Instant; answered: Promise<void> } | undefined;
  /** How many round trips were sent: the unit tests count them (test/unit/memoryEditor.ts). */
  sent = 0;

  constructor(
    private readonly roundTrip: () => PromiseLike<unknown>,
    private readonly now: () => Instant = () => performance.now(),
  ) {}

  /**
   * Resolves once every change the editor made before a call arriving at `asOf` (now, by default) has reached the
   * documents here: the last round trip if it was sent at or after `asOf`, else a new one. Never rejects: a round
   * trip that fails has still come back, after the changes sent before its answer.
   */
  pass(asOf: Instant = this.now()): Promise<void> {
    const last = this.last;
    if (last && last.sentAt >= asOf) return last.answered;
    const sentAt = this.now();
    this.sent++;
    const answered = new Promise<unknown>((resolve) => resolve(this.roundTrip())).then(
      () => undefined,
      () => undefined,
    );
    this.last = { sentAt, answered };
    return answered;
  }
}
