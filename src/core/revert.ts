// The user takes agent edits back (docs/design.md §Revert). Per file, under the gate's lock (no
// agent write lands in between): the file's current text, with each chosen edit taken out newest
// first by a three-way merge (merge.ts), so what changed since — the user's typing, a formatter,
// another chat — stays; a file the agent created is an edit from the empty text, deleted when nothing
// else is left in it. Nothing is written unless every edit of the file comes out cleanly; a
// conflict, a file gone, or a text the record lost changes nothing and says so. A file the agent
// deleted (or moved away) comes back with the text it had — never over a file that stands there now. The revert goes into
// the editor like any edit and is saved only if the buffer had no unsaved changes before (the rule
// for agents' writes): the user's unsaved work is never saved behind their back.
// Stateless: the edit record (editRecord.ts) owns the edits, runs this per file under the gate's lock
// and marks what it reverted.
import type { LineSpan, RecordedEdit } from './types';
import { sha256 } from './hash';
import { type ConflictLabels, revertChange } from './merge';
import type { TextSpanEdit } from './replace';
import { commonPrefix, commonSuffix } from './text';
import type { DocumentPort } from './ports';

export type FileRevert = { uri: string; ids: string[] } & (
  | {
      kind: 'reverted';
      /** The file had changed since the agent's edit, and those later changes were kept. */
      keptLaterChanges: boolean;
      saved: boolean;
      /** The buffer had unsaved changes: the revert went into it and was left unsaved. */
      keptUnsaved: boolean;
      /** The agent had created the file, and nothing anyone else wrote was left in it: it was deleted. */
      deleted: boolean;
      /** The agent had deleted (or moved away) the file: it was made again, with the text it had. */
      restored: boolean;
    }
  /** Nothing left to undo: the file already holds the text from before the edits. */
  | { kind: 'unchanged' }
  /**
   * Later changes overlap the agent's (in a file the agent created, too): nothing was written.
   * `lines`: where, in `current`; `marked`: the text with conflict markers, for the user to look at or resolve.
   */
  | { kind: 'conflict'; lines: LineSpan[]; marked: string; current: string }
  /** The file was deleted or renamed since: nothing was created. */
  | { kind: 'missing' }
  /** The agent had deleted the file, and a file stands there now: nothing was restored over it. */
  | { kind: 'occupied' }
  /** The file could not be read (`message`: the editor's reason), changed while the revert ran, or the record lost a text. */
  | { kind: 'failed'; why: 'unreadable' | 'changed-meanwhile' | 'text-lost'; message?: string }
);

/** A file's revert as it came out, and the hash of the text it left when it changed the file. */
export interface FileRevertDone {
  outcome: FileRevert;
  /** The hash of the text the revert left (what the chats that saw the agent's version now lack); absent when nothing was written. */
  leftHash?: string;
}

/** Where a revert reads the recorded texts from: the edit record (`EditRecord.text`). */
export type RecordedText = (hash: string) => Promise<string | undefined>;

/**
 * Takes `newestFirst` (one file's edits, not reverted yet, newest first) out of the file. The caller
 * holds the file's lock (the edit record runs it under the gate's), marks the edits reverted and tells
 * the gate the hash left.
 */
export async function revertFile(
  port: DocumentPort,
  recordedText: RecordedText,
  labels: ConflictLabels,
  uri: string,
  newestFirst: readonly RecordedEdit[],
): Promise<FileRevertDone> {
  const ids = newestFirst.map((r) => r.id);
  const doc = await port.load(uri);
  if (doc.exists === 'error') return { outcome: { uri, ids, kind: 'failed', why: 'unreadable', message: doc.message } };
  const createdFirst = newestFirst[newestFirst.length - 1].beforeHash === undefined;
  // the newest edit deleted the file: it comes back with the text it had, never over a file that is there now
  const restoring = newestFirst[0].deleted === true;
  if (restoring && doc.exists) return { outcome: { uri, ids, kind: 'occupied' } };
  if (!restoring && !doc.exists) return { outcome: createdFirst ? { uri, ids, kind: 'unchanged' } : { uri, ids, kind: 'missing' } };

  // the file's text once each edit is taken out
  let text = doc.exists ? doc.text : '';
  let keptLaterChanges = false;
  let created = false;
  for (const edit of newestFirst) {
    const after = await recordedText(edit.afterHash);
    const before = edit.beforeHash === undefined ? undefined : await recordedText(edit.beforeHash);
    if (after === undefined || (edit.beforeHash !== undefined && before === undefined)) {
      return { outcome: { uri, ids, kind: 'failed', why: 'text-lost' } };
    }
    if (edit.deleted) {
      // nothing could change a file that was not there: the text it had is the text to go on from
      text = before ?? '';
      continue;
    }
    // the file holds something other than what the newest edit left: changes made since are kept
    if (edit === newestFirst[0] && doc.exists) keptLaterChanges = doc.text !== after;
    // a file the agent created is an edit from the empty text: what others wrote into it since stays
    const merged = revertChange(text, after, before ?? '', labels);
    if (merged.kind === 'conflict') {
      return { outcome: { uri, ids, kind: 'conflict', lines: merged.lines, marked: merged.marked, current: doc.exists ? doc.text : text } };
    }
    text = merged.text;
    created = before === undefined;
    if (created) break; // older edits are of an earlier life of the file, before the agent created it
  }

  if (restoring || !doc.exists) {
    // the agent made it and took it away again: nothing to bring back
    if (created && text === '') return { outcome: { uri, ids, kind: 'unchanged' } };
    const made = await port.create(uri, text);
    if (!made.created) return { outcome: { uri, ids, kind: 'occupied' } };
    return {
      outcome: { uri, ids, kind: 'reverted', keptLaterChanges: false, saved: true, keptUnsaved: false, deleted: false, restored: true },
      leftHash: made.hash,
    };
  }

  // nothing but the agent's text was in the file it created: it goes as it came, unless the
  // buffer holds unsaved changes, which are the user's to save or close (then it is emptied, unsaved)
  if (created && text === '' && !doc.dirty) {
    if (!(await port.remove(uri, doc.hash))) return { outcome: { uri, ids, kind: 'failed', why: 'changed-meanwhile' } };
    return {
      outcome: { uri, ids, kind: 'reverted', keptLaterChanges: false, saved: true, keptUnsaved: false, deleted: true, restored: false },
      leftHash: '',
    };
  }
  if (text === doc.text) return { outcome: { uri, ids, kind: 'unchanged' } };
  const hash = sha256(text);
  const applied = await port.applyEdits(uri, doc.hash, [spanEdit(doc.text, text)], { text, hash });
  if (!applied.applied) return { outcome: { uri, ids, kind: 'failed', why: 'changed-meanwhile' } };
  let saved = applied.onDisk !== undefined;
  let left = text;
  if (!doc.dirty && !applied.onDisk) {
    const save = await port.save(uri, hash, doc.hash);
    // the file on disk changed meanwhile, or the editor could not save: the revert is taken back out of the editor
    if (!save.saved && save.why !== 'changed') {
      await port.followDisk(uri, hash);
      return { outcome: { uri, ids, kind: 'failed', why: 'changed-meanwhile' } };
    }
    saved = save.saved;
    if (save.saved && save.after !== undefined) left = save.after;
  }
  return {
    outcome: { uri, ids, kind: 'reverted', keptLaterChanges, saved, keptUnsaved: doc.dirty, deleted: false, restored: false },
    leftHash: left === text ? hash : sha256(left),
  };
}

/** One edit from `from` to `to`: the span between their common start and end. */
export function spanEdit(from: string, to: string): TextSpanEdit {
  const max = Math.min(from.length, to.length);
  let start = commonPrefix(from, to, max);
  let end = commonSuffix(from, to, max - start);
  // never split a surrogate pair or a CRLF: the editor would see half a character or half a break
  while (start > 0 && (isLowSurrogate(from.charCodeAt(start)) || (from[start] === '\n' && from[start - 1] === '\r'))) start--;
  while (
    end > 0 &&
    (isLowSurrogate(from.charCodeAt(from.length - end)) || (from[from.length - end] === '\n' && from[from.length - end - 1] === '\r'))
  )
    end--;
  return { start, end: from.length - end, text: to.slice(start, to.length - end) };
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
