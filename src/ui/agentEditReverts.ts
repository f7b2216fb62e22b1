// Reverting agent edits — one edit, a file's edits in a turn, a turn, a chat: one function per
// command, each the edit record's revert of what it was given — and telling the user what the revert
// did, file by file: what went well in one message, each problem in its own, a conflict with the choice
// to see it or resolve it in the editor. Each returns the outcome per file, so a test (or another
// extension) sees exactly what the user is told.
import * as vscode from 'vscode';
import type { RecordedEdit } from '../core/editRecord';
import type { FileRevert } from '../core/revert';
import { type AgentEditCommandsEnvironment, type ConflictTexts, chosen, fileName, gone } from './agentEditRecords';
import type { AgentEditNode, EditNames } from './agentEditsView';

/** Why a revert could not be done, in the user's words. */
function failure(r: Extract<FileRevert, { kind: 'failed' }>): string {
  switch (r.why) {
    case 'unreadable':
      return r.message ?? vscode.l10n.t('the file could not be read');
    case 'changed-meanwhile':
      return vscode.l10n.t('the file changed while the revert ran; nothing was changed');
    case 'text-lost':
      return vscode.l10n.t('the record of this edit lost its text (the extension storage was cleared)');
  }
}

function lineText(lines: ReadonlyArray<{ start: number; end: number }>): string {
  return lines
    .map((l) => (l.start === l.end ? vscode.l10n.t('line {0}', l.start) : vscode.l10n.t('lines {0}–{1}', l.start, l.end)))
    .join(', ');
}

/** Tells the user what a revert did, file by file: one message for what went well, one per problem. */
function report(results: FileRevert[], conflicts: ConflictTexts): void {
  const reverted = results.filter((r) => r.kind === 'reverted');
  if (reverted.length) {
    const kept = reverted.filter((r) => r.keptLaterChanges).map((r) => fileName(r.uri));
    const restored = reverted.filter((r) => r.restored).map((r) => fileName(r.uri));
    const unsaved = reverted.filter((r) => r.keptUnsaved).map((r) => fileName(r.uri));
    const what =
      reverted.length === 1
        ? vscode.l10n.t('Reverted the agent edits of {0}.', fileName(reverted[0].uri))
        : vscode.l10n.t('Reverted the agent edits of {0} files.', reverted.length);
    const parts = [what];
    if (kept.length) parts.push(vscode.l10n.t('Changes made since were kept in {0}.', kept.join(', ')));
    if (unsaved.length) parts.push(vscode.l10n.t('{0} had unsaved changes: the revert is in the editor, not saved.', unsaved.join(', ')));
    if (restored.length) parts.push(vscode.l10n.t('{0} had been deleted by the agent and is back.', restored.join(', ')));
    void vscode.window.showInformationMessage(parts.join(' '));
  }
  if (results.length && results.every((r) => r.kind === 'unchanged')) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Nothing to revert: the files already hold their text from before these edits.'),
    );
  }
  for (const r of results) {
    if (r.kind === 'conflict') void showConflict(r, conflicts);
    else if (r.kind === 'missing')
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          '{0} was deleted or renamed since the agent edited it: nothing was reverted, and nothing was created.',
          fileName(r.uri),
        ),
      );
    else if (r.kind === 'occupied')
      void vscode.window.showWarningMessage(
        vscode.l10n.t('The agent deleted {0}, and a file stands there now: nothing was restored over it.', fileName(r.uri)),
      );
    else if (r.kind === 'failed')
      void vscode.window.showErrorMessage(vscode.l10n.t('Could not revert {0}: {1}', fileName(r.uri), failure(r)));
  }
}

async function showConflict(r: Extract<FileRevert, { kind: 'conflict' }>, conflicts: ConflictTexts): Promise<void> {
  const show = vscode.l10n.t('Show Conflict');
  const resolve = vscode.l10n.t('Resolve in Editor');
  const message = vscode.l10n.t(
    'Could not revert {0}: changes made since overlap the agent edit at {1}. Nothing was changed.',
    fileName(r.uri),
    lineText(r.lines),
  );
  const choice = await vscode.window.showWarningMessage(message, show, resolve);
  const file = vscode.Uri.parse(r.uri);
  const proposed = conflicts.add(file, r.marked);
  if (choice === show) {
    await vscode.commands.executeCommand(
      'vscode.diff',
      file,
      proposed,
      vscode.l10n.t('{0}: now ↔ revert with conflicts', fileName(r.uri)),
      { preview: true },
    );
  } else if (choice === resolve) {
    // only onto the text the conflict was found in; the markers go into the editor, unsaved
    const doc = await vscode.workspace.openTextDocument(file);
    if (doc.getText() !== r.current)
      return void vscode.window.showWarningMessage(
        vscode.l10n.t('{0} changed again: revert it once more to see the conflict.', fileName(r.uri)),
      );
    const edit = new vscode.WorkspaceEdit();
    edit.replace(file, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), r.marked);
    if (await vscode.workspace.applyEdit(edit)) await vscode.window.showTextDocument(doc);
  }
}

/** Reverts what the node stands for — once `go` agrees — and tells the user how each file came out. */
async function revertChosen(
  { record, conflicts }: AgentEditCommandsEnvironment,
  arg: unknown,
  go: (node: AgentEditNode, edits: readonly RecordedEdit[]) => Promise<boolean> = async () => true,
): Promise<FileRevert[]> {
  const { node, edits } = chosen(record, arg);
  if (!node || edits.length === 0) {
    gone();
    return [];
  }
  if (!(await go(node, edits))) return [];
  const results = await record.revert(edits);
  report(results, conflicts);
  return results;
}

/** `editGuard.revertEdit`: one edit (a node of the view, or its id). */
export function revertEdit(env: AgentEditCommandsEnvironment, arg: unknown): Promise<FileRevert[]> {
  return revertChosen(env, arg);
}

/** `editGuard.revertFileInTurn`: a file's edits in one turn. */
export function revertFileInTurn(env: AgentEditCommandsEnvironment, arg: unknown): Promise<FileRevert[]> {
  return revertChosen(env, arg);
}

/** `editGuard.revertTurn`: every edit of a turn. */
export function revertTurn(env: AgentEditCommandsEnvironment, arg: unknown): Promise<FileRevert[]> {
  return revertChosen(env, arg);
}

/** `editGuard.revertChat`: every edit of a chat, asked first when they span several files. */
export function revertChat(env: AgentEditCommandsEnvironment, arg: unknown): Promise<FileRevert[]> {
  return revertChosen(env, arg, (node, edits) => chatRevertAgreed(env.names, node, edits));
}

/** A whole chat may span many files: one click on its inline button should not revert them unasked. */
async function chatRevertAgreed(names: EditNames, node: AgentEditNode, edits: readonly RecordedEdit[]): Promise<boolean> {
  const open = edits.filter((r) => r.revertedAt === undefined);
  const files = new Set(open.map((r) => r.uri)).size;
  if (node.kind !== 'chat' || files <= 1) return true;
  const go = vscode.l10n.t('Revert');
  const question = vscode.l10n.t(
    'Revert {0} edits in {1} files that {2} made? Changes made since are kept; where they overlap an edit, that file is left as it is.',
    open.length,
    files,
    names.chat(node.session),
  );
  return (await vscode.window.showWarningMessage(question, { modal: true }, go)) === go;
}
