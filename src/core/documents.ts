// The gate's view of a file: its current text as the editor holds it (unsaved changes included),
// or as the editor WILL hold it when a clean document lags the disk; and the write path onto that
// exact text. Built on `Editor` (editor.ts), so the lifecycle it copes with — documents dropped and
// reopened, one line ending per document, late or missing disk loads, deleted files with unsaved
// buffers, changes during a save — is the same in the unit tests' model of the editor and in VS Code.
// One class over ~250 lines on purpose: its load, write and save paths share the per-version disk
// view and hash cache, whose invariants are easier to keep in one place than across files.
import { DOCUMENT } from './messages';
import type {
  ApplyResult,
  CreateResult,
  DocumentPort,
  HeldFile,
  LoadedDocument,
  LoadResult,
  OnDisk,
  SaveResult,
  SeenVersion,
} from './ports';
import { type ConflictLabels, revertChange } from './merge';
import type { Instant } from './barrier';
import type { DiskWatch, Editor, EditorDocument, FileStat } from './editor';
import { HashCache, sha256 } from './hash';
import type { TextSpanEdit } from './replace';
import { asEditorHolds, type Eol } from './text';

/** VS Code does not sync documents over 50 M characters to extensions. */
export const MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;

/** How long a write waits for the editor to load a newer version of the file from disk (seen: 70–150 ms). */
export const DISK_CATCH_UP_MS = 1500;

type FileFacts = Extract<FileStat, { kind: 'file' | 'directory' }>;

/** What the disk held the last time a clean document's version was compared with it. */
interface DiskView {
  version: number;
  /** The document's `syncedAt` then: a load that takes in a new stat without changing the text moves it (and ends `staleStat`). */
  syncedAt: number;
  mtime: number;
  size: number;
  /** The text the editor will hold once it loads the disk; `undefined` when the document already does. */
  ahead?: { text: string; hash: string; eol: Eol };
  /** The bytes are not valid UTF-8: the editor shows U+FFFD for them and would save U+FFFD. */
  invalidUtf8: boolean;
  /** The file has line endings the editor changed when it loaded it (mixed, or lone CRs). */
  normalised: boolean;
  /**
   * The file was modified after the editor last took it in, yet the editor would hold the same text
   * (only line endings changed), so it shows no change; until it takes in the new stat it refuses to
   * save ("the content of the file is newer", an error the user sees). Edits of such a file go to the disk.
   */
  staleStat?: boolean;
}

const utf8 = new TextDecoder('utf-8');
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** One step of a write, for a trace set by the tests (`EditorDocuments.trace`): which file, what happened. */
export type WriteStep = (uri: string, step: string) => void;

export class EditorDocuments implements DocumentPort {
  private readonly hashes = new HashCache<EditorDocument>();
  private readonly disk = new WeakMap<EditorDocument, DiskView>();
  /** Each step of a write against the disk, when a test wants them (the soak names the step a loss came through). */
  trace: WriteStep | undefined;

  constructor(
    readonly editor: Editor,
    private readonly catchUpMs = DISK_CATCH_UP_MS,
  ) {}

  hashOf(document: EditorDocument): string {
    return this.hashes.hash(document, document.version, () => document.getText());
  }

  /** The hash of the file's current text when the editor holds the file; `undefined` if it does not. */
  currentHash(uri: string): string | undefined {
    const document = this.editor.openDocument(uri);
    if (!document) return undefined;
    const view = this.disk.get(document);
    if (!document.isDirty && view?.version === document.version && view.ahead) return view.ahead.hash;
    return this.hashOf(document);
  }

  /** The hash of the file's current text, read from the disk when no editor holds it; `undefined` if it is gone. */
  async hashNow(uri: string): Promise<string | undefined> {
    const held = this.currentHash(uri);
    if (held !== undefined) return held;
    try {
      return sha256(this.heldOnDisk(uri, await this.editor.readFile(uri)).text);
    } catch {
      return undefined;
    }
  }

  /**
   * The file's text on disk as the editor would hold it (one line ending), whatever a buffer holds:
   * what an agent that reads the disk itself saw. `undefined` if it cannot be read.
   */
  async diskVersion(uri: string): Promise<{ hash: string; text: string } | undefined> {
    try {
      const { text } = this.heldOnDisk(uri, await this.editor.readFile(uri));
      return { hash: sha256(text), text };
    } catch {
      return undefined;
    }
  }

  async watchShell(): Promise<{ watch: DiskWatch; held: ReadonlyMap<string, HeldFile> }> {
    const watch = this.editor.watchDisk();
    const held = new Map<string, HeldFile>();
    for (const document of this.editor.openDocuments()) {
      const text = { hash: this.hashOf(document), text: document.getText() };
      const disk = document.isDirty ? await this.diskVersion(document.uri) : undefined;
      held.set(document.uri, disk ? { text, disk } : { text });
    }
    return { watch, held };
  }

  async mergeIntoBuffer(
    uri: string,
    base: SeenVersion,
    theirs: SeenVersion,
    labels: ConflictLabels,
  ): Promise<'merged' | 'conflict' | 'skipped'> {
    const document = this.editor.openDocument(uri);
    if (!document || document.isClosed || !document.isDirty) return 'skipped';
    const disk = await this.diskVersion(uri);
    if (disk?.hash !== theirs.hash) return 'skipped';
    const merge = revertChange(document.getText(), base.text, theirs.text, labels);
    const target = merge.kind === 'clean' ? merge.text : merge.marked;
    // the file's new text first, clean (File: Revert File), so that a save later finds nothing newer on disk…
    if (!(await this.editor.reload(document))) return 'skipped';
    // …then the buffer's own changes on top of it, unsaved as they were; a keystroke between the two is kept too
    for (let attempt = 0; attempt < 5; attempt++) {
      const reloaded = this.editor.openDocument(uri);
      if (!reloaded || reloaded.isClosed) return 'skipped';
      const now = reloaded.getText();
      const onTop = now === theirs.text ? undefined : revertChange(now, theirs.text, target, labels);
      const text = onTop === undefined ? target : onTop.kind === 'clean' ? onTop.text : onTop.marked;
      if (await this.editor.applyEdits(reloaded, [{ start: 0, end: now.length, text }]))
        return merge.kind === 'clean' ? 'merged' : 'conflict';
    }
    this.trace?.(uri, 'the buffer kept changing: the merged text was not put back');
    return 'skipped';
  }

  prepare(uris: readonly string[], asOf: Instant): void {
    if (uris.some((uri) => this.holds(uri))) void this.editor.sync(asOf);
  }

  /** Whether the editor holds an open document of `uri`: its text is current only after `Editor.sync`. */
  private holds(uri: string): boolean {
    return this.editor.openDocument(uri)?.isClosed === false;
  }

  async load(uri: string, asOf?: Instant): Promise<LoadResult> {
    let stat: FileStat;
    try {
      // a document the editor holds is first brought up to date with what the editor holds (the user's keystrokes on
      // their way): the one round trip of a call (`Editor.sync`), shared by its loads; the disk's stat meanwhile
      [stat] = await Promise.all([this.editor.stat(uri), this.holds(uri) ? this.editor.sync(asOf) : undefined]);
    } catch (e) {
      return { exists: 'error', code: 'internal', message: DOCUMENT.cannotAccess(messageOf(e)) };
    }
    if (stat.kind === 'missing') {
      // deleted on disk while the editor holds unsaved changes: the buffer is the file, and creating
      // the file instead would make the editor revert it (the user's work gone)
      const orphan = this.editor.openDocument(uri);
      if (orphan && !orphan.isClosed && orphan.isDirty) {
        return { ...this.held(orphan), note: DOCUMENT.deletedButUnsaved };
      }
      return { exists: false };
    }
    if (stat.kind === 'directory') return { exists: 'error', code: 'invalid-input', message: DOCUMENT.isFolder };
    if (stat.size > MAX_DOCUMENT_BYTES) {
      return { exists: 'error', code: 'too-large', message: DOCUMENT.tooLarge(mib(stat.size), mib(MAX_DOCUMENT_BYTES)) };
    }
    const opened = await this.editor.open(uri);
    if (!opened.ok) {
      if (opened.reason === 'binary') return { exists: 'error', code: 'binary', message: DOCUMENT.binary };
      if (opened.reason === 'too-large') return { exists: 'error', code: 'too-large', message: DOCUMENT.tooLargeForEditor(opened.message) };
      return { exists: 'error', code: 'internal', message: DOCUMENT.cannotOpen(opened.message) };
    }
    const document = opened.document;
    // unsaved changes are the file's current text; a clean document is only as current as its last disk load
    if (document.isDirty) return this.held(document);
    const view = await this.diskView(document, stat);
    if (view?.ahead) this.trace?.(uri, 'load: the disk is ahead of the editor');
    const notes: string[] = [];
    if (view?.normalised) notes.push(DOCUMENT.mixedEolOnDisk(view.ahead?.eol ?? document.eol));
    const loaded: LoadedDocument = view?.ahead
      ? { exists: true, text: view.ahead.text, hash: view.ahead.hash, dirty: false, eol: view.ahead.eol }
      : this.held(document);
    if (view?.invalidUtf8) {
      notes.push(DOCUMENT.invalidUtf8Note);
      loaded.unsafeToEdit = DOCUMENT.invalidUtf8Refusal;
    }
    if (notes.length) loaded.note = notes.join('\n');
    return loaded;
  }

  async applyEdits(
    uri: string,
    expectedHash: string,
    edits: readonly TextSpanEdit[],
    result: { text: string; hash: string },
  ): Promise<ApplyResult> {
    const document = this.editor.openDocument(uri) ?? (await this.openOrUndefined(uri));
    if (!document) return { applied: false };
    const view = document.isDirty ? undefined : this.disk.get(document);
    // a clean file no editor shows: compared with the disk and written in one step, not saved through the editor
    // (only text the disk holds as UTF-8: the bytes of another encoding are the editor's to write)
    const straight = !document.isDirty && isUtf8(document) && this.editor.writesStraightToDisk(uri);
    const held = this.hashOf(document) === expectedHash;
    // the text the gate checked may be the disk's, which the editor has not loaded yet
    if (!held && view?.ahead?.hash !== expectedHash) return { applied: false };
    if (straight) {
      this.trace?.(uri, 'no editor shows the file: the edit goes to the disk');
      return this.writeOnDisk(uri, document, expectedHash, result.text, 'no-editor');
    }
    if (!held) {
      if (!(await this.catchUp(document, expectedHash))) {
        // the user typed while VS Code was loading the newer version: their buffer is the file now, and a
        // write on disk under it would make their save fail (or lose the write): the call meets a changed text
        if (document.isDirty || document.isClosed) return { applied: false };
        // an editor shows it: the user may type into it before it loads the file, and a write behind it would leave
        // their buffer apart from the disk (the soak saw it: their next save refused, a line of the disk's missing)
        if (this.editor.shows(uri) && this.editor.followsDisk(uri)) {
          this.trace?.(uri, 'the editor that shows the file did not load the disk in time: not written');
          return { applied: false, editorBehind: true };
        }
        this.trace?.(uri, 'the editor did not load the disk in time: the edit goes to the disk');
        return this.writeOnDisk(uri, document, expectedHash, result.text, 'not-loaded');
      }
    } else if (view?.version === document.version && view.staleStat) {
      this.trace?.(uri, 'the editor holds an older stat: the edit goes to the disk');
      return this.writeOnDisk(uri, document, expectedHash, result.text, 'not-loaded');
    }
    // From the check to the edit nothing awaits: the edit meets the text that was checked, and it
    // carries the document's version, so an edit that lands first in the editor makes it fail.
    if (this.hashOf(document) !== expectedHash) return { applied: false };
    const versionBefore = document.version;
    if (!(await this.editor.applyEdits(document, edits))) {
      this.trace?.(uri, 'the editor refused the edit (its version moved)');
      return { applied: false };
    }
    this.trace?.(uri, 'edit applied in the editor');
    // exactly this edit made the next version: the planned text is the document's (line endings
    // included, which the core wrote the document's way), so its hash is known
    if (document.version === versionBefore + 1 && document.getText() === result.text)
      this.hashes.set(document, document.version, result.hash);
    return { applied: true };
  }

  async create(uri: string, text: string): Promise<CreateResult> {
    // never over a buffer with unsaved changes: creating its file makes the editor revert it
    const open = this.editor.openDocument(uri);
    if (open && !open.isClosed && open.isDirty) return { created: false };
    if (!(await this.editor.createFile(uri, new TextEncoder().encode(text)))) return { created: false };
    // the file holds the bytes as given; the editor holds them with one line ending
    const held = asEditorHolds(text, this.editor.defaultEol(uri)).text;
    return { created: true, text: held, hash: sha256(held) };
  }

  async save(uri: string, expectedHash: string, baseHash: string): Promise<SaveResult> {
    const document = this.editor.openDocument(uri);
    if (!document || document.isClosed) return { saved: false, why: 'failed' };
    // A keystroke the editor applied after our edit may not have reached this document yet: save only
    // while the editor's own copy is still exactly our edit. Anything else is the user's and stays unsaved.
    if (this.hashOf(document) !== expectedHash) return { saved: false, why: 'changed' };
    const version = document.version;
    if (!(await this.editor.stillAt(document)) || document.version !== version) return { saved: false, why: 'changed' };
    // Another program may have written the file since the editor took it in (the edit was made on what the
    // editor held): saving now would write over that, or fail with "the content of the file is newer".
    if (await this.diskMovedFrom(uri, document, baseHash, expectedHash)) {
      this.trace?.(uri, 'save: the disk moved since the editor took it in; not saved');
      return { saved: false, why: 'newer-on-disk' };
    }
    this.trace?.(uri, 'save: the disk checked; the editor saves');
    if (!(await this.editor.save(document))) {
      // a save of the user's may be running, the edit in the buffer it saves: the document turns clean when it lands
      if (!document.isClosed && document.isDirty && this.hashOf(document) === expectedHash)
        await this.editor.nextChange(document, this.catchUpMs);
      // the user saved the buffer, the edit in it: there was nothing left to save
      if (!document.isClosed && !document.isDirty && this.hashOf(document) === expectedHash) {
        this.trace?.(uri, 'save: the buffer, the edit in it, was saved a moment before (the user)');
        await this.recordInSync(uri, document);
        return { saved: true };
      }
      this.trace?.(uri, 'save: the editor did not save');
      return { saved: false, why: 'failed' };
    }
    this.trace?.(uri, 'save: saved');
    if (!document.isDirty) await this.recordInSync(uri, document);
    // save participants (format on save) — or typing during the save — made new versions
    return document.version === version ? { saved: true } : { saved: true, after: document.getText(), dirtyAfter: document.isDirty };
  }

  async followDisk(uri: string, expectedHash: string): Promise<boolean> {
    const document = this.editor.openDocument(uri);
    if (!document || document.isClosed) return false;
    if (this.hashOf(document) !== expectedHash) return false;
    this.trace?.(uri, 'the edit taken back: the document reverted to the disk');
    return this.editor.reload(document);
  }

  async remove(uri: string, expectedHash: string): Promise<boolean> {
    const open = this.editor.openDocument(uri);
    if (open && !open.isClosed && open.isDirty) return false;
    const doc = await this.load(uri);
    if (doc.exists !== true || doc.dirty || doc.hash !== expectedHash) return false;
    return this.editor.removeFile(uri);
  }

  /**
   * Has the file on disk changed since the editor took it in, to a text other than `baseHash` (the text an edit was
   * made on) and other than `editedHash` (the edit itself: the user saved the buffer while it held it)? A stat first:
   * only a file modified after the document's `syncedAt` is read.
   */
  private async diskMovedFrom(uri: string, document: EditorDocument, baseHash: string, editedHash: string): Promise<boolean> {
    try {
      const stat = await this.editor.stat(uri);
      // a file deleted meanwhile is made again by the save, as the editor does for a dirty document's file
      if (stat.kind !== 'file') return false;
      if (stat.mtime <= document.syncedAt) return false;
      const onDisk = sha256(this.heldOnDisk(uri, await this.editor.readFile(uri)).text);
      return onDisk !== baseHash && onDisk !== editedHash;
    } catch {
      // unreadable now: the save itself will tell
      return false;
    }
  }

  /** A file's bytes as the editor holds (or will hold) them: decoded, one line ending. */
  private heldOnDisk(uri: string, bytes: Uint8Array): { text: string; eol: Eol; normalised: boolean } {
    const contents = utf8.decode(bytes);
    const held = asEditorHolds(contents, this.editor.defaultEol(uri));
    return { ...held, normalised: held.text !== contents };
  }

  private held(document: EditorDocument): LoadedDocument {
    return { exists: true, text: document.getText(), hash: this.hashOf(document), dirty: document.isDirty, eol: document.eol };
  }

  private async openOrUndefined(uri: string): Promise<EditorDocument | undefined> {
    const opened = await this.editor.open(uri);
    return opened.ok ? opened.document : undefined;
  }

  /** Compares a clean document with the disk (once per version and disk state). */
  private async diskView(document: EditorDocument, stat: FileFacts): Promise<DiskView | undefined> {
    const known = this.disk.get(document);
    // `syncedAt` matters only to a stale stat: once the document has taken in a newer one, look again
    const staleNoMore = known?.staleStat === true && known.syncedAt !== document.syncedAt;
    if (known && known.version === document.version && known.mtime === stat.mtime && known.size === stat.size && !staleNoMore) return known;
    // bytes of other encodings cannot be compared with the text here; the document is trusted
    if (!isUtf8(document)) return undefined;
    let bytes: Uint8Array;
    try {
      bytes = await this.editor.readFile(document.uri);
    } catch {
      return undefined;
    }
    let invalidUtf8 = false;
    try {
      strictUtf8.decode(bytes);
    } catch {
      invalidUtf8 = true;
    }
    const held = this.heldOnDisk(document.uri, bytes);
    const ahead = aheadOf(document, held);
    return this.remember(document, stat, {
      invalidUtf8,
      normalised: held.normalised,
      ahead,
      staleStat: staleStatOf(document, stat, ahead),
    });
  }

  /** Records what the disk holds (`stat`) for the document's current version. */
  private remember(document: EditorDocument, stat: FileFacts, disk: Omit<DiskView, 'version' | 'syncedAt' | 'mtime' | 'size'>): DiskView {
    const view: DiskView = { version: document.version, syncedAt: document.syncedAt, mtime: stat.mtime, size: stat.size, ...disk };
    this.disk.set(document, view);
    return view;
  }

  /** After our own save the disk holds the document's text: the next load need not read it back. */
  private async recordInSync(uri: string, document: EditorDocument): Promise<void> {
    try {
      const stat = await this.editor.stat(uri);
      // the editor wrote this stat itself: it is not stale, whatever syncedAt says yet
      if (stat.kind === 'file' && !document.isDirty) this.remember(document, stat, { invalidUtf8: false, normalised: false });
    } catch {
      /* the next load compares with the disk as usual */
    }
  }

  /** Waits (bounded) for a clean document to load the disk text with `hash`; `false` if it did not. */
  private async catchUp(document: EditorDocument, hash: string): Promise<boolean> {
    const end = Date.now() + this.catchUpMs;
    while (this.hashOf(document) !== hash) {
      const left = end - Date.now();
      if (document.isDirty || document.isClosed || left <= 0) return false;
      // no change until the end: the editor does not load it
      if (!(await this.editor.nextChange(document, left))) return this.hashOf(document) === hash;
    }
    return true;
  }

  /**
   * The edit goes to the disk, onto exactly the text that was checked: a file no editor shows, or one whose newer
   * version the editor does not load (some setups never do). The clean document is left to follow when it can.
   */
  private async writeOnDisk(uri: string, document: EditorDocument, expectedHash: string, text: string, why: OnDisk): Promise<ApplyResult> {
    try {
      // never under a buffer with unsaved changes (rule 13 holds for our own tools too) — nor one on its way: a
      // keystroke sent to the editor reaches this document before the round trip answers (stillAt), and an editor
      // that holds it does not load the disk, so a write here would leave its buffer apart from the disk. A version
      // that moved while the document stayed clean is the editor loading the disk: the comparison below decides.
      if (document.isDirty) {
        this.trace?.(uri, 'disk write: the document has unsaved changes; not written');
        return { applied: false };
      }
      await this.editor.stillAt(document);
      // a document closed meanwhile holds no buffer (VS Code closes and reopens them: a rename does); one opened
      // in its place may
      const now = document.isClosed ? this.editor.openDocument(uri) : document;
      if (now?.isDirty) {
        this.trace?.(uri, 'disk write: the document changed on its way; not written');
        return { applied: false };
      }
      const body = new TextEncoder().encode(text);
      const bom = document.encoding === 'utf8bom' ? new Uint8Array([0xef, 0xbb, 0xbf]) : new Uint8Array(0);
      const out = new Uint8Array(bom.length + body.length);
      out.set(bom);
      out.set(body, bom.length);
      // the disk is compared with the checked text and written in one step: another program's write that lands
      // after the comparison would otherwise be written over (docs/reliability.md, Under load)
      const written = await this.editor.writeFileIf(uri, out, (bytes) => sha256(this.heldOnDisk(uri, bytes).text) === expectedHash);
      if (!written) {
        this.trace?.(uri, 'disk write: the disk moved; not written');
        return { applied: false };
      }
      this.trace?.(uri, 'disk write: written');
      // what the disk holds now, for the document's version (until it loads it, the text just written)
      const stat = await this.editor.stat(uri);
      if (stat.kind === 'file' && !document.isDirty) {
        const ahead = aheadOf(document, asEditorHolds(text, this.editor.defaultEol(uri)));
        // the editor has not taken in this write's stat: with the same text it still would refuse to save
        this.remember(document, stat, { invalidUtf8: false, normalised: false, ahead, staleStat: staleStatOf(document, stat, ahead) });
      }
      return { applied: true, onDisk: why };
    } catch {
      return { applied: false };
    }
  }
}

function isUtf8(document: EditorDocument): boolean {
  return document.encoding === 'utf8' || document.encoding === 'utf8bom';
}

/** The file changed after the editor last took it in, yet the editor holds its text (`ahead` unset): it would refuse to save. */
function staleStatOf(document: EditorDocument, stat: FileFacts, ahead: DiskView['ahead']): boolean {
  return ahead === undefined && stat.mtime > document.syncedAt;
}

/** The text the document will hold once it loads `held`, if that is not the text it holds now. */
function aheadOf(document: EditorDocument, held: { text: string; eol: Eol }): DiskView['ahead'] {
  return held.text === document.getText() ? undefined : { text: held.text, hash: sha256(held.text), eol: held.eol };
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
