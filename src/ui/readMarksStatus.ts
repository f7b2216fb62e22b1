// The status-bar item: what the current chat (the one whose tool ran last) has seen, and how
// much of it went stale; or that the guard is off.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import type { ReadMark } from '../core/marks';
import { chatLabel, type NameLookup, originLabel } from './labels';

export const STATUS_ITEM_ID = 'editGuard.readMarks';

export interface MarkView {
  mark: ReadMark;
  fresh: boolean;
  path: string;
}

export interface StatusModel {
  enabled: boolean;
  session: string | undefined;
  /** Newest mark per file of the current chat. */
  marks: MarkView[];
}

/**
 * A person's words (a chat's title) inside the tooltip's Markdown, shown as typed: what would format,
 * link or draw an icon is escaped. Not `appendText`, which also turns every space into `&nbsp;`, and
 * the item's accessible label is read from the same source.
 */
const asMarkdownText = (text: string) => text.replace(/[\\`*_[\]<>&~$]/g, '\\$&');

export class ReadMarksStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(STATUS_ITEM_ID, vscode.StatusBarAlignment.Right, 100);

  constructor(private readonly names: NameLookup) {
    this.item.name = vscode.l10n.t('Agent Edit Guard');
    this.item.command = COMMANDS.showReadMarks;
    this.item.show();
  }

  /** The text shown, also used by tests through the rendered page. */
  get text(): string {
    return this.item.text;
  }

  update(model: StatusModel): void {
    if (!model.enabled) {
      this.item.text = vscode.l10n.t('$(shield) off');
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
      this.item.tooltip = new vscode.MarkdownString(
        vscode.l10n.t(
          '**Agent Edit Guard is off** in this workspace: agent writes are not checked against what the agent has read.\n\nClick to see read marks; run **Agent Edit Guard: Toggle Gate** to turn it on.',
        ),
      );
      return;
    }
    const stale = model.marks.filter((m) => !m.fresh).length;
    const read = model.marks.length;
    this.item.backgroundColor = undefined;
    this.item.text = stale ? vscode.l10n.t('$(shield) {0} read · {1} stale', read, stale) : vscode.l10n.t('$(shield) {0} read', read);
    const md = new vscode.MarkdownString(undefined, true);
    md.appendMarkdown(`**${vscode.l10n.t('Agent Edit Guard')}** — `);
    if (!model.session) {
      md.appendMarkdown(vscode.l10n.t('no agent has used the guarded tools yet.'));
    } else {
      const chat = vscode.l10n.t({
        message: 'the current chat, {0}, has seen:',
        args: [chatLabel(this.names, model.session)],
        comment: ['{0}: how the chat is named (its first request quoted, or when it started)'],
      });
      md.appendMarkdown(asMarkdownText(chat) + '\n\n');
      if (read === 0) md.appendMarkdown(`_${vscode.l10n.t('none')}_\n`);
      for (const m of model.marks.slice(0, 15)) {
        const state = m.fresh ? vscode.l10n.t('current') : vscode.l10n.t('changed since');
        md.appendMarkdown(`- ${m.fresh ? '$(check)' : '$(warning)'} \`${m.path}\` — ${state} (${originLabel(m.mark.origin)})\n`);
      }
      if (read > 15) md.appendMarkdown(`- ${vscode.l10n.t('… and {0} more', read - 15)}\n`);
    }
    md.appendMarkdown('\n\n' + vscode.l10n.t('Click to browse or clear read marks.'));
    this.item.tooltip = md;
  }

  dispose(): void {
    this.item.dispose();
  }
}
