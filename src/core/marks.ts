// The mark store: which version of which file each chat has seen (docs/design.md §Names, §Rules).
// Pure data structure: the adapters tell it what was read, written, and what a file's current
// hash is; it answers the gate's questions and announces changes.
// One class over ~250 lines on purpose: its indexes (per chat and file, insertion order, snapshots
// within a byte budget) must change together on every stamp, eviction and clear.
import { Emitter } from './events';
import type { MarkOrigin } from './types';

export interface ReadMark {
  session: string;
  uri: string;
  /** SHA-256 of the whole document text the agent was shown (or wrote). */
  hash: string;
  turn?: string;
  origin: MarkOrigin;
  at: number;
  /** Global insertion order: lets a call count only the marks that existed when it arrived (rule 9). */
  seq: number;
}

/** The exact hash of a file's current text when it is cheap to know (an open document), else `undefined`. */
export type CurrentHash = (uri: string) => string | undefined;

export interface MarkStoreLimits {
  /** All marks over all chats; the oldest go first. */
  maxMarks: number;
  /** History kept per chat and file (older turns of the same file). */
  maxMarksPerFile: number;
  /** Budget for last-seen texts (kept for diffs), counted as UTF-16 bytes; the oldest go first. */
  snapshotBudgetBytes: number;
}

export const DEFAULT_LIMITS: MarkStoreLimits = {
  maxMarks: 10_000,
  maxMarksPerFile: 16,
  snapshotBudgetBytes: 32 * 1024 * 1024,
};

export interface StampInput {
  session: string;
  uri: string;
  hash: string;
  turn?: string;
  origin: MarkOrigin;
  /** The full text the agent saw; kept (within budget) so a later refusal can show a diff. */
  text?: string;
  at?: number;
}

interface Snapshot {
  session: string;
  uri: string;
  hash: string;
  text: string;
}

/**
 * Snapshots are kept per version a chat saw, not just its latest: of N parallel calls based on one
 * read, the refused ones need the text of that read, after the first one's write stamped a newer mark.
 */
const snapshotKey = (session: string, uri: string, hash: string) => `${session}\u0000${uri}\u0000${hash}`;

/** Versions of one file kept per chat: the one it saw last and the one before. */
const SNAPSHOTS_PER_FILE = 2;

export class MarkStore {
  private nextSeq = 1;
  /** session → file → marks, oldest first */
  private readonly bySession = new Map<string, Map<string, ReadMark[]>>();
  /**
   * Every mark in insertion order, to drop the oldest when over `maxMarks`. A plain array with a
   * moving head (removed marks are skipped, and compacted away now and then): a Map's iteration from
   * the front walks over every deleted entry, which made a full store's inserts slow.
   */
  private queue: ReadMark[] = [];
  private head = 0;
  private readonly removed = new WeakSet<ReadMark>();
  private live = 0;
  private readonly snapshots = new Map<string, Snapshot>();
  private snapshotBytes = 0;
  /** Latest known hash of each file's current text (the adapters report it), for freshness. */
  private readonly currentHashes = new Map<string, string>();
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(readonly limits: MarkStoreLimits = DEFAULT_LIMITS) {}

  /** The sequence number the next mark will get: marks below it exist now. */
  get watermark(): number {
    return this.nextSeq;
  }

  get size(): number {
    return this.live;
  }

  get snapshotSize(): number {
    return this.snapshotBytes;
  }

  stamp(input: StampInput): ReadMark {
    const last = this.bySession.get(input.session)?.get(input.uri)?.at(-1);
    if (last && last.hash === input.hash && last.origin === input.origin && last.turn === input.turn) {
      // the same sight again (a re-read, or the refusals of a parallel batch): one mark, not a new one
      // each time, so a burst cannot push older marks that calls in flight still rely on out of the
      // history. Keeping its older `seq` changes no decision: a call that arrived after it already
      // counted the very same (hash, origin, turn).
      last.at = input.at ?? Date.now();
      this.currentHashes.set(last.uri, last.hash);
      if (input.text !== undefined) this.keepSnapshot(last.session, last.uri, last.hash, input.text);
      this.changed.fire();
      return last;
    }
    const mark: ReadMark = {
      session: input.session,
      uri: input.uri,
      hash: input.hash,
      turn: input.turn,
      origin: input.origin,
      at: input.at ?? Date.now(),
      seq: this.nextSeq++,
    };
    let files = this.bySession.get(mark.session);
    if (!files) this.bySession.set(mark.session, (files = new Map()));
    let marks = files.get(mark.uri);
    if (!marks) files.set(mark.uri, (marks = []));
    marks.push(mark);
    this.queue.push(mark);
    this.live++;
    while (marks.length > this.limits.maxMarksPerFile) this.remove(marks[0]);
    while (this.live > this.limits.maxMarks) {
      while (this.removed.has(this.queue[this.head])) this.head++;
      this.remove(this.queue[this.head]);
    }
    // removed marks (evicted, trimmed, cleared) stay in the queue until they outnumber the live ones
    if (this.queue.length > 2 * this.live + 1024) {
      this.queue = this.queue.slice(this.head).filter((m) => !this.removed.has(m));
      this.head = 0;
    }
    // stamping means the text was just observed: it is the file's current text
    this.currentHashes.set(mark.uri, mark.hash);
    if (input.text !== undefined) this.keepSnapshot(mark.session, mark.uri, mark.hash, input.text);
    this.pruneSnapshots(mark.session, mark.uri);
    this.changed.fire();
    return mark;
  }

  /** Newest mark of `session` for `uri` among those with `seq < before` (default: all). */
  newest(session: string, uri: string, before = Infinity): ReadMark | undefined {
    const marks = this.bySession.get(session)?.get(uri);
    if (!marks) return undefined;
    for (let i = marks.length - 1; i >= 0; i--) if (marks[i].seq < before) return marks[i];
    return undefined;
  }

  /** The text of the version `hash` of the file, as the chat saw it, if still kept. */
  snapshot(session: string, uri: string, hash: string): string | undefined {
    return this.snapshots.get(snapshotKey(session, uri, hash))?.text;
  }

  /** Report a file's current hash (after a user edit, a disk change, a load). */
  observe(uri: string, hash: string): void {
    if (this.currentHashes.get(uri) === hash) return;
    if (!this.tracks(uri)) return; // only files some chat has seen matter for freshness
    this.currentHashes.set(uri, hash);
    this.changed.fire();
  }

  /** Has any chat seen this file (so its changes matter)? */
  tracks(uri: string): boolean {
    for (const files of this.bySession.values()) if (files.has(uri)) return true;
    return false;
  }

  /**
   * A mark is fresh when the file's current text still has the mark's hash: the exact hash when
   * `currentHash` knows it (an open document), else the latest one observed.
   */
  isFresh(mark: ReadMark, currentHash?: CurrentHash): boolean {
    const current = currentHash?.(mark.uri) ?? this.currentHashes.get(mark.uri);
    return current === undefined || current === mark.hash;
  }

  /** Every live mark, oldest first. */
  all(): ReadMark[] {
    return this.queue.slice(this.head).filter((m) => !this.removed.has(m));
  }

  sessions(): string[] {
    return [...this.bySession.keys()];
  }

  /** Newest mark per file of one chat. */
  newestPerFile(session: string): ReadMark[] {
    const files = this.bySession.get(session);
    return files ? [...files.values()].map((marks) => marks[marks.length - 1]) : [];
  }

  /** Files this chat has seen whose current text differs from what it saw last (rule 10). */
  staleFiles(session: string, currentHash?: CurrentHash): ReadMark[] {
    return this.newestPerFile(session).filter((mark) => !this.isFresh(mark, currentHash));
  }

  /** Forget everything (no argument), one chat, or one chat's marks of one file. */
  clear(session?: string, uri?: string): void {
    const victims = this.all().filter((m) => (session === undefined || m.session === session) && (uri === undefined || m.uri === uri));
    if (victims.length === 0) return;
    for (const mark of victims) this.remove(mark);
    this.changed.fire();
  }

  /**
   * One chat turn turned out to have two names (the hooks bridge counts turns, Copilot names them):
   * the marks stamped under `from` belong to `to`, so an own write counts across both (rule 3).
   */
  retagTurn(session: string, from: string, to: string): void {
    for (const marks of this.bySession.get(session)?.values() ?? []) {
      for (const mark of marks) if (mark.turn === from) mark.turn = to;
    }
  }

  dispose(): void {
    this.changed.dispose();
  }

  private remove(mark: ReadMark): void {
    if (this.removed.has(mark)) return;
    this.removed.add(mark);
    this.live--;
    const files = this.bySession.get(mark.session);
    const marks = files?.get(mark.uri);
    if (!files || !marks) return;
    const index = marks.indexOf(mark);
    if (index >= 0) marks.splice(index, 1);
    if (!marks.some((m) => m.hash === mark.hash)) this.dropSnapshot(snapshotKey(mark.session, mark.uri, mark.hash));
    if (marks.length === 0) {
      files.delete(mark.uri);
      if (!this.tracks(mark.uri)) this.currentHashes.delete(mark.uri);
    }
    if (files.size === 0) this.bySession.delete(mark.session);
  }

  private keepSnapshot(session: string, uri: string, hash: string, text: string): void {
    const key = snapshotKey(session, uri, hash);
    this.dropSnapshot(key); // re-added below as the most recent
    const bytes = text.length * 2;
    if (bytes > this.limits.snapshotBudgetBytes) return; // too big to keep at all: refusals show content instead
    this.snapshots.set(key, { session, uri, hash, text });
    this.snapshotBytes += bytes;
    while (this.snapshotBytes > this.limits.snapshotBudgetBytes) {
      const oldest = this.snapshots.keys().next().value;
      if (oldest === undefined) break;
      this.dropSnapshot(oldest);
    }
  }

  /** Keeps the snapshots of the chat's last few versions of the file (newest marks first). */
  private pruneSnapshots(session: string, uri: string): void {
    const marks = this.bySession.get(session)?.get(uri) ?? [];
    const keep = new Set<string>();
    for (let i = marks.length - 1; i >= 0 && keep.size < SNAPSHOTS_PER_FILE; i--) keep.add(marks[i].hash);
    for (const m of marks) if (!keep.has(m.hash)) this.dropSnapshot(snapshotKey(session, uri, m.hash));
  }

  private dropSnapshot(key: string): void {
    const snap = this.snapshots.get(key);
    if (!snap) return;
    this.snapshots.delete(key);
    this.snapshotBytes -= snap.text.length * 2;
  }
}
