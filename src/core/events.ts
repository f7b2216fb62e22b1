// A minimal event emitter, so the core can announce changes without importing `vscode`.
// The UI adapts it to `vscode.Event` where an API needs one.

export type Listener<T> = (value: T) => void;

export interface Disposable {
  dispose(): void;
}

export class Emitter<T> {
  private readonly listeners = new Set<Listener<T>>();

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
      } catch {
        /* listeners log their own errors */
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
