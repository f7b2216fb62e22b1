// What the agent-edit commands share: who they act on (`AgentEditCommandsEnvironment`), a recorded
// edit's texts as read-only documents (and a revert's conflicts), the scope a command was given and its
// edits, and how a file is named to the user.
import * as vscode from 'vscode';
import { BoundedMap } from '../core/boundedMap';
import type { EditRecord, RecordedEdit } from '../core/editRecord';
import type { AgentEditNode, AgentEditsView, EditNames } from './agentEditsView';

/** Conflicts whose marked text a diff can still show. */
const MAX_SHOWN_CONFLICTS = 20;

/** The scheme of the read-only documents a diff shows: a recorded text, or a revert's conflict. */
export const EDIT_TEXT_SCHEME = 'agent-edit-guard';

/** The texts a revert's conflicts would make (with markers), kept for a diff to show: the latest few. */
export class ConflictTexts {
  private readonly texts = new BoundedMap<string, string>(MAX_SHOWN_CONFLICTS);
  private count = 0;

  /** Keeps `marked`; returns the URI a diff shows it under, for the file `file`. */
  add(file: vscode.Uri, marked: string): vscode.Uri {
    const id = String(++this.count);
    this.texts.set(id, marked);
    return file.with({ scheme: EDIT_TEXT_SCHEME, query: `conflict=${id}` });
  }

  get(id: string): string | undefined {
    return this.texts.get(id);
  }
}

/** What every agent-edit command acts on: the edit record (it reverts too), its view, and how it names things. */
export interface AgentEditCommandsEnvironment {
  record: EditRecord;
  view: AgentEditsView;
  names: EditNames;
  conflicts: ConflictTexts;
}

/** A recorded text of an edit, as a read-only document's URI. */
export function textUri(edit: RecordedEdit, side: 'before' | 'after'): vscode.Uri {
  const hash = side === 'before' ? edit.beforeHash : edit.afterHash;
  return vscode.Uri.parse(edit.uri).with({ scheme: EDIT_TEXT_SCHEME, query: hash ? `text=${hash}` : 'empty' });
}

/** A node as a command receives it: from the view, or by edit id from the Command Palette or a test. */
function asNode(arg: unknown): AgentEditNode | undefined {
  if (typeof arg === 'string') return { kind: 'edit', id: arg };
  if (typeof arg === 'object' && arg !== null && typeof (arg as { kind?: unknown }).kind === 'string') return arg as AgentEditNode;
  return undefined;
}

/** The node a command was given and the edits it stands for (none when it is not, or no longer, in the record). */
export function chosen(record: EditRecord, arg: unknown): { node: AgentEditNode | undefined; edits: RecordedEdit[] } {
  const node = asNode(arg);
  return { node, edits: node ? record.select(node) : [] };
}

export const gone = () => void vscode.window.showWarningMessage(vscode.l10n.t('That agent edit is no longer in the record.'));

export const fileName = (uri: string) => vscode.workspace.asRelativePath(vscode.Uri.parse(uri), false);
