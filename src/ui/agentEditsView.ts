// The Agent Edits view: every recorded agent edit (core/editHistory.ts), grouped chat → turn → file,
// with counts. Its elements are plain objects (`AgentEditNode`), so the commands that act on them
// (agentEditCommands.ts) take the same objects from the view, the Command Palette or a test.
import * as vscode from 'vscode';
import type { AfterAnswer } from '../core/afterAnswer';
import { COMMANDS } from '../commands';
import { type EditHistory, type EditRecord, groupRecords } from '../core/editHistory';
import { timeOfDay } from './labels';

export const AGENT_EDITS_VIEW_ID = 'editGuard.agentEdits';

export type AgentEditNode =
  | { kind: 'chat'; session: string }
  | { kind: 'turn'; session: string; turn: string | undefined }
  | { kind: 'file'; session: string; turn: string | undefined; uri: string }
  | { kind: 'edit'; id: string };

/** How the view names a chat and a turn to a person (ui/labels.ts). */
export interface EditNames {
  chat(session: string): string;
  turn(session: string, turn: string | undefined): string;
  /** Whose tool did what, in a few words (ui/labels.ts `toolLabel`): "guarded replace", "Claude Code edit". */
  tool(tool: string, agent: string | undefined): string;
}

/** The records a node stands for, oldest first. */
export function recordsOf(history: EditHistory, node: AgentEditNode): EditRecord[] {
  const all = history.all();
  switch (node.kind) {
    case 'chat':
      return all.filter((r) => r.session === node.session);
    case 'turn':
      return all.filter((r) => r.session === node.session && r.turn === node.turn);
    case 'file':
      return all.filter((r) => r.session === node.session && r.turn === node.turn && r.uri === node.uri);
    case 'edit':
      return all.filter((r) => r.id === node.id);
  }
}

/** Groups in order of their newest record, newest first. */
function groupsOf<K>(records: readonly EditRecord[], key: (r: EditRecord) => K): Array<{ key: K; records: EditRecord[] }> {
  return [...groupRecords(records, key)]
    .map(([k, rs]) => ({ key: k, records: rs }))
    .sort((a, b) => b.records[b.records.length - 1].seq - a.records[a.records.length - 1].seq);
}

function counts(records: readonly EditRecord[]): string {
  const files = new Set(records.map((r) => r.uri)).size;
  const edits = records.length;
  const open = records.filter((r) => r.revertedAt === undefined).length;
  const what =
    files === 1
      ? edits === 1
        ? vscode.l10n.t('1 file · 1 edit')
        : vscode.l10n.t('1 file · {0} edits', edits)
      : vscode.l10n.t('{0} files · {1} edits', files, edits);
  if (open === 0) return `${what} · ${vscode.l10n.t('all reverted')}`;
  if (open < edits) return `${what} · ${vscode.l10n.t('{0} reverted', edits - open)}`;
  return what;
}

export class AgentEditsView implements vscode.TreeDataProvider<AgentEditNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<AgentEditNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view: vscode.TreeView<AgentEditNode>;
  private readonly listener: { dispose(): void };
  /**
   * One object per node: VS Code knows a tree's elements by identity, so `reveal` finds a node only
   * as the object `getChildren` gave it.
   */
  private readonly nodes = new Map<string, AgentEditNode>();

  constructor(
    private readonly history: EditHistory,
    private readonly names: EditNames,
    /** the record changes inside an agent's answer; the view is redrawn after it, once per burst */
    tidy: Pick<AfterAnswer, 'coalesced'>,
  ) {
    this.view = vscode.window.createTreeView(AGENT_EDITS_VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    this.listener = history.onDidChange(tidy.coalesced(() => this.refresh()));
    this.refresh();
  }

  refresh(): void {
    // nodes of records that are gone (dropped by the budget, cleared) are not kept
    if (this.nodes.size > 4 * this.history.all().length + 16) this.nodes.clear();
    const open = this.history.unreverted();
    this.view.badge = open ? { value: open, tooltip: vscode.l10n.t('{0} agent edits not reverted', open) } : undefined;
    this.changed.fire(undefined);
  }

  getChildren(node?: AgentEditNode): AgentEditNode[] {
    const records = node ? recordsOf(this.history, node) : this.history.all();
    if (!node) return groupsOf(records, (r) => r.session).map((g) => this.node({ kind: 'chat', session: g.key }));
    switch (node.kind) {
      case 'chat':
        return groupsOf(records, (r) => r.turn ?? '').map((g) =>
          this.node({ kind: 'turn', session: node.session, turn: g.records[0].turn }),
        );
      case 'turn':
        return groupsOf(records, (r) => r.uri).map((g) => this.node({ kind: 'file', session: node.session, turn: node.turn, uri: g.key }));
      case 'file':
        return records.length > 1 ? [...records].reverse().map((r) => this.node({ kind: 'edit', id: r.id })) : [];
      case 'edit':
        return [];
    }
  }

  getParent(node: AgentEditNode): AgentEditNode | undefined {
    switch (node.kind) {
      case 'chat':
        return undefined;
      case 'turn':
        return this.node({ kind: 'chat', session: node.session });
      case 'file':
        return this.node({ kind: 'turn', session: node.session, turn: node.turn });
      case 'edit': {
        const r = this.history.get(node.id);
        return r ? this.node({ kind: 'file', session: r.session, turn: r.turn, uri: r.uri }) : undefined;
      }
    }
  }

  /** The one object of a node. */
  private node(node: AgentEditNode): AgentEditNode {
    const key = JSON.stringify(node);
    const known = this.nodes.get(key);
    if (known) return known;
    this.nodes.set(key, node);
    return node;
  }

  getTreeItem(node: AgentEditNode): vscode.TreeItem {
    const records = recordsOf(this.history, node);
    const reverted = records.length > 0 && records.every((r) => r.revertedAt !== undefined);
    const state = reverted ? '.reverted' : '';
    switch (node.kind) {
      case 'chat': {
        const item = new vscode.TreeItem(
          this.names.chat(node.session),
          this.isNewestChat(node.session) ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
        );
        item.id = `chat:${node.session}`;
        item.description = counts(records);
        item.iconPath = new vscode.ThemeIcon('comment-discussion');
        item.contextValue = `editGuard.chat${state}`;
        return item;
      }
      case 'turn': {
        const item = new vscode.TreeItem(this.names.turn(node.session, node.turn), vscode.TreeItemCollapsibleState.Expanded);
        item.id = `turn:${node.session}\n${node.turn ?? ''}`;
        item.description = counts(records);
        item.iconPath = new vscode.ThemeIcon('history');
        item.contextValue = `editGuard.turn${state}`;
        return item;
      }
      case 'file': {
        const uri = vscode.Uri.parse(node.uri);
        const several = records.length > 1;
        const item = new vscode.TreeItem(uri, several ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
        item.id = `file:${node.session}\n${node.turn ?? ''}\n${node.uri}`;
        const relative = vscode.workspace.asRelativePath(uri, false);
        const folder = relative.includes('/') ? relative.slice(0, relative.lastIndexOf('/')) : '';
        const last = records[records.length - 1];
        const what = several
          ? vscode.l10n.t('{0} edits', records.length)
          : `${this.names.tool(last.tool, last.agent)}${last.deleted ? ` · ${vscode.l10n.t('deleted')}` : ''} · ${timeOfDay(last.at)}`;
        item.description = [folder, what, reverted ? vscode.l10n.t('reverted') : ''].filter(Boolean).join(' · ');
        item.tooltip = this.tooltip(records);
        item.command = { command: COMMANDS.openEditDiff, title: vscode.l10n.t('Open Changes'), arguments: [node] };
        item.contextValue = `editGuard.file${state}`;
        return item;
      }
      case 'edit': {
        const r = records[0];
        const item = new vscode.TreeItem(
          r
            ? `${this.names.tool(r.tool, r.agent)}${r.deleted ? ` · ${vscode.l10n.t('deleted')}` : ''} · ${timeOfDay(r.at)}`
            : vscode.l10n.t('(dropped from the record)'),
          vscode.TreeItemCollapsibleState.None,
        );
        item.id = `edit:${node.id}`;
        item.description = r?.revertedAt !== undefined ? vscode.l10n.t('reverted') : r?.saved ? '' : vscode.l10n.t('unsaved');
        item.tooltip = this.tooltip(records);
        item.iconPath = new vscode.ThemeIcon(r?.beforeHash === undefined ? 'new-file' : r?.deleted ? 'trash' : 'edit');
        item.command = { command: COMMANDS.openEditDiff, title: vscode.l10n.t('Open Changes'), arguments: [node] };
        item.contextValue = `editGuard.edit${state}`;
        return item;
      }
    }
  }

  /** Shows the view, with the file of the newest edit in it (its chat and turn expanded). */
  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${AGENT_EDITS_VIEW_ID}.focus`);
    const newest = this.history.all().at(-1);
    if (!newest) return;
    const file = this.node({ kind: 'file', session: newest.session, turn: newest.turn, uri: newest.uri });
    await this.view.reveal(file, { select: true, focus: false, expand: false });
  }

  private isNewestChat(session: string): boolean {
    const all = this.history.all();
    return all.length > 0 && all[all.length - 1].session === session;
  }

  private tooltip(records: readonly EditRecord[]): vscode.MarkdownString {
    const md = new vscode.MarkdownString();
    for (const r of [...records].reverse().slice(0, 10)) {
      const how =
        r.beforeHash === undefined ? vscode.l10n.t('created the file') : r.saved ? vscode.l10n.t('saved') : vscode.l10n.t('left unsaved');
      md.appendMarkdown(
        `- ${this.names.tool(r.tool, r.agent)} ${vscode.l10n.t('at {0}', timeOfDay(r.at))} — ${how}${r.revertedAt !== undefined ? ` · ${vscode.l10n.t('reverted at {0}', timeOfDay(r.revertedAt))}` : ''}\n`,
      );
    }
    return md;
  }

  dispose(): void {
    this.listener.dispose();
    this.view.dispose();
    this.changed.dispose();
  }
}
