// A reference model of the read-before-write gate AND of the editor it runs in, written from the
// gate's rules ("The gate", "Chat sessions and turns", result codes) and from VS Code's document
// lifecycle as the real host shows it (test/integration/documents.test.ts), not from src/: the
// property test drives the real core (`GuardedTools` over `EditorDocuments` over the editor model of
// memoryEditor.ts) and this model with the same random operations and demands that they agree.
//
// It knows nothing of the core's data structures. It keeps, per chat and file, the list of marks
// (hash of the whole text, origin, turn, arrival order) and, per file, the bytes on disk and the open
// document (its text, line ending, unsaved flag, and whether it still has to load a disk change), and
// predicts each call's status, reason or code and what it leaves in the editor and on disk.
//
// The editor, as VS Code has it:
// - one line ending per document: a file's text is normalised when loaded (CRLF when carriage
//   returns are more than half of the line breaks, a lone CR being one; LF otherwise; the default,
//   LF here, when there is none), and every edit's text is written with the document's ending;
// - an edit makes a document dirty; a save makes it clean and puts its text on disk;
// - a clean document follows a disk change at once, late, or never (`diskLoads`); a dirty one keeps
//   its text; a dropped (evicted) document is simply not open, and VS Code never drops a dirty one;
// - a deleted file's dirty document stays open; creating the file reverts an open document to it;
// - a document knows the file's stat from its last load or save; a save is refused when the file's
//   time moved on and its size differs (the editor's "the content of the file is newer").
// The gate on top:
// - a file's current text is its dirty document's, else the disk's as the editor holds (or will
//   hold) it; the file exists while the disk has it or a dirty document holds it;
// - a write to a clean document that lags the disk waits for the load (`late`), or goes to the disk
//   when the editor never loads it (`never`); so does a write to a document whose file changed
//   without a change of the text (only line endings) that the editor has not taken in yet: it would
//   refuse the save;
// - an agent write saves only a document that was clean, and only while it holds exactly the agent's
//   text: a keystroke that reached the document first stays unsaved (`inFlight`); one typed during the
//   save is saved with it and shown to the agent (`duringSave`); one after the save's snapshot stays
//   unsaved and is shown too (`afterSave`).
//
// Assumptions where the rules are silent (kept explicit so they can be argued with):
// - the gate is checked before the edit is planned: a replace that would also not match, on a file
//   the chat has not seen, is *blocked* (the refusal is the more useful answer: it shows the text);
// - an error result (invalid-input, no-match, ambiguous, not-found) stamps no mark;
// - a write to a file that does not exist creates it, with or without `append`.
// - rule 11 (`duplicate`) is not modelled: the property test's texts (test/unit/gate.property.test.ts,
//   at most 8 tokens of at most 3 characters) never reach its threshold of 60 non-whitespace
//   characters, so no generated write is a duplicate; test/unit/duplicate.test.ts covers the rule.
import { createHash } from 'node:crypto';

export type Policy = 'sameTurn' | 'never' | 'always';
export type Origin = 'read' | 'refusal' | 'write';
export type Reason = 'not-read' | 'changed' | 'own-write-expired';
export type Eol = '\n' | '\r\n';
export type DiskLoads = 'at once' | 'late' | 'never';

export const hashOf = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** VS Code's rule for a text's one line ending, and the text written with it. */
export function editorText(contents: string, defaultEol: Eol = '\n'): { text: string; eol: Eol } {
  const breaks = contents.match(/\r\n|\r|\n/g) ?? [];
  if (breaks.length === 0) return { text: contents, eol: defaultEol };
  const carriageReturns = breaks.filter((b) => b !== '\n').length;
  const eol: Eol = carriageReturns > breaks.length / 2 ? '\r\n' : '\n';
  return { text: withEol(contents, eol), eol };
}

export const withEol = (text: string, eol: Eol): string => text.replace(/\r\n|\r|\n/g, eol);
const lf = (text: string) => text.replace(/\r\n/g, '\n');

export interface ModelDocument {
  text: string;
  eol: Eol;
  dirty: boolean;
  /** clean, and the disk changed since it loaded */
  lagging: boolean;
  /** the editor has taken in the file's latest stat (mtime and size), of `statSize` bytes */
  statCurrent: boolean;
  statSize: number;
}

export interface ModelFile {
  /** the file's bytes, as text; `undefined`: not on disk */
  disk: string | undefined;
  /** the document the editor holds, if open */
  doc: ModelDocument | undefined;
}

export interface ModelMark {
  hash: string;
  origin: Origin;
  turn: string | undefined;
  /** order of stamping: a call counts only marks with seq < its arrival */
  seq: number;
}

export type Expected =
  | { status: 'ok'; created?: boolean; failOpen?: boolean; saved: boolean; keptUnsaved: boolean }
  | { status: 'blocked'; reason: Reason }
  | { status: 'error'; code: string };

export interface CallSite {
  session: string;
  uri: string;
  /** `undefined`: the caller passed no turn id, the call is a turn of its own */
  turn: string | undefined;
  /** the model's seq counter when the call arrived */
  arrival: number;
}

/** The user's keystrokes around an agent write: the text the document gets, at one moment of the write. */
export interface Keystroke {
  /** before the edit lands (the edit is refused), while it is on its way to the save check (not saved), during the save (saved), after the save took its text (unsaved) */
  when: 'beforeEdit' | 'inFlight' | 'duringSave' | 'afterSave';
  text: string;
}

const key = (session: string, uri: string) => `${session}\u0000${uri}`;
const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** Number of lines as a reader counts them: a final line break does not start another line. */
export function lineCount(text: string): number {
  if (text === '') return 0;
  const parts = lf(text).split('\n');
  return parts[parts.length - 1] === '' ? parts.length - 1 : parts.length;
}

/** Exact, non-overlapping occurrences of `needle`, left to right. */
export function occurrences(text: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

export class ReferenceModel {
  readonly files = new Map<string, ModelFile>();
  private readonly marks = new Map<string, ModelMark[]>();
  private seq = 1;
  enabled = true;
  diskLoads: DiskLoads = 'at once';
  /** No editor shows the files and no save participant changes them: a clean document's edit goes to the disk itself. */
  straightToDisk = false;

  constructor(public policy: Policy) {}

  /** The arrival stamp of a call that arrives now. */
  get watermark(): number {
    return this.seq;
  }

  private file(uri: string): ModelFile {
    let f = this.files.get(uri);
    if (!f) this.files.set(uri, (f = { disk: undefined, doc: undefined }));
    return f;
  }

  /** The file's current text (what the gate hashes), or `undefined` when the file does not exist. */
  current(uri: string): string | undefined {
    const f = this.files.get(uri);
    if (!f) return undefined;
    if (f.doc?.dirty) return f.doc.text;
    return f.disk === undefined ? undefined : editorText(f.disk).text;
  }

  /** The line ending an edit of the file is written with. */
  private eolOf(f: ModelFile): Eol {
    if (f.doc && (f.doc.dirty || !f.doc.lagging)) return f.doc.eol;
    return editorText(f.disk ?? '').eol;
  }

  /** The editor opens the file's document (a tool looked at it, or the user did). */
  private open(f: ModelFile): ModelDocument | undefined {
    if (!f.doc && f.disk !== undefined) {
      f.doc = { ...editorText(f.disk), dirty: false, lagging: false, statCurrent: true, statSize: bytes(f.disk) };
    }
    return f.doc;
  }

  /** The document gets a new text (a new version). */
  private setText(doc: ModelDocument, text: string, dirty: boolean): void {
    doc.text = text;
    doc.dirty = dirty;
  }

  /** The document loads its file (a late load, a revert): text, line ending and stat. */
  private reload(f: ModelFile): void {
    if (!f.doc || f.disk === undefined) return;
    const held = editorText(f.disk);
    this.setText(f.doc, held.text, false);
    Object.assign(f.doc, { eol: held.eol, lagging: false, statCurrent: true, statSize: bytes(f.disk) });
  }

  /** The file's bytes changed (another program, or the agent past the editor): how its document follows. */
  private diskWritten(f: ModelFile): void {
    const doc = f.doc;
    if (!doc) return;
    if (doc.dirty || f.disk === undefined) {
      doc.statCurrent = false;
      return;
    }
    if (this.diskLoads === 'at once') return this.reload(f);
    doc.lagging = editorText(f.disk).text !== doc.text;
    doc.statCurrent = false;
  }

  // ---- the world outside the agent ---------------------------------------------------------

  addFile(uri: string, contents: string): void {
    this.diskChange(uri, contents);
  }

  /** The user types in the editor (opening the file if need be), unsaved. */
  userEdit(uri: string, text: string): boolean {
    const f = this.file(uri);
    const doc = this.open(f);
    if (!doc) return false;
    const typed = withEol(text, doc.eol);
    if (typed === doc.text) return true;
    this.setText(doc, typed, true);
    doc.lagging = false;
    return true;
  }

  /** Another program writes the file; a clean document follows it as `diskLoads` says, a dirty one keeps its text. */
  diskChange(uri: string, contents: string): void {
    const f = this.file(uri);
    f.disk = contents;
    this.diskWritten(f);
  }

  /** Another program deletes the file; its document (if open) stays as it is. */
  deleteFile(uri: string): void {
    const f = this.file(uri);
    f.disk = undefined;
    if (f.doc) f.doc.lagging = false;
  }

  /** VS Code drops the file's document, unless it has unsaved changes. */
  evict(uri: string): void {
    const f = this.files.get(uri);
    if (f?.doc && !f.doc.dirty) f.doc = undefined;
  }

  /** Late disk loads happen (those that change the text, and those that only take in the stat). */
  loadPending(): void {
    for (const f of this.files.values()) if (f.doc && !f.doc.dirty && (f.doc.lagging || !f.doc.statCurrent)) this.reload(f);
  }

  /** Forget marks: all, one chat's, or one chat's for one file. */
  clear(session?: string, uri?: string): void {
    for (const k of [...this.marks.keys()]) {
      const [s, u] = k.split('\u0000');
      if ((session === undefined || s === session) && (uri === undefined || u === uri)) this.marks.delete(k);
    }
  }

  // ---- what the gate knows ----------------------------------------------------------------

  newest(session: string, uri: string, before = Infinity): ModelMark | undefined {
    const list = this.marks.get(key(session, uri)) ?? [];
    for (let i = list.length - 1; i >= 0; i--) if (list[i].seq < before) return list[i];
    return undefined;
  }

  private stamp(session: string, uri: string, hash: string, origin: Origin, turn: string | undefined): void {
    const k = key(session, uri);
    const list = this.marks.get(k) ?? [];
    list.push({ hash, origin, turn, seq: this.seq++ });
    this.marks.set(k, list);
  }

  /** Rule 3: does the chat's own earlier write count as having seen the file, for a call in `turn`? */
  ownWriteCounts(markTurn: string | undefined, turn: string | undefined): boolean {
    if (this.policy === 'always') return true;
    if (this.policy === 'never') return false;
    return turn !== undefined && markTurn === turn;
  }

  /** Rules 2, 3, 8: may a change of an existing file pass? */
  private gate(call: CallSite, text: string): { allow: true } | { allow: false; reason: Reason } {
    if (!this.enabled) return { allow: true };
    const mark = this.newest(call.session, call.uri, call.arrival);
    if (!mark) return { allow: false, reason: 'not-read' };
    if (mark.hash !== hashOf(text)) return { allow: false, reason: 'changed' };
    if (mark.origin === 'write' && !this.ownWriteCounts(mark.turn, call.turn)) return { allow: false, reason: 'own-write-expired' };
    return { allow: true };
  }

  // ---- the tools --------------------------------------------------------------------------

  read(call: CallSite, range: { offset?: number; limit?: number }): Expected {
    const text = this.current(call.uri);
    if (text === undefined) return { status: 'error', code: 'not-found' };
    // the tool opens the document (if the file is on disk)
    this.open(this.file(call.uri));
    if (range.offset !== undefined && range.offset > Math.max(lineCount(text), 1)) return { status: 'error', code: 'invalid-input' };
    // rule 1: a ranged read marks the whole text
    this.stamp(call.session, call.uri, hashOf(text), 'read', call.turn);
    return { status: 'ok', saved: false, keptUnsaved: false };
  }

  write(call: CallSite, content: string, append: boolean, opts: ChangeOptions = {}): Expected {
    if (this.current(call.uri) === undefined) return this.create(call, content);
    return this.change(call, (text, eol) => ({ newText: append ? text + withEol(content, eol) : withEol(content, eol) }), opts);
  }

  replace(call: CallSite, oldString: string, newString: string, replaceAll: boolean, opts: ChangeOptions = {}): Expected {
    if (this.current(call.uri) === undefined) return { status: 'error', code: 'not-found' }; // rule 5
    return this.change(
      call,
      (text, eol) => {
        if (oldString === newString) return { code: 'invalid-input' };
        if (oldString === '') return text === '' ? { newText: withEol(newString, eol) } : { code: 'invalid-input' };
        // an oldString written with \n matches the document's CRLF; the replacement gets its line ending
        const folded = lf(text);
        const needle = lf(oldString);
        const at = occurrences(folded, needle);
        if (at.length === 0) return { code: 'no-match' };
        if (at.length > 1 && !replaceAll) return { code: 'ambiguous' };
        // the editor writes the inserted text's line breaks (each on its own) with the document's ending
        return { newText: withEol(folded.split(needle).join(withEol(newString, '\n')), eol) };
      },
      opts,
    );
  }

  private create(call: CallSite, content: string): Expected {
    // rule 4: creating a file that does not exist needs no read; an open document of the path
    // (deleted file, no unsaved changes) reverts to the new file at once
    const f = this.file(call.uri);
    f.disk = content;
    if (f.doc) this.reload(f);
    this.stamp(call.session, call.uri, hashOf(editorText(content).text), 'write', call.turn);
    return { status: 'ok', created: true, saved: true, keptUnsaved: false };
  }

  private change(call: CallSite, plan: (text: string, eol: Eol) => { newText: string } | { code: string }, opts: ChangeOptions): Expected {
    const f = this.files.get(call.uri)!;
    const text = this.current(call.uri)!;
    // the tool loads the file: the editor opens its document, whatever the gate then decides
    this.open(f);
    const decision = opts.fault ? ({ allow: true } as const) : this.gate(call, text);
    if (!decision.allow) {
      // rule 6: a refusal shows the current text and counts as having seen it
      this.stamp(call.session, call.uri, hashOf(text), 'refusal', call.turn);
      return { status: 'blocked', reason: decision.reason };
    }
    const planned = plan(text, this.eolOf(f));
    if ('code' in planned) return { status: 'error', code: planned.code };
    const newText = planned.newText;
    const failOpen = opts.fault ? { failOpen: true } : {};
    const doc = f.doc!;
    const wrote = (hash: string, result: Omit<Extract<Expected, { status: 'ok' }>, 'status'>): Expected => {
      this.stamp(call.session, call.uri, hash, 'write', call.turn);
      return { status: 'ok', ...result, ...failOpen };
    };

    // a clean document behind the disk: one that has to load the new text, or one whose text is the
    // same but whose new stat the editor has not taken in (it would refuse the save)
    // or a clean document no editor shows: its edit is compared with the disk and written in one step
    if (!doc.dirty && (this.straightToDisk || doc.lagging || (!doc.statCurrent && f.disk !== undefined))) {
      if (!this.straightToDisk && doc.lagging && this.diskLoads === 'late') {
        this.reload(f); // the write waits for the late load
      } else {
        // the editor never loads the disk, or may not have taken in its stat: the edit goes to the
        // file itself, and the document follows as it follows any disk change — unless a keystroke on its way
        // reaches the document at the round trip before that write: the call meets a changed text
        const k = opts.keystroke;
        if (k?.when === 'inFlight' && withEol(k.text, doc.eol) !== doc.text) {
          const typed = withEol(k.text, doc.eol);
          this.setText(doc, typed, true);
          this.stamp(call.session, call.uri, hashOf(typed), 'refusal', call.turn);
          return { status: 'blocked', reason: 'changed' };
        }
        f.disk = newText;
        this.diskWritten(f);
        return wrote(hashOf(newText), { saved: true, keptUnsaved: false });
      }
    }
    const k = opts.keystroke;
    if (k?.when === 'beforeEdit') {
      // the user types between the check and the edit (rule 9): the edit, made for the version that
      // was checked, must not land; the refusal shows the text as it is now
      const typed = withEol(k.text, doc.eol);
      if (typed !== doc.text) {
        this.setText(doc, typed, true);
        this.stamp(call.session, call.uri, hashOf(typed), 'refusal', call.turn);
        return { status: 'blocked', reason: 'changed' };
      }
    }
    const wasDirty = doc.dirty;
    this.setText(doc, newText, true);
    // the user's unsaved work is not saved behind their back
    if (wasDirty) return wrote(hashOf(newText), { saved: false, keptUnsaved: true });
    if (k?.when === 'inFlight' && withEol(k.text, doc.eol) !== doc.text) {
      // it reached the document before the save check: nothing is saved
      this.setText(doc, withEol(k.text, doc.eol), true);
      return wrote(hashOf(newText), { saved: false, keptUnsaved: true });
    }
    if (k?.when === 'duringSave') this.setText(doc, withEol(k.text, doc.eol), true);
    if (f.disk !== undefined && !doc.statCurrent && bytes(f.disk) !== doc.statSize) {
      // the editor refuses the save: its stat is older than the file's, and the size differs
      return wrote(hashOf(newText), { saved: false, keptUnsaved: false });
    }
    f.disk = doc.text;
    Object.assign(doc, { dirty: false, statCurrent: true, statSize: bytes(doc.text) });
    if (k?.when === 'afterSave') {
      const typed = withEol(k.text, doc.eol);
      if (typed !== doc.text) this.setText(doc, typed, true);
    }
    // the agent is shown what the save left (a diff), and its mark is of that
    return wrote(hashOf(doc.text), { saved: true, keptUnsaved: false });
  }
}

export interface ChangeOptions {
  /** the gate throws internally (rule 7: fail open) */
  fault?: boolean;
  /** the user types while the write runs */
  keystroke?: Keystroke;
}
