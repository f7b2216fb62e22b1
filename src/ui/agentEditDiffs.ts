// An agent edit's changes, as the user looks at them: a diff from the text before it to the text it
// left (read-only documents of the record), or its lines in the file.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { changedLineRanges } from '../core/diff';
import type { EditHistory } from '../core/editHistory';
import { chosen, fileName, gone, textUri } from './agentEditRecords';
import type { EditNames } from './agentEditsView';

export function registerEditDiffCommands({ history, names }: { history: EditHistory; names: EditNames }): vscode.Disposable {
  const openDiff = async (arg: unknown) => {
    const { node, records } = chosen(history, arg);
    if (!node || records.length === 0) return gone();
    const first = records[0];
    const last = records[records.length - 1];
    const where =
      node.kind === 'edit'
        ? `${names.tool(first.tool, first.agent)}, ${names.turn(first.session, first.turn)}`
        : names.turn(first.session, first.turn);
    const title = vscode.l10n.t('{0} (agent edit: {1})', fileName(first.uri), where);
    await vscode.commands.executeCommand('vscode.diff', textUri(first, 'before'), textUri(last, 'after'), title, { preview: true });
  };

  const goToLines = async (arg: unknown) => {
    const { records } = chosen(history, arg);
    if (records.length === 0) return;
    const first = records[0];
    const last = records[records.length - 1];
    const before = first.beforeHash ? ((await history.text(first.beforeHash)) ?? '') : '';
    const after = (await history.text(last.afterHash)) ?? '';
    let doc: vscode.TextDocument;
    try {
      doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(first.uri));
    } catch {
      return void vscode.window.showWarningMessage(
        vscode.l10n.t('{0} was deleted or renamed since the agent edited it.', fileName(first.uri)),
      );
    }
    const ranges = changedLineRanges(before, after);
    const start = Math.min(ranges[0]?.start ?? 0, doc.lineCount - 1);
    const end = Math.min(Math.max(ranges[ranges.length - 1]?.end ?? start, start), doc.lineCount - 1);
    const range = new vscode.Range(start, 0, end, doc.lineAt(end).text.length);
    await vscode.window.showTextDocument(doc, { selection: range, preview: true });
  };

  return vscode.Disposable.from(
    vscode.commands.registerCommand(COMMANDS.openEditDiff, openDiff),
    vscode.commands.registerCommand(COMMANDS.goToEditedLines, goToLines),
  );
}
