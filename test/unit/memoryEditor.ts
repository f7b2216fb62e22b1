// A model of VS Code's editor for the core's unit tests: files on a disk and documents over them,
// with the lifecycle the real one has (each point is checked against the real host by
// test/integration/documents.test.ts, "VS Code documents"):
// - a document is an object from open to close; dropped (`evict`) and opened again it is a new object
//   whose version starts at 1; VS Code never drops a document with unsaved changes;
// - a document holds one line ending: loading applies VS Code's rule (`asEditorHolds`), every edit's
//   text is written with the document's line ending;
// - a clean document follows a disk change at once, late (at the next wait for a change) or never
//   (`diskLoads`); a dirty one keeps its text;
// - an edit makes a document dirty (VS Code counts versions, not texts), an edit for an older
//   version is refused;
// - a dirty document stays open when its file is deleted; creating the file reverts it to the file;
// - saving runs the participants (`formatter`), then writes the text of that moment; a change
//   during the save (`duringSave`) is saved with it, one after the snapshot (`afterSave`) stays unsaved;
// - a document knows the file's stat from its last load or save; a save is refused ("the content of
//   the file is newer") when the file's time moved on, its size differs and what it would write is not
//   what the file holds; a disk change that leaves the text as the editor holds it is taken in without a
//   new version (at once, or at a late load);
// - a dirty document follows the disk only when reverted (`reload`: File: Revert File), which drops its
//   unsaved changes.
import { type Instant, SharedBarrier } from '../../src/core/barrier';
import type { DiskChange, DiskWatch, Editor, EditorDocument, FileStat, OpenResult } from '../../src/core/editor';
import { applySpanEdits, type TextSpanEdit } from '../../src/core/replace';
import { asEditorHolds, type Eol, withEol } from '../../src/core/text';

export class MemoryDocument implements EditorDocument {
  version = 1;
  isDirty = false;
  isClosed = false;
  /** VS Code's name of the file's encoding ('utf8', 'utf8bom', 'utf16le', 'windows1252', …). */
  encoding = 'utf8';
  /** The file's stat as the editor last took it in (load or save). */
  stat = { mtime: 0, size: 0 };

  get syncedAt(): number {
    return this.stat.mtime;
  }

  constructor(
    readonly uri: string,
    public text: string,
    public eol: Eol,
  ) {}

  getText(): string {
    return this.text;
  }

  /** One change, as the editor makes it: a new version. */
  change(text: string, dirty: boolean): void {
    this.text = text;
    this.version++;
    this.isDirty = dirty;
  }
}

/** How a clean open document follows a change on disk. */
export type DiskLoads = 'at once' | 'late' | 'never';

export class MemoryEditor implements Editor {
  /** The disk: file contents as text (UTF-8), with a modification stamp. */
  readonly files = new Map<string, { contents: string; mtime: number; size: number; bytes?: Uint8Array }>();
  private readonly documents = new Map<string, MemoryDocument>();
  /** Clean documents whose file changed on disk and that have not loaded it yet. */
  private readonly pendingLoads = new Set<string>();
  private clock = 0;
  diskLoads: DiskLoads = 'at once';
  defaultLineEnding: Eol = '\n';
  /** Format on save: the text a save participant makes of the document's. */
  formatter: ((text: string) => string) | undefined;
  /** Runs just before an edit reaches the document (a racing edit): one call, then cleared. */
  beforeApply: ((uri: string) => void) | undefined;
  /** Runs during a save, after the participants and before the text is written (a keystroke the save takes along). */
  duringSave: ((document: MemoryDocument) => void) | undefined;
  /** Runs when a save has taken its text (a keystroke that stays unsaved). */
  afterSave: ((document: MemoryDocument) => void) | undefined;
  /** Runs at `stillAt()`: a change the editor made that had not reached the document yet. */
  inFlight: (() => void) | undefined;
  /** Runs at the next `sync()`: a change the editor made (a keystroke) that reaches the documents with that round trip. */
  atSync: (() => void) | undefined;
  /** The round trips `sync()` sends, shared as VS Code's are (the same `SharedBarrier`); each lets `atSync` run. */
  private readonly barrier = new SharedBarrier(async () => {
    const flying = this.atSync;
    this.atSync = undefined;
    flying?.();
  });
  /** How many round trips `sync()` has sent. */
  get syncs(): number {
    return this.barrier.sent;
  }
  saves = 0;
  directWrites = 0;
  /** File: Revert File, as the gate asks for it (`reload`) */
  reloads = 0;
  /** The editor refuses every save (a read-only file, a full disk). */
  saveFails = false;
  /**
   * Whether a write goes straight to the disk (`writesStraightToDisk`): in VS Code, a local file no editor shows and
   * whose save runs no participant that changes the text. The model's documents count as shown unless a test says
   * (`true` for every file, or the files that no editor shows).
   */
  straightToDisk: boolean | Set<string> = false;

  // ---- the world: other programs, the user ------------------------------------------------

  /** Another program writes the file (or creates it). */
  writeDisk(uri: string, contents: string): void {
    if (!this.writingOwn) this.report(uri, this.files.has(uri) ? 'changed' : 'created');
    this.files.set(uri, { contents, mtime: ++this.clock, size: Buffer.byteLength(contents, 'utf8') });
    const doc = this.documents.get(uri);
    if (!doc || doc.isDirty) return;
    if (this.diskLoads === 'at once') this.loadFromDisk(doc);
    // a late load, even one that leaves the text as it is (it still takes in the new stat)
    else this.pendingLoads.add(uri);
  }

  /** Another program writes bytes that need not be valid UTF-8 (the editor shows U+FFFD for those). */
  writeDiskBytes(uri: string, bytes: Uint8Array): void {
    this.writeDisk(uri, new TextDecoder().decode(bytes));
    Object.assign(this.files.get(uri)!, { bytes, size: bytes.length });
  }

  /** Another program deletes the file; an open document stays, with its text (VS Code marks it deleted). */
  deleteFile(uri: string): void {
    if (this.files.has(uri)) this.report(uri, 'deleted');
    this.files.delete(uri);
    this.pendingLoads.delete(uri);
  }

  /** The user types: the document (opened if need be) gets `text`, unsaved. */
  userEdit(uri: string, text: string): boolean {
    const doc = this.documents.get(uri) ?? this.openFromDisk(uri);
    if (!doc) return false;
    const typed = withEol(text, doc.eol);
    if (typed === doc.text) return true; // no change, no new version
    this.pendingLoads.delete(uri); // a dirty document no longer follows the disk
    doc.change(typed, true);
    return true;
  }

  /** VS Code drops a document nobody shows (after ~3 minutes, or once dozens of others opened); never a dirty one. */
  evict(uri: string): boolean {
    const doc = this.documents.get(uri);
    if (!doc || doc.isDirty) return false;
    doc.isClosed = true;
    this.documents.delete(uri);
    this.pendingLoads.delete(uri);
    return true;
  }

  /** Late disk loads happen now. */
  loadPending(): void {
    for (const uri of [...this.pendingLoads]) {
      const doc = this.documents.get(uri);
      if (doc && !doc.isDirty) this.loadFromDisk(doc);
    }
    this.pendingLoads.clear();
  }

  /** The document the editor holds for `uri`, for tests to look at. */
  document(uri: string): MemoryDocument | undefined {
    return this.documents.get(uri);
  }

  /** The file's bytes on disk, as text. */
  disk(uri: string): string | undefined {
    return this.files.get(uri)?.contents;
  }

  // ---- Editor ------------------------------------------------------------------------------

  openDocument(uri: string): EditorDocument | undefined {
    return this.documents.get(uri);
  }

  async open(uri: string): Promise<OpenResult> {
    await Promise.resolve();
    const doc = this.documents.get(uri) ?? this.openFromDisk(uri);
    if (doc) return { ok: true, document: doc };
    const file = this.files.get(uri);
    if (file && file.contents.includes('\0'))
      return { ok: false, reason: 'binary', message: 'File seems to be binary and cannot be opened as text' };
    return { ok: false, reason: 'other', message: `cannot open ${uri}: file not found` };
  }

  async stat(uri: string): Promise<FileStat> {
    await Promise.resolve();
    const file = this.files.get(uri);
    if (!file) return { kind: 'missing' };
    return { kind: 'file', size: file.size, mtime: file.mtime };
  }

  async readFile(uri: string): Promise<Uint8Array> {
    await Promise.resolve();
    const file = this.files.get(uri);
    if (!file) throw new Error(`EntryNotFound: ${uri}`);
    return file.bytes ?? new TextEncoder().encode(file.contents);
  }

  /** The files an editor shows (a test says which): the user may type in them. */
  readonly shown = new Set<string>();
  /** The files in a folder of `files.watcherExclude` (a test says which): the editor never hears of their changes. */
  readonly unwatched = new Set<string>();

  shows(uri: string): boolean {
    return this.shown.has(uri);
  }

  followsDisk(uri: string): boolean {
    return !this.unwatched.has(uri);
  }

  writesStraightToDisk(uri: string): boolean {
    return typeof this.straightToDisk === 'boolean'
      ? this.straightToDisk && !this.formatter
      : this.straightToDisk.has(uri) && !this.formatter;
  }

  async writeFileIf(uri: string, bytes: Uint8Array, holds: (current: Uint8Array) => boolean): Promise<boolean> {
    await Promise.resolve();
    // the comparison and the write in one step, as VS Code's adapter does them for a local file
    const file = this.files.get(uri);
    if (!file || !holds(file.bytes ?? new TextEncoder().encode(file.contents))) return false;
    this.directWrites++;
    // the editor's own write: no watch takes it for another program's
    this.writingOwn = true;
    try {
      this.writeDisk(uri, new TextDecoder().decode(bytes));
    } finally {
      this.writingOwn = false;
    }
    return true;
  }

  async applyEdits(document: EditorDocument, edits: readonly TextSpanEdit[]): Promise<boolean> {
    const doc = document as MemoryDocument;
    const version = doc.version; // the edit is made for this version
    const race = this.beforeApply;
    this.beforeApply = undefined;
    race?.(doc.uri);
    await Promise.resolve();
    if (doc.isClosed || doc.version !== version) return false;
    const written = edits.map((e) => ({ ...e, text: withEol(e.text, doc.eol) }));
    this.pendingLoads.delete(doc.uri);
    doc.change(applySpanEdits(doc.text, written), true);
    return true;
  }

  async createFile(uri: string, bytes: Uint8Array): Promise<boolean> {
    await Promise.resolve();
    if (this.files.has(uri)) return false;
    const contents = new TextDecoder().decode(bytes);
    this.files.set(uri, { contents, mtime: ++this.clock, size: Buffer.byteLength(contents, 'utf8') });
    // VS Code reverts an open document of the path to the new file, unsaved changes or not
    const doc = this.documents.get(uri);
    if (doc) this.loadFromDisk(doc);
    return true;
  }

  async removeFile(uri: string): Promise<boolean> {
    await Promise.resolve();
    if (!this.files.delete(uri)) return false;
    // VS Code closes a clean document whose file it deleted itself
    const doc = this.documents.get(uri);
    if (doc && !doc.isDirty) {
      doc.isClosed = true;
      this.documents.delete(uri);
    }
    this.pendingLoads.delete(uri);
    return true;
  }

  async save(document: EditorDocument): Promise<boolean> {
    const doc = document as MemoryDocument;
    await Promise.resolve();
    // as VS Code's TextDocument.save: nothing to save in a clean document (false)
    if (doc.isClosed || this.saveFails || !doc.isDirty) return false;
    if (this.formatter) {
      const formatted = withEol(this.formatter(doc.text), doc.eol);
      if (formatted !== doc.text) doc.change(formatted, true);
    }
    const during = this.duringSave;
    this.duringSave = undefined;
    during?.(doc);
    const snapshotVersion = doc.version;
    const file = this.files.get(doc.uri);
    // "the content of the file is newer" — unless what it writes is byte for byte what the file holds
    if (file && file.mtime > doc.stat.mtime && file.size !== doc.stat.size && file.contents !== doc.text) return false;
    this.files.set(doc.uri, { contents: doc.text, mtime: ++this.clock, size: Buffer.byteLength(doc.text, 'utf8') });
    doc.stat = { mtime: this.clock, size: Buffer.byteLength(doc.text, 'utf8') };
    this.pendingLoads.delete(doc.uri);
    const after = this.afterSave;
    this.afterSave = undefined;
    after?.(doc);
    // VS Code marks the document saved only if nothing changed since the text it wrote
    if (doc.version === snapshotVersion) doc.isDirty = false;
    this.saves++;
    return true;
  }

  async reload(document: EditorDocument): Promise<boolean> {
    const doc = document as MemoryDocument;
    await Promise.resolve();
    if (doc.isClosed || !this.files.has(doc.uri)) return false;
    this.pendingLoads.delete(doc.uri);
    this.loadFromDisk(doc);
    this.reloads++;
    return !doc.isDirty;
  }

  openDocuments(): readonly EditorDocument[] {
    return [...this.documents.values()].filter((d) => !d.isClosed);
  }

  /** The watches running: each hears another program's writes and deletes as they happen (VS Code's watcher, without its lag). */
  private readonly watches = new Set<(uri: string, kind: DiskChange['kind']) => void>();
  private writingOwn = false;

  private report(uri: string, kind: DiskChange['kind']): void {
    for (const w of this.watches) w(uri, kind);
  }

  watchDisk(): DiskWatch {
    const seen = new Map<string, DiskChange['kind']>();
    const listener = (uri: string, kind: DiskChange['kind']) => {
      const before = seen.get(uri);
      seen.set(uri, before === 'created' && kind !== 'deleted' ? 'created' : before === 'deleted' && kind === 'created' ? 'changed' : kind);
    };
    this.watches.add(listener);
    return {
      // its reports are whole and at once: nothing to look at besides
      stop: async () => {
        await Promise.resolve();
        this.watches.delete(listener);
        return [...seen].map(([uri, kind]) => ({ uri, kind }));
      },
    };
  }

  async nextChange(document: EditorDocument, _ms: number): Promise<boolean> {
    await Promise.resolve();
    const doc = document as MemoryDocument;
    if (this.diskLoads === 'late' && this.pendingLoads.delete(doc.uri)) {
      const version = doc.version;
      this.loadFromDisk(doc);
      // a load that leaves the text as it is fires no change
      if (doc.version !== version) return true;
    }
    return false; // nothing changes in time
  }

  sync(asOf?: Instant): Promise<void> {
    return this.barrier.pass(asOf);
  }

  async stillAt(document: EditorDocument): Promise<boolean> {
    const version = document.version;
    const flying = this.inFlight;
    this.inFlight = undefined;
    flying?.();
    await Promise.resolve();
    return !document.isClosed && document.version === version;
  }

  defaultEol(): Eol {
    return this.defaultLineEnding;
  }

  private openFromDisk(uri: string): MemoryDocument | undefined {
    const file = this.files.get(uri);
    if (!file || file.contents.includes('\0')) return undefined;
    const held = asEditorHolds(file.contents, this.defaultLineEnding);
    const doc = new MemoryDocument(uri, held.text, held.eol);
    doc.stat = { mtime: file.mtime, size: file.size };
    this.documents.set(uri, doc);
    return doc;
  }

  /** The document loads its file again (a watcher event, or a revert). */
  private loadFromDisk(doc: MemoryDocument): void {
    const file = this.files.get(doc.uri);
    if (!file) return;
    const held = asEditorHolds(file.contents, this.defaultLineEnding);
    doc.eol = held.eol;
    doc.stat = { mtime: file.mtime, size: file.size };
    if (held.text !== doc.text || doc.isDirty) doc.change(held.text, false);
  }
}
