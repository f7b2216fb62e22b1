// What the user does with a recorded agent edit: open its changes (a diff of read-only virtual
// documents), go to the lines it changed, revert it — one edit, a file's edits in a turn, a turn, a
// chat — and read what the revert did. Each revert command returns the outcome per file, so a test
// (or another extension) sees exactly what the user is told.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { BoundedMap } from '../core/boundedMap';
import { changedLineRanges } from '../core/diff';
import type { EditHistory, EditRecord } from '../core/editHistory';
import type { FileRevert, Reverter } from '../core/revert';
import { type AgentEditNode, type AgentEditsView, type EditNames, recordsOf } from './agentEditsView';

/** Conflicts whose marked text a diff can still show. */
const MAX_SHOWN_CONFLICTS = 20;

/** The scheme of the read-only documents a diff shows: a recorded text, or a revert's conflict. */
export const EDIT_TEXT_SCHEME = 'agent-edit-guard';

export interface AgentEditCommandsEnvironment {
  history: EditHistory;
  reverter: Reverter;
  view: AgentEditsView;
  names: EditNames;
}

/** A node as a command receives it: from the view, or by record id from the Command Palette or a test. */
function asNode(arg: unknown): AgentEditNode | undefined {
  if (typeof arg === 'string') return { kind: 'edit', id: arg };
  if (typeof arg === 'object' && arg !== null && typeof (arg as { kind?: unknown }).kind === 'string') return arg as AgentEditNode;
  return undefined;
}

const fileName = (uri: string) => vscode.workspace.asRelativePath(vscode.Uri.parse(uri), false);

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

export function registerAgentEditCommands(env: AgentEditCommandsEnvironment): vscode.Disposable {
  const { history, reverter, view, names } = env;
  /** Conflicts shown to the user, by id: the text with conflict markers the revert would make (the latest few). */
  const conflicts = new BoundedMap<string, string>(MAX_SHOWN_CONFLICTS);
  let conflictCount = 0;

  const textUri = (record: EditRecord, side: 'before' | 'after') => {
    const hash = side === 'before' ? record.beforeHash : record.afterHash;
    return vscode.Uri.parse(record.uri).with({ scheme: EDIT_TEXT_SCHEME, query: hash ? `text=${hash}` : 'empty' });
  };

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

  /** The node a command was given and the records it stands for (none when it is not, or no longer, in the record). */
  const chosen = (arg: unknown) => {
    const node = asNode(arg);
    return { node, records: node ? recordsOf(history, node) : [] };
  };
  const gone = () => void vscode.window.showWarningMessage(vscode.l10n.t('That agent edit is no longer in the record.'));

  const openDiff = async (arg: unknown) => {
    const { node, records } = chosen(arg);
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
    const { records } = chosen(arg);
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

  /** Tells the user what a revert did, file by file: one message for what went well, one per problem. */
  const report = (results: FileRevert[]) => {
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
      if (r.kind === 'conflict') void showConflict(r);
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
  };

  const showConflict = async (r: Extract<FileRevert, { kind: 'conflict' }>) => {
    const show = vscode.l10n.t('Show Conflict');
    const resolve = vscode.l10n.t('Resolve in Editor');
    const message = vscode.l10n.t(
      'Could not revert {0}: changes made since overlap the agent edit at {1}. Nothing was changed.',
      fileName(r.uri),
      lineText(r.lines),
    );
    const choice = await vscode.window.showWarningMessage(message, show, resolve);
    const id = String(++conflictCount);
    conflicts.set(id, r.marked);
    const file = vscode.Uri.parse(r.uri);
    if (choice === show) {
      const proposed = file.with({ scheme: EDIT_TEXT_SCHEME, query: `conflict=${id}` });
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
  };

  const revert = async (arg: unknown): Promise<FileRevert[]> => {
    const { node, records } = chosen(arg);
    if (!node || records.length === 0) {
      gone();
      return [];
    }
    // a whole chat may span many files: one click on its inline button should not revert them unasked
    const open = records.filter((r) => r.revertedAt === undefined);
    const files = new Set(open.map((r) => r.uri)).size;
    if (node.kind === 'chat' && files > 1) {
      const go = vscode.l10n.t('Revert');
      const question = vscode.l10n.t(
        'Revert {0} edits in {1} files that {2} made? Changes made since are kept; where they overlap an edit, that file is left as it is.',
        open.length,
        files,
        names.chat(node.session),
      );
      if ((await vscode.window.showWarningMessage(question, { modal: true }, go)) !== go) return [];
    }
    const results = await reverter.revert(records);
    report(results);
    return results;
  };

  return vscode.Disposable.from(
    vscode.workspace.registerTextDocumentContentProvider(EDIT_TEXT_SCHEME, provider),
    vscode.commands.registerCommand(COMMANDS.showAgentEdits, () => view.reveal()),
    vscode.commands.registerCommand(COMMANDS.openEditDiff, openDiff),
    vscode.commands.registerCommand(COMMANDS.goToEditedLines, goToLines),
    vscode.commands.registerCommand(COMMANDS.revertEdit, revert),
    vscode.commands.registerCommand(COMMANDS.revertFileInTurn, revert),
    vscode.commands.registerCommand(COMMANDS.revertTurn, revert),
    vscode.commands.registerCommand(COMMANDS.revertChat, revert),
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
