// The quick pick behind the status bar: every read mark, grouped by chat and turn, with its state;
// pick one to open the file, or use the buttons to clear marks.
import * as vscode from 'vscode';
import { chatLabel, type NameLookup, originLabel, timeOfDay, turnLabel } from './labels';
import type { MarkView } from './readMarksStatus';

interface MarkItem extends vscode.QuickPickItem {
  view?: MarkView;
  action?: 'clearAll' | 'toggle' | 'edits';
  /** an agent's line: the choice of where its hooks go */
  choose?: () => Thenable<unknown>;
}

/** An agent's line in the quick pick: where its hooks are now, and the choice of it. */
export interface AgentGuardItem {
  label(): string;
  choose(): Thenable<unknown>;
}

const OPEN = { iconPath: new vscode.ThemeIcon('go-to-file'), tooltip: vscode.l10n.t('Open file') };
const CLEAR = { iconPath: new vscode.ThemeIcon('close'), tooltip: vscode.l10n.t("Clear this chat's marks of this file") };

export interface PickerActions {
  views(): MarkView[];
  /** how each chat and turn is named in the group headers */
  names: NameLookup;
  currentSession(): string | undefined;
  enabled(): boolean;
  clear(session?: string, uri?: string): void;
  toggle(): Thenable<unknown>;
  /** how each agent's own tools are guarded, and the choice of it */
  agents: readonly AgentGuardItem[];
  /** the agent edits in the record not reverted, and the view of them */
  openEdits(): number;
  showAgentEdits(): Thenable<unknown>;
}

function buildItems(actions: PickerActions): MarkItem[] {
  const views = actions.views();
  const items: MarkItem[] = [
    {
      label: vscode.l10n.t('$(clear-all) Clear all read marks'),
      description: vscode.l10n.t('{0} marks', views.length),
      action: 'clearAll',
    },
    {
      label: actions.enabled()
        ? vscode.l10n.t('$(shield) Turn the guard off in this workspace')
        : vscode.l10n.t('$(shield) Turn the guard on in this workspace'),
      action: 'toggle',
    },
    ...actions.agents.map((a): MarkItem => ({ label: a.label(), choose: () => a.choose() })),
    {
      label: vscode.l10n.t('$(history) Review or revert agent edits'),
      description: vscode.l10n.t('{0} not reverted', actions.openEdits()),
      action: 'edits',
    },
  ];
  const current = actions.currentSession();
  const sessions = [...new Set(views.map((v) => v.mark.session))].sort((a, b) => (a === current ? -1 : b === current ? 1 : 0));
  for (const session of sessions) {
    const ofSession = views.filter((v) => v.mark.session === session).sort((a, b) => b.mark.seq - a.mark.seq);
    const turns = [...new Set(ofSession.map((v) => v.mark.turn ?? ''))];
    for (const turn of turns) {
      const inTurn = ofSession.filter((v) => (v.mark.turn ?? '') === turn);
      const chat =
        session === current
          ? vscode.l10n.t({
              message: '{0} (current)',
              args: [chatLabel(actions.names, session)],
              comment: ['a chat: the one whose tool ran last'],
            })
          : chatLabel(actions.names, session);
      items.push({
        kind: vscode.QuickPickItemKind.Separator,
        label: vscode.l10n.t({
          message: '{0} › {1}',
          args: [chat, turnLabel(actions.names, session, inTurn[0].mark.turn)],
          comment: ['a group of read marks: its chat, then its turn'],
        }),
      });
      for (const view of inTurn) {
        items.push({
          label: `${view.fresh ? '$(check)' : '$(warning)'} ${view.path}`,
          description: `${view.fresh ? vscode.l10n.t('current') : vscode.l10n.t('stale — the file changed since')} · ${vscode.l10n.t('{0} at {1}', originLabel(view.mark.origin), timeOfDay(view.mark.at))}`,
          buttons: [OPEN, CLEAR],
          view,
        });
      }
    }
  }
  return items;
}

export async function showReadMarksPicker(actions: PickerActions): Promise<void> {
  const pick = vscode.window.createQuickPick<MarkItem>();
  pick.title = vscode.l10n.t('Agent Edit Guard: Read Marks');
  pick.placeholder = vscode.l10n.t('Files the chats have seen — pick one to open it');
  pick.matchOnDescription = true;
  pick.items = buildItems(actions);
  const open = (view: MarkView) => vscode.window.showTextDocument(vscode.Uri.parse(view.mark.uri), { preview: true });
  pick.onDidTriggerItemButton(({ item, button }) => {
    if (!item.view) return;
    if (button === OPEN) void open(item.view);
    else {
      actions.clear(item.view.mark.session, item.view.mark.uri);
      pick.items = buildItems(actions);
    }
  });
  pick.onDidAccept(async () => {
    const [item] = pick.selectedItems;
    pick.hide();
    if (item?.action === 'clearAll') actions.clear();
    else if (item?.action === 'toggle') await actions.toggle();
    else if (item?.choose) await item.choose();
    else if (item?.action === 'edits') await actions.showAgentEdits();
    else if (item?.view) await open(item.view);
  });
  pick.onDidHide(() => pick.dispose());
  pick.show();
}
