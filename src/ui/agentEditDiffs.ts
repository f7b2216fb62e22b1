// An agent edit's changes, as the user looks at them: a diff from the text before it to the text it
// left (read-only documents of the edit record), or its lines in the file. One function per command.
import * as vscode from 'vscode';
import { changedLineRanges } from '../core/diff';
import { type AgentEditCommandsEnvironment, chosen, fileName, gone, textUri } from './agentEditRecords';

/** `editGuard.openEditDiff`: the edit's (or the node's edits') changes, as a diff. */
export async function openEditDiff({ record, names }: AgentEditCommandsEnvironment, arg: unknown): Promise<void> {
  const { node, edits } = chosen(record, arg);
  if (!node || edits.length === 0) return gone();
  const first = edits[0];
  const last = edits[edits.length - 1];
  const where =
    node.kind === 'edit'
      ? `${names.tool(first.tool, first.agent)}, ${names.turn(first.session, first.turn)}`
      : names.turn(first.session, first.turn);
  const title = vscode.l10n.t('{0} (agent edit: {1})', fileName(first.uri), where);
  await vscode.commands.executeCommand('vscode.diff', textUri(first, 'before'), textUri(last, 'after'), title, { preview: true });
}

/** `editGuard.goToEditedLines`: the file, with the lines the edit changed selected. */
export async function goToEditedLines({ record }: AgentEditCommandsEnvironment, arg: unknown): Promise<void> {
  const { edits } = chosen(record, arg);
  if (edits.length === 0) return;
  const first = edits[0];
  const last = edits[edits.length - 1];
  const before = first.beforeHash ? ((await record.text(first.beforeHash)) ?? '') : '';
  const after = (await record.text(last.afterHash)) ?? '';
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
}
