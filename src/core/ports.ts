// What the gate's flow works with: the editor (a `DocumentPort`), the settings, a log, and the
// calls and events it sees. Interfaces only; `EditorDocuments` (documents.ts) implements the port.
import type { Instant } from './barrier';
import type { LineRange } from './diff';
import type { DiskWatch } from './editor';
import type { ConflictLabels } from './merge';
import type { TextSpanEdit } from './replace';
import type { Eol } from './text';
import type { BlockReason, ErrorCode, ToolName } from './types';
export type { GateSettings } from './settings';

export interface LoadedDocument {
  exists: true;
  /** Full text: the editor buffer, unsaved changes included (or the disk's, as the editor will hold it). */
  text: string;
  hash: string;
  /** The buffer holds changes not yet saved to disk. */
  dirty: boolean;
  /** The document's one line ending: every text an edit inserts is written with it, as the editor would. */
  eol: Eol;
  /** Something the model should know about how the editor holds this file (shown with reads and writes). */
  note?: string;
  /** Why an edit of this file is refused although it can be read (an edit would change bytes nobody touched). */
  unsafeToEdit?: string;
}

export type LoadResult = LoadedDocument | { exists: false } | { exists: 'error'; code: ErrorCode; message: string };

/**
 * `onDisk`: the edit went to the file on disk, and why: no editor shows it (`no-editor`: as a save would), or the
 * editor had not loaded its newer version (`not-loaded`: the editor shows the edit once it reloads the file).
 * `editorBehind`: an editor shows the file and has not loaded its newer version: nothing written, neither through it
 * nor behind it.
 */
export type ApplyResult = { applied: false; editorBehind?: true } | { applied: true; onDisk?: OnDisk };
export type OnDisk = 'no-editor' | 'not-loaded';

/** A created file's text as the editor holds it (one line ending), with its hash. */
export type CreateResult = { created: false } | { created: true; text: string; hash: string };

/**
 * `changed`: the document changed after the agent's edit (the user typing), so it was not saved and
 * their change stays unsaved. `newer-on-disk`: the file on disk changed after the text the edit was made
 * on (another program wrote it meanwhile), so saving would have written over it; nothing was saved.
 * `failed`: the editor did not save. `after`: the text once saved, when saving changed it (format on
 * save, or another save participant); `dirtyAfter`: the document also holds changes made during the save.
 */
export type SaveResult =
  { saved: false; why: 'changed' | 'newer-on-disk' | 'failed' } | { saved: true; after?: string; dirtyAfter?: boolean };

/** What the guard needs from the editor: `EditorDocuments` (documents.ts) over VS Code or the tests' model. */
export interface DocumentPort {
  /**
   * The file's current text, as the editor holds it. `asOf`: when the call it is for arrived (`performance.now()`);
   * the loads of one call share the round trip that brings the editor's documents up to date (`Editor.sync`).
   */
  load(uri: string, asOf?: Instant): Promise<LoadResult>;
  /** A call arriving at `asOf` will load these files: the round trip its loads share starts now, if the editor holds one. */
  prepare?(uris: readonly string[], asOf: Instant): void;
  /**
   * Applies `edits` (offsets into the text whose hash is `expectedHash`) only if the file still has
   * that text, checked in the same tick as the edit is handed over. `result` is the text the edits
   * produce and its hash, so the port need not hash it again.
   */
  applyEdits(
    uri: string,
    expectedHash: string,
    edits: readonly TextSpanEdit[],
    result: { text: string; hash: string },
  ): Promise<ApplyResult>;
  /** Creates a new file (and its folders); not over an existing file, nor over an open buffer with unsaved changes. */
  create(uri: string, text: string): Promise<CreateResult>;
  /**
   * Saves the document only if it still holds exactly the text with `expectedHash`, and only if the file
   * on disk still holds the text the edit was made on (`baseHash`, as the editor holds it).
   */
  save(uri: string, expectedHash: string, baseHash: string): Promise<SaveResult>;
  /**
   * A write that did not reach the disk is taken back: if the document still holds exactly `expectedHash`,
   * its unsaved state is dropped and it holds the file's text on disk again. `false` when it holds anything
   * else (the user typed since): then nothing is dropped.
   */
  followDisk(uri: string, expectedHash: string): Promise<boolean>;
  /** Deletes the file only if it still holds exactly the text with `expectedHash` and no unsaved changes; `false` otherwise. */
  remove(uri: string, expectedHash: string): Promise<boolean>;
  /** The exact current hash of a file held in the editor, without waiting; `undefined` if not held. */
  currentHash?(uri: string): string | undefined;
  /** The file's text on disk as the editor would hold it, unsaved changes in a buffer aside; `undefined` if unreadable. */
  diskVersion(uri: string): Promise<SeenVersion | undefined>;
  /**
   * What a shell command may change past the gate (rule 16): a watch of the disk, and the files the editor holds now —
   * each one's text, and for one with unsaved changes the disk's text under them. Absent where nothing can be watched.
   */
  watchShell?(): Promise<{ watch: DiskWatch; held: ReadonlyMap<string, HeldFile> }>;
  /**
   * Another program changed the file on disk from `base` to `theirs` while its buffer held unsaved changes: those
   * changes and the program's, merged, go into the buffer, on top of the file's new text (so a save writes both, and
   * the editor finds nothing newer on disk). Where the two overlap, the buffer gets both with conflict markers
   * (`labels`). `skipped`: the buffer no longer has unsaved changes, or the disk no longer holds `theirs`.
   */
  mergeIntoBuffer?(uri: string, base: SeenVersion, theirs: SeenVersion, labels: ConflictLabels): Promise<'merged' | 'conflict' | 'skipped'>;
}

/** A file the editor holds when a watch starts: its text, and, under unsaved changes, the disk's. */
export interface HeldFile {
  text: SeenVersion;
  /** the disk's text under the buffer's unsaved changes */
  disk?: SeenVersion;
}

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string | Error): void;
}

export interface CallContext {
  /** The tool as the agent called it. */
  tool: ToolName;
  /** Whose own tool it is (an agent's id, e.g. `claude-code`), for the surfaces to name; absent for our guarded tools. */
  agent?: string;
  /** That agent as the user knows it ("Claude Code"): a refusal of another chat names it as the file's last writer. */
  agentName?: string;
  /** What the tool does, in a word the model reads ("your replace"): supplied by the tool's adapter. */
  verb: string;
  session: string;
  turn: string | undefined;
  uri: string;
  /** How the file is named to the model and the user. */
  path: string;
  /** The store's watermark when the call arrived: marks stamped later do not count for it (rule 9). */
  arrival: number;
  isCancelled?: () => boolean;
}

export interface BlockedWrite {
  session: string;
  turn: string | undefined;
  tool: ToolName;
  /** as `CallContext.agent` */
  agent?: string;
  uri: string;
  path: string;
  reason: BlockReason;
  /** Lines of the current text that differ from what the chat saw (0-based, for diagnostics). */
  changedLines: LineRange[];
}

export interface CompletedWrite {
  session: string;
  turn: string | undefined;
  uri: string;
  tool: ToolName;
  /** as `CallContext.agent` */
  agent?: string;
  /** The text the write changed, `created` when there was no file, `unknown` when the gate did not see it (nothing to review). */
  before: SeenVersion | 'created' | 'unknown';
  /** The text it left (after the save, when saving changed it); the empty text when it deleted the file. */
  after: SeenVersion;
  /** The edit deleted the file (an agent's patch: a Delete File, or the source of a Move). */
  deleted?: boolean;
  /** It was saved to disk (not left in a buffer with unsaved changes). */
  saved: boolean;
}

/** One version of a file's text, as a chat saw it. */
export interface SeenVersion {
  hash: string;
  text: string;
}

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
  }
}

/** Core failures the gate lets through (rule 7): a test can force one with this hook. */
export type FaultInjector = (stage: 'decide') => void;
