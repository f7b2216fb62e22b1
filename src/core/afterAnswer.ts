// Answer first, then tidy (docs/design.md §Layers, "The answer comes first"). An agent waits for the gate's
// answer to each hook event and tool call; the status bar, the views and their labels do not need to be
// current before it. Their refreshes are handed to this queue: held while any answer is being made, run
// once it is out — each refresh once per burst, however many marks and names changed meanwhile. Nothing an
// answer reads is ever put here: the marks, the names and the record of edits change at once, only what
// shows them waits.

/** The longest the surfaces wait behind answers that keep coming (a burst of hook events from several agents). */
export const MAX_TIDY_DELAY_MS = 250;

export class AfterAnswer {
  /** answers being made now */
  private answering = 0;
  /** the refreshes due, in the order first asked for; each at most once */
  private readonly due = new Set<() => void>();
  private scheduled = false;
  private overdue: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly onError: (e: unknown) => void,
    /** when a tidy runs: after the current task and its promise jobs, so an answer written in them goes out first */
    private readonly schedule: (run: () => void) => void = setImmediate,
    /** the bound behind answers that keep coming (`Infinity`: none) */
    private readonly maxDelayMs = MAX_TIDY_DELAY_MS,
  ) {}

  /** Makes an answer: tidying waits until it (and every other answer begun meanwhile) has been given. */
  async answer<T>(make: () => Promise<T>): Promise<T> {
    this.answering++;
    try {
      return await make();
    } finally {
      this.answering--;
      this.kick();
    }
  }

  /** `refresh`, run once after the answers in progress; a refresh already due is not asked twice. */
  later(refresh: () => void): void {
    this.due.add(refresh);
    this.kick();
  }

  /** `refresh` as a function that asks for it `later`: for an event listener. */
  coalesced(refresh: () => void): () => void {
    return () => this.later(refresh);
  }

  private kick(): void {
    if (this.due.size === 0) return;
    if (this.answering > 0) {
      // answers that never stop for long must not leave the surfaces behind for long either
      if (this.overdue === undefined && Number.isFinite(this.maxDelayMs)) {
        this.overdue = setTimeout(() => this.run(true), this.maxDelayMs);
        this.overdue.unref?.();
      }
      return;
    }
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => this.run(false));
  }

  private run(overdue: boolean): void {
    if (!overdue) this.scheduled = false;
    if (this.answering > 0 && !overdue) return; // the answer's end kicks again
    if (this.overdue !== undefined) clearTimeout(this.overdue);
    this.overdue = undefined;
    const refreshes = [...this.due];
    this.due.clear();
    for (const refresh of refreshes) {
      try {
        refresh();
      } catch (e) {
        this.onError(e);
      }
    }
  }

  dispose(): void {
    if (this.overdue !== undefined) clearTimeout(this.overdue);
    this.overdue = undefined;
    this.due.clear();
  }
}
