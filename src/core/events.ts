// A minimal event emitter, so the core can announce changes without importing `vscode`.
// The UI adapts it to `vscode.Event` where an API needs one.

export type Listener<T> = (value: T) => void;

export interface Disposable {
  dispose(): void;
}

export class Emitter<T> {
  private readonly listeners = new Set<Listener<T>>();

  /**
   * `onListenerError`: where a listener's exception goes — the owner's log. Without one it goes to the
   * console (the extension host's log), never nowhere.
   */
  constructor(
    private readonly onListenerError: (error: unknown) => void = (error) =>
      console.error('[Agent Edit Guard] an event listener failed:', error),
  ) {}

  /** Subscribe; the returned handle unsubscribes. */
  readonly event = (listener: Listener<T>): Disposable => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      // one failing listener must not keep the others (or the gate) from running
      try {
        listener(value);
      } catch (e) {
        this.onListenerError(e);
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
