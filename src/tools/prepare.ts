// `prepareInvocation` of the three tools: the progress line the chat shows, and the user's say
// before a protected file is read or changed. These are the user's words, so they are localised.
import * as vscode from 'vscode';
import type { PathSettings } from '../config';
import { TOOL_IDS, type OwnToolId } from '../core/toolIds';
import { resolveCallPath } from './callPath';

export function prepare(
  tool: OwnToolId,
  input: unknown,
  settings: PathSettings,
  message: (path: string) => string,
): vscode.PreparedToolInvocation {
  const record = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const resolved = resolveCallPath(record, tool, settings);
  const path = resolved.ok ? resolved.display : typeof record.filePath === 'string' ? record.filePath : '?';
  const prepared: vscode.PreparedToolInvocation = { invocationMessage: new vscode.MarkdownString(message(path)) };
  if (resolved.ok && resolved.protectedBy) {
    const reading = tool === TOOL_IDS.read;
    const pattern = resolved.protectedBy;
    const what =
      resolved.protectedTarget === undefined
        ? reading
          ? vscode.l10n.t(
              'The agent wants to read `{0}`. It matches the protected pattern `{1}` (`editGuard.protectedFiles`): such files often hold secrets or tool settings.',
              path,
              pattern,
            )
          : vscode.l10n.t(
              'The agent wants to change `{0}`. It matches the protected pattern `{1}` (`editGuard.protectedFiles`): such files often hold secrets or tool settings.',
              path,
              pattern,
            )
        : reading
          ? vscode.l10n.t(
              'The agent wants to read `{0}`. It leads through a symbolic link to `{1}`, which matches the protected pattern `{2}` (`editGuard.protectedFiles`): such files often hold secrets or tool settings.',
              path,
              resolved.protectedTarget,
              pattern,
            )
          : vscode.l10n.t(
              'The agent wants to change `{0}`. It leads through a symbolic link to `{1}`, which matches the protected pattern `{2}` (`editGuard.protectedFiles`): such files often hold secrets or tool settings.',
              path,
              resolved.protectedTarget,
              pattern,
            );
    prepared.confirmationMessages = {
      title: reading ? vscode.l10n.t('Let the agent read a protected file?') : vscode.l10n.t('Let the agent change a protected file?'),
      message: new vscode.MarkdownString(what),
    };
  }
  return prepared;
}
