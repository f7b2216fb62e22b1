// A blocked write shows in the editor: a Warning over the lines that changed since the agent's
// copy, until that chat writes the file successfully or the user clears the marks.
import * as vscode from 'vscode';
import type { BlockedWrite } from '../core/ports';
import { chatLabel, type NameLookup, turnLabel } from './labels';

export const DIAGNOSTIC_SOURCE = 'Agent Edit Guard';
export const DIAGNOSTIC_CODE = 'blocked-write';

const reasonText = (reason: BlockedWrite['reason']): string => {
  switch (reason) {
    case 'not-read':
      return vscode.l10n.t('the agent had not read this file in this chat');
    case 'changed':
      return vscode.l10n.t('the file changed since the agent last read it');
    case 'own-write-expired':
      return vscode.l10n.t("the agent's last sight of this file was its own write in an earlier turn");
    case 'read-expired':
      return vscode.l10n.t('the agent read this file in an earlier turn (editGuard.readKeepsMark is sameTurn)');
    case 'inexact-match':
      return vscode.l10n.t(
        "the agent's oldString is not in the file as written: its copy was out of date, and the tool would have matched it approximately, over lines it did not quote",
      );
    case 'duplicate':
      return vscode.l10n.t('the write would add these lines a second time (the agent can repeat it with allowDuplicate: true)');
    case 'unsaved-in-editor':
      return vscode.l10n.t(
        'these are your unsaved changes, and the agent writes the file on disk: save or discard them, then let it read the file again',
      );
    case 'write-in-flight':
      return vscode.l10n.t("another agent's write to this file was under way, and this one could not wait for it to land");
  }
};

export class BlockedWriteDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE);
  /** uri → session → that chat's diagnostics on the file */
  private readonly entries = new Map<string, Map<string, vscode.Diagnostic[]>>();

  constructor(
    private readonly names: NameLookup,
    /** whose tool was blocked, in a few words (ui/labels.ts `toolLabel`) */
    private readonly toolName: (tool: string, agent: string | undefined) => string,
  ) {}

  onBlocked(block: BlockedWrite): void {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === block.uri);
    // named as the chat and turn were when the block happened: the message is written once
    const chat = chatLabel(this.names, block.session);
    // the message starts with it: "Claude Code edit was blocked", "Guarded replace was blocked"
    const label = this.toolName(block.tool, block.agent);
    const tool = label.charAt(0).toLocaleUpperCase() + label.slice(1);
    const where = block.turn
      ? vscode.l10n.t({
          message: '{0}, {1}',
          args: [chat, turnLabel(this.names, block.session, block.turn)],
          comment: ['where a write was blocked: the chat, then its turn'],
        })
      : chat;
    const message =
      block.reason === 'duplicate'
        ? vscode.l10n.t(
            '{0} was blocked ({1}): {2}. Nothing was written; the agent was shown where these lines already stand.',
            tool,
            where,
            reasonText(block.reason),
          )
        : block.reason === 'unsaved-in-editor'
          ? vscode.l10n.t(
              '{0} was blocked ({1}): {2}. Nothing was written; the agent was shown your changes and asked to wait for you.',
              tool,
              where,
              reasonText(block.reason),
            )
          : vscode.l10n.t(
              '{0} was blocked ({1}): {2}. Nothing was written; the agent was shown the current text.',
              tool,
              where,
              reasonText(block.reason),
            );
    const diagnostics = block.changedLines.map((r) => {
      const last = doc ? Math.min(r.end, doc.lineCount - 1) : r.end;
      const endChar = doc && last >= 0 ? doc.lineAt(last).text.length : Number.MAX_SAFE_INTEGER;
      const d = new vscode.Diagnostic(
        new vscode.Range(r.start, 0, Math.max(last, r.start), endChar),
        message,
        vscode.DiagnosticSeverity.Warning,
      );
      d.source = DIAGNOSTIC_SOURCE;
      d.code = DIAGNOSTIC_CODE;
      return d;
    });
    let bySession = this.entries.get(block.uri);
    if (!bySession) this.entries.set(block.uri, (bySession = new Map()));
    bySession.set(block.session, diagnostics);
    this.publish(block.uri);
  }

  /** That chat wrote the file: its earlier refusal is resolved. */
  onWritten(session: string, uri: string): void {
    if (this.entries.get(uri)?.delete(session)) this.publish(uri);
  }

  /** The file was reverted: every chat's warning over it was about text that is gone. */
  clearFile(uri: string): void {
    if (this.entries.delete(uri)) this.collection.delete(vscode.Uri.parse(uri));
  }

  clear(): void {
    this.entries.clear();
    this.collection.clear();
  }

  private publish(uri: string): void {
    const all = [...(this.entries.get(uri)?.values() ?? [])].flat();
    if (all.length === 0) this.entries.delete(uri);
    this.collection.set(vscode.Uri.parse(uri), all);
  }

  dispose(): void {
    this.collection.dispose();
  }
}
