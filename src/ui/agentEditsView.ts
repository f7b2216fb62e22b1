// The Agent Edits view: the edit record (core/editRecord.ts), grouped chat → turn → file, with counts.
// Its elements are the record's scopes (`AgentEditNode` is an `EditScope`), so the commands that act on
// them (agentEditCommands.ts) take the same objects from the view, the Command Palette or a test.
import * as vscode from 'vscode';
import type { AfterAnswer } from '../core/afterAnswer';
import { COMMANDS } from '../commands';
import { type EditRecord, type EditScope, groupEdits, type RecordedEdit } from '../core/editRecord';
import { timeOfDay } from './labels';

export const AGENT_EDITS_VIEW_ID = 'editGuard.agentEdits';

/** A node of the view: the edits of a chat, a turn, a file in a turn, or one edit. */
export type AgentEditNode = EditScope;

/** How the view names a chat and a turn to a person (ui/labels.ts). */
export interface EditNames {
  chat(session: string): string;
  turn(session: string, turn: string | undefined): string;
  /** Whose tool did what, in a few words (ui/labels.ts `toolLabel`): "guarded replace", "Claude Code edit". */
  tool(tool: string, agent: string | undefined): string;
}

/** Groups in order of their newest edit, newest first. */
function groupsOf<K>(edits: readonly RecordedEdit[], key: (r: RecordedEdit) => K): Array<{ key: K; edits: RecordedEdit[] }> {
  return [...groupEdits(edits, key)]
    .map(([k, rs]) => ({ key: k, edits: rs }))
    .sort((a, b) => b.edits[b.edits.length - 1].seq - a.edits[a.edits.length - 1].seq);
}

function counts(edits: readonly RecordedEdit[]): string {
  const files = new Set(edits.map((r) => r.uri)).size;
  const count = edits.length;
  const open = edits.filter((r) => r.revertedAt === undefined).length;
  const what =
    files === 1
      ? count === 1
        ? vscode.l10n.t('1 file · 1 edit')
        : vscode.l10n.t('1 file · {0} edits', count)
      : vscode.l10n.t('{0} files · {1} edits', files, count);
  if (open === 0) return `${what} · ${vscode.l10n.t('all reverted')}`;
  if (open < count) return `${what} · ${vscode.l10n.t('{0} reverted', count - open)}`;
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
    private readonly record: EditRecord,
    private readonly names: EditNames,
    /** the record changes inside an agent's answer; the view is redrawn after it, once per burst */
    tidy: Pick<AfterAnswer, 'coalesced'>,
  ) {
    this.view = vscode.window.createTreeView(AGENT_EDITS_VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    this.listener = record.onDidChange(tidy.coalesced(() => this.refresh()));
    this.refresh();
  }

  refresh(): void {
    // nodes of edits that are gone (dropped by the budget, cleared) are not kept
    if (this.nodes.size > 4 * this.record.all().length + 16) this.nodes.clear();
    const open = this.record.unreverted();
    this.view.badge = open ? { value: open, tooltip: vscode.l10n.t('{0} agent edits not reverted', open) } : undefined;
    this.changed.fire(undefined);
  }

  getChildren(node?: AgentEditNode): AgentEditNode[] {
    const edits = node ? this.record.select(node) : this.record.all();
    if (!node) return groupsOf(edits, (r) => r.session).map((g) => this.node({ kind: 'chat', session: g.key }));
    switch (node.kind) {
      case 'chat':
        return groupsOf(edits, (r) => r.turn ?? '').map((g) => this.node({ kind: 'turn', session: node.session, turn: g.edits[0].turn }));
      case 'turn':
        return groupsOf(edits, (r) => r.uri).map((g) => this.node({ kind: 'file', session: node.session, turn: node.turn, uri: g.key }));
      case 'file':
        return edits.length > 1 ? [...edits].reverse().map((r) => this.node({ kind: 'edit', id: r.id })) : [];
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
        const r = this.record.get(node.id);
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
    const edits = this.record.select(node);
    const reverted = edits.length > 0 && edits.every((r) => r.revertedAt !== undefined);
    const state = reverted ? '.reverted' : '';
    switch (node.kind) {
      case 'chat': {
        const item = new vscode.TreeItem(
          this.names.chat(node.session),
          this.isNewestChat(node.session) ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
        );
        item.id = `chat:${node.session}`;
        item.description = counts(edits);
        item.iconPath = new vscode.ThemeIcon('comment-discussion');
        item.contextValue = `editGuard.chat${state}`;
        return item;
      }
      case 'turn': {
        const item = new vscode.TreeItem(this.names.turn(node.session, node.turn), vscode.TreeItemCollapsibleState.Expanded);
        item.id = `turn:${node.session}\n${node.turn ?? ''}`;
        item.description = counts(edits);
        item.iconPath = new vscode.ThemeIcon('history');
        item.contextValue = `editGuard.turn${state}`;
        return item;
      }
      case 'file': {
        const uri = vscode.Uri.parse(node.uri);
        const several = edits.length > 1;
        const item = new vscode.TreeItem(uri, several ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
        item.id = `file:${node.session}\n${node.turn ?? ''}\n${node.uri}`;
        const relative = vscode.workspace.asRelativePath(uri, false);
        const folder = relative.includes('/') ? relative.slice(0, relative.lastIndexOf('/')) : '';
        const last = edits[edits.length - 1];
        const what = several
          ? vscode.l10n.t('{0} edits', edits.length)
          : `${this.names.tool(last.tool, last.agent)}${last.deleted ? ` · ${vscode.l10n.t('deleted')}` : ''} · ${timeOfDay(last.at)}`;
        item.description = [folder, what, reverted ? vscode.l10n.t('reverted') : ''].filter(Boolean).join(' · ');
        item.tooltip = this.tooltip(edits);
        item.command = { command: COMMANDS.openEditDiff, title: vscode.l10n.t('Open Changes'), arguments: [node] };
        item.contextValue = `editGuard.file${state}`;
        return item;
      }
      case 'edit': {
        const r = edits[0];
        const item = new vscode.TreeItem(
          r
            ? `${this.names.tool(r.tool, r.agent)}${r.deleted ? ` · ${vscode.l10n.t('deleted')}` : ''} · ${timeOfDay(r.at)}`
            : vscode.l10n.t('(dropped from the record)'),
          vscode.TreeItemCollapsibleState.None,
        );
        item.id = `edit:${node.id}`;
        item.description = r?.revertedAt !== undefined ? vscode.l10n.t('reverted') : r?.saved ? '' : vscode.l10n.t('unsaved');
        item.tooltip = this.tooltip(edits);
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
    const newest = this.record.all().at(-1);
    if (!newest) return;
    const file = this.node({ kind: 'file', session: newest.session, turn: newest.turn, uri: newest.uri });
    await this.view.reveal(file, { select: true, focus: false, expand: false });
  }

  private isNewestChat(session: string): boolean {
    const all = this.record.all();
    return all.length > 0 && all[all.length - 1].session === session;
  }

  private tooltip(edits: readonly RecordedEdit[]): vscode.MarkdownString {
    const md = new vscode.MarkdownString();
    for (const r of [...edits].reverse().slice(0, 10)) {
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
