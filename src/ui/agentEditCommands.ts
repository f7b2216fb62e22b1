// What the user does with a recorded agent edit, in three groups: its texts as read-only documents and
// the view's own commands (here), its changes opened as a diff or its lines shown (agentEditDiffs.ts),
// and its revert (agentEditReverts.ts). Each revert command returns the outcome per file, so a test (or
// another extension) sees exactly what the user is told.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import type { EditHistory } from '../core/editHistory';
import type { Reverter } from '../core/revert';
import { registerEditDiffCommands } from './agentEditDiffs';
import { ConflictTexts, EDIT_TEXT_SCHEME } from './agentEditRecords';
import { registerRevertCommands } from './agentEditReverts';
import type { AgentEditsView, EditNames } from './agentEditsView';

export interface AgentEditCommandsEnvironment {
  history: EditHistory;
  reverter: Reverter;
  view: AgentEditsView;
  names: EditNames;
}

export function registerAgentEditCommands({ history, reverter, view, names }: AgentEditCommandsEnvironment): vscode.Disposable {
  const conflicts = new ConflictTexts();
  const provider: vscode.TextDocumentContentProvider = {
    async provideTextDocumentContent(uri) {
      const query = new URLSearchParams(uri.query);
      const conflict = query.get('conflict');
      if (conflict !== null) return conflicts.get(conflict) ?? '';
      const hash = query.get('text');
      if (hash === null) return '';
      return (await history.text(hash)) ?? vscode.l10n.t('(this version is no longer in the record of agent edits)');
    },
  };
  return vscode.Disposable.from(
    vscode.workspace.registerTextDocumentContentProvider(EDIT_TEXT_SCHEME, provider),
    vscode.commands.registerCommand(COMMANDS.showAgentEdits, () => view.reveal()),
    registerEditDiffCommands({ history, names }),
    registerRevertCommands({ history, reverter, names, conflicts }),
    vscode.commands.registerCommand(COMMANDS.clearAgentEdits, async () => {
      const clear = vscode.l10n.t('Clear');
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t(
          'Clear the record of agent edits in this workspace? They can no longer be reviewed or reverted here. No file changes.',
        ),
        { modal: true },
        clear,
      );
      if (choice === clear) history.clear();
    }),
  );
}
