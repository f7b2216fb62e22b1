// The words the model (and the user, in the chat) reads. Copilot passes only the text part of a
// tool result to the model, so each text must say on its own what happened, why, and what to do.
// These texts were tuned on what the model actually received in the Copilot suite
// (test/copilot/what-the-agent-sees.md).
import type { RenderedRange } from './render';
import type { BlockReason, OwnWritePolicy, ToolName } from './types';

export const TOOL_VERB: Record<ToolName, string> = {
  editGuard_readFile: 'read',
  editGuard_writeFile: 'write',
  editGuard_replaceString: 'replace',
  read_file: 'read',
  replace_string_in_file: 'replace',
  multi_replace_string_in_file: 'replace',
  insert_edit_into_file: 'edit',
  apply_patch: 'patch',
  create_file: 'write',
};

export function fence(body: string, lang = ''): string {
  // a fence longer than any backtick run inside, so file text cannot close it early
  const longest = Math.max(2, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${body}\n${ticks}`;
}

const lines = (n: number) => `${n} ${n === 1 ? 'line' : 'lines'}`;

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
    notes.push(`Lines ${next}–${r.totalLines} are not shown${why}. Next: editGuard_readFile with offset: ${next}.`);
  }
  return notes.length ? `\n${notes.join('\n')}` : '';
}

/** `showsDiff`: the body below is a diff (else it is the current content). */
export function blockedHeadline(reason: BlockReason, verb: string, path: string, cause: string | undefined, policy: OwnWritePolicy, showsDiff: boolean): string {
  switch (reason) {
    case 'not-read':
      return `BLOCKED: nothing was written. You have not read ${path} in this chat, so your ${verb} could overwrite content you have not seen. Its current content is below; this counts as reading the file, so your next call can be the ${verb}, based on this text.`;
    case 'changed':
      return `BLOCKED: nothing was written. ${path} changed since you last read it${cause ? ` (${cause})` : ''}, so your ${verb} was based on an old copy. Keep that change: redo your edit on the current text. ${showsDiff ? 'The diff below shows what changed' : 'Its current content is below'}; it counts as reading the file, so your next call can be the corrected edit.`;
    case 'own-write-expired':
      return policy === 'never'
        ? `BLOCKED: nothing was written. You last saw ${path} when you wrote it, and this workspace requires a fresh read after every write (editGuard.ownWriteKeepsMark = never). It is unchanged since your write; its content is below and counts as reading the file, so you may repeat your edit.`
        : `BLOCKED: nothing was written. You last saw ${path} when you wrote it in an earlier turn; in a new turn a file must be looked at again before it is changed. It is unchanged since your write; its content is below and counts as reading the file, so you may repeat your edit.`;
  }
}

export function staleNotice(paths: readonly string[]): string {
  if (paths.length === 0) return '';
  const shown = paths.slice(0, 10).join(', ');
  const more = paths.length > 10 ? ` and ${paths.length - 10} more` : '';
  return `\n\nNote: changed since you read them: ${shown}${more}. Read them again before editing them.`;
}

/** The start of a hook's denial of a built-in edit: the whole call is stopped, whatever it touched. */
export function builtinDenialLead(tool: string, blocked: number, files: number): string {
  if (files === 1) {
    return `Agent Edit Guard stopped this ${tool} call: nothing was applied. The refusal below says why and counts as reading the file, so repeat the call with an edit based on it.`;
  }
  const which = blocked === 1 ? 'one of them was' : `${blocked} of them were`;
  return `Agent Edit Guard stopped this ${tool} call: nothing was applied to any of its ${files} files, because ${which} changed or not read in this chat. Each refusal below counts as reading that file, so repeat the call with edits based on this text.`;
}
