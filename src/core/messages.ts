// Every word the model reads (and the user, in the chat): tool results, refusals, errors and notes.
// Copilot passes only the text parts of a tool result to the model, so each text must say on its
// own what happened, why, and what to do next. The texts were tuned on what the model received in
// the Copilot suite (test/copilot/what-the-agent-sees.md). Longer than most files on purpose: it is
// the one place to read and tune them, and the flows (gate.ts, guardedTools.ts, externalEdits.ts)
// stay free of prose.
// They stay English and are not localised (no vscode.l10n.t, unlike src/ui and the tools'
// prepareInvocation): they are the model's input, tuned in English, whatever the user's display language.
import type { RenderedRange } from './render';
import { type Eol, eolName } from './text';
import { TOOL_IDS } from './toolIds';
import type { Duplicate } from './duplicate';
import type { BlockReason, ErrorCode, OwnWritePolicy, RefusalReason } from './types';

export function fence(body: string, lang = ''): string {
  // a fence longer than any backtick run inside, so file text cannot close it early
  const longest = Math.max(2, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${body}\n${ticks}`;
}

const lines = (n: number) => `${n} ${n === 1 ? 'line' : 'lines'}`;

/** How every error result starts, whichever layer found the error. */
export const errorText = (code: ErrorCode, message: string) => `ERROR (${code}): ${message}`;

// ---- reads

/** "path (12 lines; …):" or "path, lines 3–9 of 12 (…):", with the note on line numbers before them. */
export function rangeHeader(path: string, r: RenderedRange): string {
  if (r.totalLines === 0) return `${path} is empty.`;
  const whole = r.startLine === 1 && r.endLine === r.totalLines;
  const what = whole ? `${path} (${lines(r.totalLines)}; ` : `${path}, lines ${r.startLine}–${r.endLine} of ${r.totalLines} (`;
  return `${what}each line starts with its number and a tab, which are not part of the file):`;
}

/** Where the output stopped, and the exact next call to read on. */
export function cutNote(r: RenderedRange, maxLines: number, maxChars: number): string {
  const notes: string[] = [];
  if (r.longLine) notes.push(`Line ${r.startLine} alone is longer than ${maxChars} characters, so this result holds only that line.`);
  if (r.truncated) {
    const next = r.endLine + 1;
    const why =
      r.cut === 'lines' ? ` (at most ${maxLines} lines per read)` : r.cut === 'chars' ? ` (at most ${maxChars} characters per read)` : '';
    notes.push(`Lines ${next}–${r.totalLines} are not shown${why}. Next: ${TOOL_IDS.read} with offset: ${next}.`);
  }
  return notes.length ? `\n${notes.join('\n')}` : '';
}

/** A numbered range of the file in a fence, with the header and the note on where it stopped. */
export function numberedText(path: string, r: RenderedRange & { body: string }, maxLines: number, maxChars: number): string {
  return `${rangeHeader(path, r)}${r.totalLines ? `\n${fence(r.body)}` : ''}${cutNote(r, maxLines, maxChars)}`;
}

export function readText(
  path: string,
  r: RenderedRange & { body: string },
  maxLines: number,
  maxChars: number,
  dirty: boolean,
  note: string | undefined,
): string {
  return `${numberedText(path, r, maxLines, maxChars)}${dirty ? '\n(This includes unsaved changes in the editor.)' : ''}${note ? `\n${note}` : ''}`;
}

export const readSummary = (path: string) => `Read ${path}`;
export const notFoundForRead = (path: string) => `${path} does not exist. Check the path; to create it, use ${TOOL_IDS.write}.`;
export const offsetPastEnd = (offset: number, path: string, totalLines: number) =>
  `offset ${offset} is past the end of ${path}, which has ${totalLines} lines.`;

// ---- refusals (rule 6)

/** `showsDiff`: the body below is a diff (else it is the current content). */
export function blockedHeadline(
  reason: RefusalReason,
  verb: string,
  path: string,
  cause: string | undefined,
  policy: OwnWritePolicy,
  showsDiff: boolean,
): string {
  switch (reason) {
    case 'not-read':
      return `BLOCKED: nothing was written. You have not read ${path} in this chat, so your ${verb} could overwrite content you have not seen. Its current content is below; this counts as reading the file, so your next call can be the ${verb}, based on this text.`;
    case 'changed':
      if (cause === CAUSE.revertedByUser) {
        return `BLOCKED: nothing was written. The user reverted your earlier edit of ${path}, so your ${verb} was based on a version that is gone. Do not make that edit again unless the user asks for it. ${showsDiff ? 'The diff below shows what the revert changed' : 'Its current content is below'}; it counts as reading the file, so your next call can be based on this text.`;
      }
      return `BLOCKED: nothing was written. ${path} changed since you last read it${cause ? ` (${cause})` : ''}, so your ${verb} was based on an old copy. Keep that change: redo your edit on the current text. ${showsDiff ? 'The diff below shows what changed' : 'Its current content is below'}; it counts as reading the file, so your next call can be the corrected edit.`;
    case 'own-write-expired':
      return policy === 'never'
        ? `BLOCKED: nothing was written. You last saw ${path} when you wrote it, and this workspace requires a fresh read after every write (editGuard.ownWriteKeepsMark = never). It is unchanged since your write; its content is below and counts as reading the file, so you may repeat your edit.`
        : `BLOCKED: nothing was written. You last saw ${path} when you wrote it in an earlier turn; in a new turn a file must be looked at again before it is changed. It is unchanged since your write; its content is below and counts as reading the file, so you may repeat your edit.`;
    case 'read-expired':
      return `BLOCKED: nothing was written. You read ${path} in an earlier turn, and this workspace counts a read only within its turn (editGuard.readKeepsMark = sameTurn), because your context may have been summarised since. It is unchanged since your read; its content is below and counts as reading the file, so you may repeat your ${verb}.`;
    case 'inexact-match':
      return `BLOCKED: nothing was written. An oldString of your ${verb} is not in ${path} as written, so the tool would apply it by approximate matching, over lines you did not quote — undoing whatever changed them since your copy of the file (an earlier edit of yours, a formatter): that copy is out of date. Its current content is below; this counts as reading the file, so your next call can be the ${verb}, with every oldString copied exactly from this text.`;
  }
}

/** Rule 11: the write would add, a second time, lines the file already holds (`dup`). */
export function duplicateHeadline(append: boolean, path: string, dup: Duplicate): string {
  const where = dup.start === dup.end ? `line ${dup.start}` : `lines ${dup.start}–${dup.end}`;
  const times = dup.count > 1 ? ` (it stands there ${dup.count} times; the first is shown)` : '';
  const what = append
    ? `${path} already holds the text you are appending, at ${where}${times}, so your append would add it a second time.`
    : `Your write would keep ${where} of ${path} and add the same lines again (at line ${dup.addedAt} of your new content)${times}, so the file would hold them twice.`;
  return `BLOCKED: nothing was written. ${what} Perhaps you already made this edit earlier and lost track of it (your context may have been summarised): then it is done, and the lines below show it. If you do mean the file to hold these lines twice, repeat the same call with allowDuplicate: true added.`;
}

export const duplicateBody = (numbered: string) => `Where they stand now: ${numbered}`;

/**
 * Rule 13: `agent` writes the file on disk itself, and the editor holds unsaved changes to it. `counted`:
 * the agent had seen the disk's text, so the diff shows it the editor's whole text, which the refusal marks.
 */
export const unsavedInEditorHeadline = (verb: string, path: string, agent: string, counted: boolean) =>
  `BLOCKED: nothing was written. The user has unsaved changes to ${path} in the editor (the diff below goes from the file on disk to what the editor holds). ${agent} writes the file on disk, so your ${verb} now would land under those changes: the user would lose them or face a conflict. Do not retry this yet: tell the user, and ask them to save or discard their changes in the editor; ${
    counted
      ? `once they have saved them, redo your edit on the text the diff ends with (this counts as reading it); if they discard them, read the file again and redo your edit on it.`
      : 'then read the file again and redo your edit on it.'
  }`;

/** The labels of rule 13's diff: the file on disk → the editor's buffer. */
export const UNSAVED_DIFF_LABELS = { before: 'on disk', after: 'in the editor, unsaved' } as const;

export const unsavedBody = (diff: string, omittedLines: number) =>
  `The user's unsaved changes:\n${fence(diff, 'diff')}${omittedLines ? `\n(${omittedLines} more diff lines are not shown.)` : ''}`;

/** Rule 14: another chat's write (`writer`, when known) was let through and has not landed yet. */
export const inFlightHeadline = (verb: string, path: string, writer: string | undefined) =>
  `BLOCKED: nothing was written. ${writer ?? 'Another agent'} is writing ${path} right now: its write was let through a moment ago and has not landed yet, so your ${verb} would be based on a version that is about to change.`;

/** An editor shows the file and has not loaded its newer version yet: nothing written through it, nor behind it. */
export const editorBehindHeadline = (verb: string, path: string) =>
  `BLOCKED: nothing was written. The editor that shows ${path} has not loaded the file's newer version yet, so your ${verb} could not go through it, and writing the file behind it would leave the two apart.`;

/** Rule 14 within a chat: the writer of an earlier call of the same model response, still landing. */
export const SIBLING_WRITER = 'Another call of your same response';

export const inFlightBody = (path: string) =>
  `Read ${path} again in a moment, once that write has landed, and make your edit on what the file holds then.`;

/** The labels of a refusal's diff: the version the chat saw → the file now. */
export const SEEN_DIFF_LABELS = { before: 'what you last saw', after: 'current' } as const;
/** The labels of the diff a save participant made: the agent's text → the saved text. */
export const SAVE_DIFF_LABELS = { before: 'as you wrote it', after: 'after save' } as const;

export function changedBody(diff: string, omittedLines: number, hunks: boolean): string {
  if (!hunks) return 'Only line endings or invisible characters changed.';
  return `What changed since the version you saw:\n${fence(diff, 'diff')}${omittedLines ? `\n(${omittedLines} more diff lines are not shown: read the file for the rest.)` : ''}`;
}

export const currentContentBody = (numbered: string) => `Current content of ${numbered}`;
export const blockedSummary = (verb: string, path: string, reason: BlockReason) => `Blocked ${verb} of ${path}: ${reason}`;

/** What changed the file since the chat saw it, as far as the gate can tell. */
export const CAUSE = {
  ownParallelCall: 'written by another of your calls that ran first',
  otherChat: 'written by another chat',
  unsavedEdit: 'edited in the editor, not yet saved',
  elsewhere: 'changed on disk or by another program',
  revertedByUser: 'the user reverted your edit of it',
  /** the last write let through made exactly the current text, by an agent the user knows by this name */
  writtenBy: (writer: string) => `written by ${writer}`,
} as const;

/** A stale file's name in the notice, when the user's revert is what changed it. */
export const revertedName = (path: string) => `${path} (reverted by the user)`;

export function staleNotice(paths: readonly string[]): string {
  if (paths.length === 0) return '';
  const shown = paths.slice(0, 10).join(', ');
  const more = paths.length > 10 ? ` and ${paths.length - 10} more` : '';
  return `\n\nNote: changed since you read them: ${shown}${more}. Read them again before editing them.`;
}

// ---- writes

export const writeSummary = (append: boolean) => (append ? 'Appended to' : 'Wrote');
export const replaceSummary = (count: number) => `Replaced ${count === 1 ? '1 occurrence' : `${count} occurrences`} in`;
export const notFoundForReplace = (path: string) =>
  `${path} does not exist, so there is nothing to replace in. Check the path, or create the file with ${TOOL_IDS.write}.`;
export const noMatch = (path: string, detail: string) => `oldString was not found in ${path}; nothing was changed. ${detail}`;
export const ambiguousMatch = (path: string, count: number, lineNumbers: readonly number[]) =>
  `oldString occurs ${count} times in ${path} (at lines ${lineNumbers.join(', ')}${count > lineNumbers.length ? ', …' : ''}); nothing was changed. Include more surrounding lines so it matches exactly once, or set replaceAll: true to change every occurrence.`;
export const disappearedWhileChanging = (path: string) => `${path} disappeared while it was being changed; nothing was written.`;
export const eolNote = (eol: Eol) =>
  `The file's line endings are ${eolName(eol)} (VS Code holds one kind per file), so your text was written with ${eolName(eol)} line endings.`;

/** How a write that landed ended up: where the text is now. */
export type WriteLanding = 'on-disk' | 'saved' | 'kept-unsaved' | 'changed-during-save';

export interface WriteReport {
  /** "Wrote", "Appended to", "Replaced 2 occurrences in" */
  summary: string;
  path: string;
  landing: WriteLanding;
  eolNote?: string;
  /** What the editor says about how it holds the file. */
  documentNote?: string;
  /** The diff a save participant made (format on save), if saving changed the text. */
  saveDiff?: string;
  /** Changes made during the save are in the editor, unsaved. */
  dirtyAfterSave?: boolean;
  gateDisabled?: boolean;
  failOpen?: boolean;
}

export function writeText(r: WriteReport): string {
  const out: string[] = [];
  switch (r.landing) {
    case 'on-disk':
      out.push(
        `${r.summary} ${r.path} on disk.`,
        'VS Code had not loaded the newer version of this file from disk, so the edit was written to the file itself; the editor shows it once it reloads the file.',
      );
      break;
    case 'saved':
      out.push(`${r.summary} ${r.path} and saved it.`);
      break;
    case 'kept-unsaved':
      out.push(
        `${r.summary} ${r.path}, in the editor only: the file has the user's unsaved changes, so your edit was left unsaved with them.`,
      );
      out.push('On disk (for the terminal, tests, git) the file is still the old version; the user decides when to save.');
      break;
    case 'changed-during-save':
      out.push(
        `${r.summary} ${r.path}, in the editor only: the user changed the file while your edit was being applied, so it was not saved — their change stays unsaved, with yours.`,
      );
      out.push('On disk the file is still the old version. Read the file before changing it again: it now differs from what you wrote.');
      break;
  }
  if (r.eolNote) out.push(r.eolNote);
  if (r.documentNote) out.push(r.documentNote);
  if (r.saveDiff) {
    out.push(
      `Saving changed the file (format on save, or another save participant). The file now differs from what you wrote:\n${fence(r.saveDiff, 'diff')}`,
    );
    if (r.dirtyAfterSave) out.push('The editor also holds changes made while the file was being saved, which are not saved.');
  }
  if (r.gateDisabled) out.push('(The edit guard is turned off in this workspace: this write was not checked.)');
  if (r.failOpen) out.push('(The edit guard had an internal error and let this write through; it is in the "Agent Edit Guard" log.)');
  return out.join('\n');
}

export const createdText = (path: string, normalised: boolean) =>
  `Created ${path} and saved it.${
    normalised
      ? '\nThe file has mixed line endings (or lone carriage returns) as you wrote it; VS Code holds it with one line ending, and saving from the editor writes every line that way.'
      : ''
  }`;
export const createdSummary = (path: string) => `Created ${path}`;
export const couldNotCreate = (path: string) => `${path} could not be created.`;

/** A guarded write whose save did not land, though the file on disk did not change: the edit was taken back out of the editor. */
export const notSaved = (path: string) =>
  `nothing was written: VS Code could not save ${path}, so your edit was taken back out of the editor and the file is as it was. Read it again before you retry; if the save keeps failing, tell the user (the file may be read-only or the disk full).`;

/**
 * A guarded write whose save did not land, and whose edit could not be taken back out of the editor (the user typed in
 * it, or its editor could not be brought to the front for the revert): the edit stays there, unsaved (`kept-in-editor`).
 */
export const notSavedKeptInEditor = (path: string) =>
  `${path} was not saved (another program wrote the file meanwhile, or VS Code could not save it), and your edit could not be taken back out of the editor: the user typed in it at that moment, or its editor could not be brought to the front. It stays in the editor, unsaved; it is not on disk. Tell the user, and read the file again before changing it.`;

// ---- edits by other agents' tools (the hooks bridge): the whole call is stopped, whatever it touched

/** `reasons`: one per file refused. */
export function externalDenialLead(tool: string, reasons: readonly RefusalReason[], files: number): string {
  if (files === 1) {
    return `Agent Edit Guard stopped this ${tool} call: nothing was applied. The refusal below says why and counts as reading the file, so repeat the call with an edit based on it.`;
  }
  const which = reasons.length === 1 ? 'one of them was' : `${reasons.length} of them were`;
  const inexact = reasons.filter((r) => r === 'inexact-match').length;
  const why =
    inexact === 0
      ? 'changed or not read in this chat'
      : inexact === reasons.length
        ? 'quoted inexactly'
        : 'changed, not read in this chat, or quoted inexactly';
  return `Agent Edit Guard stopped this ${tool} call: nothing was applied to any of its ${files} files, because ${which} ${why}. Each refusal below counts as reading that file, so repeat the call with edits based on this text.`;
}

export const externalUnsafeStop = (tool: string, reasons: readonly string[]) =>
  `Agent Edit Guard stopped this ${tool} call: nothing was applied.\n\n${reasons.join('\n\n')}`;

// ---- documents: what the editor cannot do with a file, and how it holds one

export const DOCUMENT = {
  isFolder: 'This path is a folder, not a file. Give the path of a file.',
  binary: 'The file seems to be binary, so it cannot be read or edited as text.',
  deletedButUnsaved: 'Note: the file was deleted on disk; the editor still holds it with unsaved changes, which are its current text.',
  invalidUtf8Note: 'Note: the file has bytes that are not valid UTF-8; they show as \uFFFD, and the write tools leave this file unchanged.',
  invalidUtf8Refusal:
    "The file has bytes that are not valid UTF-8. VS Code shows them as \uFFFD and saving any edit would write \uFFFD in their place, changing bytes nobody asked to change, so this file is not changed. The user can fix its encoding (the file's encoding in the status bar, or files.encoding) or edit it by hand.",
  cannotAccess: (why: string) => `Could not access the file: ${why}`,
  cannotOpen: (why: string) => `Could not open the file: ${why}`,
  tooLargeForEditor: (why: string) => `The file is too large for the editor: ${why}`,
  tooLarge: (size: string, limit: string) =>
    `The file is ${size}; VS Code gives extensions documents up to ${limit}, so it cannot be read or edited here.`,
  mixedEolOnDisk: (eol: Eol) =>
    `Note: the file has mixed line endings (or lone carriage returns) on disk; VS Code holds it with ${eolName(eol)} only, and saving writes every line that way.`,
} as const;

// ---- a call the tools refuse before the gate runs

export const CALL = {
  notAnObject: (tool: string, input: unknown) =>
    `The input must be a JSON object with the fields of ${tool}, got ${JSON.stringify(input)}.`,
  untrusted:
    'This workspace is not trusted, so agent writes are refused. Reading still works. The user can trust the workspace with the command "Workspaces: Manage Workspace Trust".',
  internal: (why: string) =>
    `An internal error stopped the call (${why}). It is in the "Agent Edit Guard" log. Read the file again before changing it.`,
} as const;

// ---- input a tool cannot use (the manifest's inputSchema, checked before the gate)

export const INPUT = {
  missing: (key: string) => `${key} is missing. It is required.`,
  lookalike: (used: string, key: string) => ` You passed "${used}": this tool calls it "${key}".`,
  notString: (key: string, v: unknown) =>
    `${key} must be a string, got ${typeof v === 'object' && v !== null ? 'an object' : JSON.stringify(v)}.`,
  notWholeNumber: (key: string, v: unknown) => `${key} must be a whole number, got ${JSON.stringify(v)}.`,
  belowMinimum: (key: string, min: number, v: unknown) => `${key} must be at least ${min}, got ${v}.`,
  notBoolean: (key: string, v: unknown) => `${key} must be true or false, got ${JSON.stringify(v)}.`,
  other: (key: string, why: string) => `${key} ${why}.`,
  tooLong: (key: string, length: number, limit: string) =>
    `${key} is ${length} characters long; the most a document can hold here is ${limit}.`,
} as const;

// ---- a replacement that cannot be planned

export const REPLACE = {
  identical: 'oldString and newString are identical, so there is nothing to change.',
  emptyOld: `oldString is empty. Give the exact text to replace (copy it from the read output, without line numbers), or use ${TOOL_IDS.write} to replace the whole file.`,
  hasLineNumbers: (foundWithout: boolean) =>
    'oldString starts its lines with line numbers and a tab, copied from the read output. Those prefixes are not part of the file: remove them' +
    (foundWithout ? ' (without them the text does occur in the file).' : '.'),
  whitespaceDiffers: (first: number, last: number, shown: string) =>
    `The same text occurs at lines ${first}–${last}, but with different whitespace or indentation. The current lines are:\n${shown}`,
  firstLineOnly: (line: number, shown: string) =>
    `The first line of oldString matches line ${line}, but the lines after it differ. The current lines there are:\n${shown}`,
  nowhere: 'oldString does not occur in the file, not even with different whitespace. Read the file again to see its current text.',
} as const;

// ---- a path the policy refuses (paths.ts); paths arrive already made visible (quoted, escapes shown)

const NOTEBOOK_RULE =
  'its text is JSON that a text edit can corrupt, so these tools do not change notebooks. Edit its cells with notebook tools, or ask the user.';
const INSIDE_ONLY = 'Only files inside the workspace can be read or changed.';
const USE_GIT = 'Use git commands instead.';

export const PATH = {
  missing: 'filePath is missing or empty. Give the path of a file, absolute or relative to the workspace folder.',
  nul: 'filePath contains a NUL character, which no file name can hold.',
  /** `asName`: the text, when it may also be a file name with a colon (`name:rest`, not `scheme://…`) */
  notAFileUri: (shown: string, scheme: string, asName: string | undefined) =>
    `filePath ${shown} is a URI with the scheme "${scheme}", not a file path. These tools accept only file paths (absolute, or relative to the workspace folder) or file:// URIs.${
      asName === undefined ? '' : ` For a file whose name really starts with "${scheme}:", write "./${asName}".`
    }`,
  noFolderForRelative: (text: string) =>
    `No workspace folder is open, so the relative path "${text}" cannot be resolved. Use an absolute path.`,
  badFileUri: (shown: string, why: string) =>
    `filePath ${shown} is not a usable file:// URI: ${why} Give the file's path instead (absolute, or relative to the workspace folder).`,
  uriControlChar: 'it holds a control character, which a URI must percent-encode.',
  uriUnparsable: 'it does not parse as a URI.',
  uriHost: (host: string) => `it names the host "${host}"; only files on this machine (file:///…) can be read or changed.`,
  outside: (given: string, fsPath: string, folders: readonly string[]) =>
    `"${given}" resolves to ${fsPath}, which is outside the workspace folders (${folders.join(', ') || 'none open'}). ${INSIDE_ONLY}`,
  whereStray: (lead: string | undefined, trail: string | undefined) =>
    [lead && `leading ${lead}`, trail && `trailing ${trail}`].filter(Boolean).join(' and '),
  strayWhitespace: (shown: string, where: string, trimmed: string) =>
    `filePath ${shown} has stray whitespace (${where}), and nothing exists at that path or at ${trimmed}. A file created now would differ from the name you mean only by invisible characters. Remove the stray whitespace from filePath and call again.`,
  controlChar: (shown: string, found: string) =>
    `filePath ${shown} contains a control character (${found}), and no file exists at exactly that path. File names with control characters are refused so no look-alike file is created. Remove the character from filePath and call again.`,
  /** How a refusal that only a link's target earns names it. */
  leadsTo: (display: string, isLink: boolean, target: string) =>
    `${display} ${isLink ? 'is a symbolic link to' : 'lies under a symbolic link and leads to'} ${target}`,
  linkOutside: (leadsTo: string) => `${leadsTo}, outside the workspace. ${INSIDE_ONLY}`,
  inGit: (display: string) => `${display} is inside a .git folder, the repository's own data; agents may not write there. ${USE_GIT}`,
  linkInGit: (leadsTo: string) =>
    `${leadsTo}, inside a .git folder: the repository's own data, which agents may not write, through a link or otherwise. ${USE_GIT}`,
  notebook: (display: string) => `${display} is a Jupyter notebook: ${NOTEBOOK_RULE}`,
  linkNotebook: (leadsTo: string) => `${leadsTo}, a Jupyter notebook: ${NOTEBOOK_RULE}`,
} as const;

/**
 * The conflict markers' labels where an agent's shell command changed lines a buffer's unsaved changes change too
 * (rule 16): text in the file itself, as git's markers are, so one language for everyone who opens it.
 */
export const shellMergeLabels = (agent: string) => ({ current: 'your unsaved changes', reverted: `what ${agent}'s shell command wrote` });
