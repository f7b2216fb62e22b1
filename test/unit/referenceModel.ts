// A reference model of the read-before-write gate, written from DESIGN.md ("The gate", "Chat
// sessions and turns", result codes) and not from src/: the property test drives the real core
// (`Guard`) and this model with the same random operations and demands that they agree.
//
// It deliberately knows nothing of the core's data structures. It keeps, per chat and file, the
// list of marks (hash of the whole text, origin, turn, arrival order) and, per file, the editor
// buffer, the disk text and the dirty flag, and it predicts each tool call's status, reason or code.
//
// Assumptions where DESIGN.md is silent (kept explicit so they can be argued with):
// - the gate is checked before the edit is planned: a replace that would also not match, on a file
//   the chat has not seen, is *blocked* (the refusal is the more useful answer: it shows the text);
// - an error result (invalid-input, no-match, ambiguous, not-found) stamps no mark;
// - texts in the property test have LF line endings only (CRLF handling has its own unit tests),
//   so exact matching here is plain `indexOf` matching;
// - a write to a file that does not exist creates it, with or without `append`.
import { createHash } from 'node:crypto';

export type Policy = 'sameTurn' | 'never' | 'always';
export type Origin = 'read' | 'refusal' | 'write';
export type Reason = 'not-read' | 'changed' | 'own-write-expired';

export const hashOf = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export interface ModelFile {
  /** the editor's text (unsaved changes included) */
  text: string;
  /** the bytes on disk, as text */
  disk: string;
  dirty: boolean;
}

export interface ModelMark {
  hash: string;
  origin: Origin;
  turn: string | undefined;
  /** order of stamping: a call counts only marks with seq < its arrival */
  seq: number;
}

export type Expected =
  | { status: 'ok'; created?: boolean; failOpen?: boolean }
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

const key = (session: string, uri: string) => `${session}\u0000${uri}`;

/** Number of lines as a reader counts them: a final newline does not start another line. */
export function lineCount(text: string): number {
  if (text === '') return 0;
  const parts = text.split('\n');
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

  constructor(public policy: Policy) {}

  /** The arrival stamp of a call that arrives now. */
  get watermark(): number {
    return this.seq;
  }

  // ---- the world outside the agent ---------------------------------------------------------

  addFile(uri: string, text: string): void {
    this.files.set(uri, { text, disk: text, dirty: false });
  }

  /** The user types in the editor, unsaved. */
  userEdit(uri: string, text: string): boolean {
    const f = this.files.get(uri);
    if (!f) return false;
    f.text = text;
    f.dirty = f.text !== f.disk;
    return true;
  }

  /** Another program writes the file; a clean document follows the disk, a dirty one keeps its text. */
  diskChange(uri: string, text: string): void {
    const f = this.files.get(uri);
    if (!f) return this.addFile(uri, text);
    f.disk = text;
    if (!f.dirty) f.text = text;
  }

  deleteFile(uri: string): void {
    this.files.delete(uri);
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
    const f = this.files.get(call.uri);
    if (!f) return { status: 'error', code: 'not-found' };
    if (range.offset !== undefined && range.offset > Math.max(lineCount(f.text), 1)) return { status: 'error', code: 'invalid-input' };
    // rule 1: a ranged read marks the whole text
    this.stamp(call.session, call.uri, hashOf(f.text), 'read', call.turn);
    return { status: 'ok' };
  }

  write(call: CallSite, content: string, append: boolean, opts: ChangeOptions = {}): Expected {
    if (!this.files.has(call.uri)) return this.create(call, content);
    return this.change(call, (text) => ({ newText: append ? text + content : content }), opts);
  }

  replace(call: CallSite, oldString: string, newString: string, replaceAll: boolean, opts: ChangeOptions = {}): Expected {
    if (!this.files.has(call.uri)) return { status: 'error', code: 'not-found' }; // rule 5
    return this.change(
      call,
      (text) => {
        if (oldString === newString) return { code: 'invalid-input' };
        if (oldString === '') return text === '' ? { newText: newString } : { code: 'invalid-input' };
        const at = occurrences(text, oldString);
        if (at.length === 0) return { code: 'no-match' };
        if (at.length > 1 && !replaceAll) return { code: 'ambiguous' };
        return { newText: text.split(oldString).join(newString) };
      },
      opts,
    );
  }

  private create(call: CallSite, content: string): Expected {
    // rule 4: creating a file that does not exist needs no read
    this.addFile(call.uri, content);
    this.stamp(call.session, call.uri, hashOf(content), 'write', call.turn);
    return { status: 'ok', created: true };
  }

  private change(call: CallSite, plan: (text: string) => { newText: string } | { code: string }, opts: ChangeOptions): Expected {
    const f = this.files.get(call.uri)!;
    const decision = opts.fault ? ({ allow: true } as const) : this.gate(call, f.text);
    if (!decision.allow) {
      // rule 6: a refusal shows the current text and counts as having seen it
      this.stamp(call.session, call.uri, hashOf(f.text), 'refusal', call.turn);
      return { status: 'blocked', reason: decision.reason };
    }
    const planned = plan(f.text);
    if ('code' in planned) return { status: 'error', code: planned.code };
    if (opts.raceText !== undefined) {
      // the user types between the check and the edit (rule 9): if the text moved, the edit must
      // not land; the refusal shows the text as it is now
      const checked = f.text;
      this.userEdit(call.uri, opts.raceText);
      if (f.text !== checked) {
        this.stamp(call.session, call.uri, hashOf(f.text), 'refusal', call.turn);
        return { status: 'blocked', reason: 'changed' };
      }
    }
    const wasDirty = f.dirty;
    f.text = planned.newText;
    if (wasDirty) {
      // the user's unsaved work is not saved behind their back
      f.dirty = f.text !== f.disk;
    } else {
      f.disk = f.text;
      f.dirty = false;
    }
    this.stamp(call.session, call.uri, hashOf(f.text), 'write', call.turn);
    return opts.fault ? { status: 'ok', failOpen: true } : { status: 'ok' };
  }
}

export interface ChangeOptions {
  /** the gate throws internally (rule 7: fail open) */
  fault?: boolean;
  /** a user edit lands between the gate's check and the edit */
  raceText?: string;
}
