// The editor as the gate meets it: VS Code's documents and files, reduced to the calls the gate
// makes, with the behaviour it relies on written down. The VS Code adapter (src/editor/vscodeEditor.ts)
// passes these calls straight to the API; the unit tests' model of the editor
// (test/unit/memoryEditor.ts) behaves the same way, and the "VS Code documents" integration suite
// checks each point below against the real host.
//
// What VS Code does that a file system does not:
// - A document is an object from open to close. VS Code drops a document an extension opened (no
//   editor shows it) after about three minutes, or once dozens of others were opened. Opened again, it
//   is a NEW object whose version starts again at 1: (uri, version) names a text only while one object
//   lives.
// - A document holds one line ending. Loading normalises the file's (CRLF when carriage returns are
//   more than half the breaks, a lone CR counting as a break), and every edit's text is normalised
//   to the document's.
// - A clean document follows a change on disk late (about 100–150 ms here) or, in some setups, never.
//   A dirty one keeps its text.
// - A document with unsaved changes stays open (and dirty) when its file is deleted on disk; creating
//   the file then REVERTS it to the new file's contents, losing those changes.
// - Saving runs save participants (format on save, trim whitespace, other extensions); the text saved
//   is the document's after them, and the document may change while the save runs. A save over a file
//   modified since the editor last took it in (and of another size) is refused — "the content of the
//   file is newer", an error the user sees — unless what it would write is byte for byte what the file
//   holds. A disk change that leaves the text as the editor holds it (only line endings) shows no change
//   at all.
// - A dirty document never follows the disk again by itself; only a revert (File: Revert File) drops its
//   unsaved changes and loads the file. The API has no revert of a document: it is a command on the
//   active editor.
import type { Instant } from './barrier';
import type { TextSpanEdit } from './replace';
import type { Eol } from './text';

export interface EditorDocument {
  readonly uri: string;
  /** Bumped by every change; starts at 1 each time the document is opened. */
  readonly version: number;
  readonly isDirty: boolean;
  readonly isClosed: boolean;
  readonly eol: Eol;
  /** VS Code's encoding id: `utf8`, `utf8bom`, `utf16le`, `windows1252`, … */
  readonly encoding: string;
  /**
   * When the editor last took in the file (opened or loaded it, or saved it), on the clock of file
   * modification times. A file modified after that may be newer than the editor knows, and the editor
   * refuses to save over a file newer than it knows.
   */
  readonly syncedAt: number;
  getText(): string;
}

export type FileStat = { kind: 'file' | 'directory'; size: number; mtime: number } | { kind: 'missing' };

/** A file another program created, changed or deleted on disk, as the editor's file watcher reports it. */
export interface DiskChange {
  uri: string;
  kind: 'created' | 'changed' | 'deleted';
}

/** The disk's changes while something runs (an agent's shell command: docs/design.md rule 16). */
export interface DiskWatch {
  /**
   * Ends the watch: the files created, changed or deleted on disk between its start and now, each once (a file created
   * and then changed is `created`). The watcher reports late, so reports are awaited for `settleMs` more, and a change
   * made after now is left out (by the file's modification time). The files of `also` are looked at besides, by their
   * modification time: a report that comes later still, or never, does not hide their change. The editor's own saves are
   * not changes of another program's.
   */
  stop(settleMs: number, also: readonly string[]): Promise<DiskChange[]>;
}

export type OpenResult = { ok: true; document: EditorDocument } | { ok: false; reason: 'binary' | 'too-large' | 'other'; message: string };

export interface Editor {
  /** The document the editor holds for `uri` now, if any (no waiting, no opening). */
  openDocument(uri: string): EditorDocument | undefined;
  /** The document for `uri`, opened (the file read, its line endings normalised) if it is not open. */
  open(uri: string): Promise<OpenResult>;
  /**
   * Resolves once every change the editor's side made to its documents before a call arriving at `asOf` (now, by
   * default) has reached the documents here — the user's keystrokes included: one round trip, shared by the calls it
   * is valid for (`SharedBarrier`, barrier.ts). A document read after it holds what the editor holds.
   */
  sync(asOf?: Instant): Promise<void>;
  /** The disk's: no round trip, so a document's text is not brought up to date by it (`sync`). Throws on errors other than a missing file. */
  stat(uri: string): Promise<FileStat>;
  /** The disk's bytes (see `stat`). */
  readFile(uri: string): Promise<Uint8Array>;
  /**
   * Writes the file's bytes in place, past the editor (which loads them late or never) — only if the file holds
   * what `holds` accepts at that moment: the read, the comparison and the write run back to back, nothing of this
   * process between them (a local file: one synchronous run of system calls, so another program's write can land
   * only in the microseconds between two of them). `false`: it held something else, and nothing was written.
   */
  writeFileIf(uri: string, bytes: Uint8Array, holds: (current: Uint8Array) => boolean): Promise<boolean>;
  /**
   * Applies edits (offsets into the text at `document.version`) in one step; `false` when the
   * document's version moved first (the editor refuses an edit made for an older version).
   */
  applyEdits(document: EditorDocument, edits: readonly TextSpanEdit[]): Promise<boolean>;
  /** Creates a file that does not exist, with its folders; `false` if it exists. */
  createFile(uri: string, bytes: Uint8Array): Promise<boolean>;
  /** Deletes a file (undoable in the editor); an open document of it closes. `false` when nothing was deleted. */
  removeFile(uri: string): Promise<boolean>;
  /** Saves (participants run first and may change the text); `false` when nothing was saved: it failed, or the document was clean. */
  save(document: EditorDocument): Promise<boolean>;
  /**
   * Drops the document's unsaved changes and loads its file again, clean (VS Code's File: Revert File);
   * `false` when it could not (the document changed meanwhile, or stays dirty).
   */
  reload(document: EditorDocument): Promise<boolean>;
  /** Resolves `true` at the document's next change, `false` after `ms` without one. */
  nextChange(document: EditorDocument, ms: number): Promise<boolean>;
  /**
   * A round trip through the editor's side that owns the documents, the way edits go: `false` when
   * the document there had moved past this version. Edits sent before it (a keystroke, another
   * extension's) have reached `document` when it answers, so a caller also compares the version.
   */
  stillAt(document: EditorDocument): Promise<boolean>;
  /** Whether an editor shows the file (a tab, in front or not; a side of a diff): the user may type in it. */
  shows(uri: string): boolean;
  /**
   * Whether the editor hears of this file's changes on disk, and so loads them into a clean document: not in a folder
   * of `files.watcherExclude`. A write there need not wait for a load that never comes.
   */
  followsDisk(uri: string): boolean;
  /**
   * Whether a write of this file may go straight to the disk, past the editor (`writeFileIf`): no editor shows it, so
   * nobody types in it; saving it would run no participant that changes the text (format on save, code actions on
   * save, trimming); and it is a local file, compared and written in one step. Saving through the editor compares the
   * file's stat and writes it a round trip later: a line another program appends in between is lost (measured:
   * docs/reliability.md, *Under load*).
   */
  writesStraightToDisk(uri: string): boolean;
  /** The line ending a document gets when its text has none (`files.eol`). */
  defaultEol(uri: string): Eol;
  /** The documents the editor holds now, of files (no untitled buffers). */
  openDocuments(): readonly EditorDocument[];
  /** Starts watching the workspace's files on disk. */
  watchDisk(): DiskWatch;
}
