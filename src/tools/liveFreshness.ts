// Keeps the mark store's idea of each seen file's current text up to date between tool calls, so
// the status bar turns "stale" as soon as the user types or the file changes on disk.
import * as vscode from 'vscode';
import { Emitter } from '../core/events';
import { sha256 } from '../core/hash';
import type { MarkStore } from '../core/marks';
import type { WorkspaceDocuments } from './documents';

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
    private readonly documents: WorkspaceDocuments,
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
    this.timers.set(key, setTimeout(() => void this.refresh(uri, key), DELAY_MS));
  }

  private async refresh(uri: vscode.Uri, key: string): Promise<void> {
    this.timers.delete(key);
    const doc = this.documents.find(key);
    if (doc) {
      // an open document is the file's text; a disk change reaches it as a document change too
      this.store.observe(key, this.documents.hashOf(doc));
      return;
    }
    // a file no editor holds: its disk bytes are its text
    try {
      const bytes = await vscode.workspace.fs.readFile(uri);
      this.store.observe(key, sha256(new TextDecoder('utf-8').decode(bytes)));
    } catch {
      this.store.observe(key, 'deleted');
    }
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.touched.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
