// A call's `filePath`, resolved and policed (docs/design.md §Path policy): where it leads, how it is
// shown, and whether the user must confirm it. No side effects.
import type { PathSettings } from '../config';
import { policeToolPath } from '../core/paths';
import { TOOL_IDS, type OwnToolId } from '../core/toolIds';
import type { ErrorCode } from '../core/types';
import { diskFacts, workspaceFolders } from '../editor/workspace';
import { INPUT } from '../core/messages';
import { lookalikeHint } from './input';

export type ResolvedCallPath =
  | {
      ok: true;
      /** The path as given (not canonicalised): the file the tools open and the user sees. */
      fsPath: string;
      /** Where the path really leads, every symbolic link resolved. */
      realPath: string;
      display: string;
      protectedBy: string | undefined;
      /** Set when only the real target matched `protectedBy`: the target, as shown. */
      protectedTarget: string | undefined;
    }
  | { ok: false; code: ErrorCode; message: string };

export function resolveCallPath(input: Record<string, unknown>, tool: OwnToolId, settings: PathSettings): ResolvedCallPath {
  const hint = input.filePath === undefined ? lookalikeHint(input, 'filePath') : '';
  if (hint) return { ok: false, code: 'invalid-input', message: INPUT.missing('filePath') + hint };
  const policed = policeToolPath(input.filePath, {
    folders: workspaceFolders(),
    allowOutsideWorkspace: settings.allowOutsideWorkspace,
    writes: tool !== TOOL_IDS.read,
    facts: diskFacts,
    protectedFiles: (fsPath) => settings.protectedFiles(fsPath),
  });
  if (!policed.ok) return policed;
  const { fsPath, realPath, display, protectedBy, protectedTarget } = policed;
  return { ok: true, fsPath, realPath, display, protectedBy, protectedTarget };
}
