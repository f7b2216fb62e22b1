// What the user does with the edit record, one named function per command, registered from one table
// (`AGENT_EDIT_COMMANDS`): the view's own commands (here), an edit's changes opened as a diff or its
// lines shown (agentEditDiffs.ts), and its revert (agentEditReverts.ts); and the record's texts as
// read-only documents for those diffs.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { goToEditedLines, openEditDiff } from './agentEditDiffs';
import { type AgentEditCommandsEnvironment, ConflictTexts, EDIT_TEXT_SCHEME } from './agentEditRecords';
import { revertChat, revertEdit, revertFileInTurn, revertTurn } from './agentEditReverts';
import type { AgentEditsView, EditNames } from './agentEditsView';
import type { EditRecord } from '../core/editRecord';

/** `editGuard.showAgentEdits`: the view, with the newest edit's file in it. */
function showAgentEdits({ view }: AgentEditCommandsEnvironment): Promise<void> {
  return view.reveal();
}

/** `editGuard.clearAgentEdits`: forgets the whole record once the user agrees. */
async function clearAgentEdits({ record }: AgentEditCommandsEnvironment): Promise<void> {
  const clear = vscode.l10n.t('Clear');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('Clear the record of agent edits in this workspace? They can no longer be reviewed or reverted here. No file changes.'),
    { modal: true },
    clear,
  );
  if (choice === clear) record.clear();
}

/** Every agent-edit command, by id: each takes what the view, the Command Palette or a test hands it. */
const AGENT_EDIT_COMMANDS: Record<string, (env: AgentEditCommandsEnvironment, arg: unknown) => unknown> = {
  [COMMANDS.showAgentEdits]: showAgentEdits,
  [COMMANDS.clearAgentEdits]: clearAgentEdits,
  [COMMANDS.openEditDiff]: openEditDiff,
  [COMMANDS.goToEditedLines]: goToEditedLines,
  [COMMANDS.revertEdit]: revertEdit,
  [COMMANDS.revertFileInTurn]: revertFileInTurn,
  [COMMANDS.revertTurn]: revertTurn,
  [COMMANDS.revertChat]: revertChat,
};

/** A recorded text (`text=<hash>`) or a revert's conflict (`conflict=<id>`), as a read-only document. */
async function recordedText(record: EditRecord, conflicts: ConflictTexts, uri: vscode.Uri): Promise<string> {
  const query = new URLSearchParams(uri.query);
  const conflict = query.get('conflict');
  if (conflict !== null) return conflicts.get(conflict) ?? '';
  const hash = query.get('text');
  if (hash === null) return '';
  return (await record.text(hash)) ?? vscode.l10n.t('(this version is no longer in the record of agent edits)');
}

export function registerAgentEditCommands(record: EditRecord, view: AgentEditsView, names: EditNames): vscode.Disposable {
  const env: AgentEditCommandsEnvironment = { record, view, names, conflicts: new ConflictTexts() };
  return vscode.Disposable.from(
    vscode.workspace.registerTextDocumentContentProvider(EDIT_TEXT_SCHEME, {
      provideTextDocumentContent: (uri) => recordedText(record, env.conflicts, uri),
    }),
    ...Object.entries(AGENT_EDIT_COMMANDS).map(([id, run]) => vscode.commands.registerCommand(id, (arg: unknown) => run(env, arg))),
  );
}
