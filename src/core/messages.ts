// The words the model (and the user, in the chat) reads. Copilot passes only the text part of a
// tool result to the model, so each text must say on its own what happened, why, and what to do.
import type { RenderedRange } from './render';
import type { BlockReason, OwnWritePolicy, ToolName } from './types';

export const TOOL_VERB: Record<ToolName, string> = {
  editGuard_readFile: 'read',
  editGuard_writeFile: 'write',
  editGuard_replaceString: 'replace',
};

export function fence(body: string, lang = ''): string {
  // a fence longer than any backtick run inside, so file text cannot close it early
  const longest = Math.max(2, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${body}\n${ticks}`;
}

export function rangeHeader(path: string, r: RenderedRange): string {
  if (r.totalLines === 0) return `${path} is empty.`;
  const whole = r.startLine === 1 && r.endLine === r.totalLines;
  return whole ? `${path} (${r.totalLines} lines):` : `${path}, lines ${r.startLine}–${r.endLine} of ${r.totalLines}:`;
}

export function cutNote(r: RenderedRange, maxLines: number): string {
  if (!r.truncated) return '';
  const next = r.endLine + 1;
  const why = r.cutByCap ? `Output stops at the ${maxLines}-line cap.` : 'Output stops at the requested limit.';
  return `\n${why} Read more with offset: ${next} (and limit) — lines ${next}–${r.totalLines} are not shown.`;
}

export const LINE_NUMBER_NOTE = 'Each line is shown as "<line number><tab><text>"; the number and tab are not part of the file.';

export function blockedHeadline(reason: BlockReason, verb: string, path: string, cause: string | undefined, policy: OwnWritePolicy): string {
  switch (reason) {
    case 'not-read':
      return `BLOCKED: nothing was written. You have not read ${path} in this chat, so the ${verb} could overwrite content you have not seen.`;
    case 'changed':
      return `BLOCKED: nothing was written. ${path} changed since you last read it${cause ? ` (${cause})` : ''}, so your ${verb} was based on an old copy.`;
    case 'own-write-expired':
      return policy === 'never'
        ? `BLOCKED: nothing was written. Your last sight of ${path} is your own earlier write, and this workspace requires a fresh read after every write (editGuard.ownWriteKeepsMark = never).`
        : `BLOCKED: nothing was written. Your last sight of ${path} is your own write from an earlier turn; after a turn ends, a file must be seen again before it is changed.`;
  }
}

export const RETRY_NOTE = 'This result counts as reading the file: your next call can be the corrected edit, based on the text above.';

export function staleNotice(paths: readonly string[]): string {
  if (paths.length === 0) return '';
  const shown = paths.slice(0, 10).join(', ');
  const more = paths.length > 10 ? ` and ${paths.length - 10} more` : '';
  return `\n\nNote: changed since you read them: ${shown}${more}. Read them again before editing them.`;
}
