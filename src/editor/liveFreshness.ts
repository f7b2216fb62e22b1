// Keeps the mark store's idea of each seen file's current text up to date between tool calls, so
// the status bar turns "stale" as soon as the user types or the file changes on disk.
import * as vscode from 'vscode';
import { Emitter } from '../core/events';
import type { MarkStore } from '../core/marks';
import type { EditorDocuments } from '../core/documents';

const DELAY_MS = 100;

export class LiveFreshness implements vscode.Disposable {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly touched = new Emitter<void>();
  /**
   * A file some chat has seen just changed: marks may have gone stale. Fires at once, before the
   * re-hash updates the store, so API listeners hear of it without delay.
   */
  readonly onDidTouchSeenFile = this.touched.event;

  constructor(
    private readonly store: MarkStore,
    private readonly documents: EditorDocuments,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    this.subscriptions.push(
      watcher,
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document.uri)),
      watcher.onDidChange((uri) => this.schedule(uri)),
      watcher.onDidCreate((uri) => this.schedule(uri)),
      watcher.onDidDelete((uri) => this.schedule(uri)),
    );
  }

  private schedule(uri: vscode.Uri): void {
    const key = uri.toString();
    if (!this.store.tracks(key)) return;
    this.touched.fire();
    // throttled, not debounced: while the user keeps typing the status bar still turns stale
    // within DELAY_MS (the refresh hashes whatever the text is by then)
    if (this.timers.has(key)) return;
    this.timers.set(
      key,
      setTimeout(() => void this.refresh(key), DELAY_MS),
    );
  }

  private async refresh(key: string): Promise<void> {
    this.timers.delete(key);
    // the editor's text if it holds the file (a disk change reaches an open document too), else the
    // disk's as the editor would hold it
    this.store.observe(key, (await this.documents.hashNow(key)) ?? 'deleted');
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.touched.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
