// The API `activate()` returns, for other extensions and for tests (docs/design.md §Surfaces).
import type * as vscode from 'vscode';
import type { RecordedEdit } from './core/editRecord';
import type { ReadMark } from './core/marks';

export interface ReadMarkInfo {
  session: string;
  uri: string;
  hash: string;
  turn?: string;
  origin: 'read' | 'refusal' | 'write';
  /** The file's current text still has this hash. */
  fresh: boolean;
  at: number;
}

/** One agent edit in the edit record (the Agent Edits view shows it): revert it with the `editGuard.revertEdit` command and its `id`. */
export interface RecordedEditInfo {
  id: string;
  session: string;
  turn?: string;
  tool: string;
  /** Whose own tool made it (`copilot`, `claude-code`); absent for the guarded tools. */
  agent?: string;
  uri: string;
  /** The edit created the file. */
  created: boolean;
  /** The edit deleted the file (an agent's patch: Delete File, or a Move's source). */
  deleted: boolean;
  saved: boolean;
  at: number;
  reverted: boolean;
}

export interface AgentEditGuardApi {
  readMarks(): ReadMarkInfo[];
  onDidChangeReadMarks: vscode.Event<void>;
  /** The edit record: every agent edit kept for review and revert, oldest first. */
  editRecord(): RecordedEditInfo[];
  onDidChangeEditRecord(listener: () => void): { dispose(): void };
}

export function toRecordedEditInfo(edit: RecordedEdit): RecordedEditInfo {
  const info: RecordedEditInfo = {
    id: edit.id,
    session: edit.session,
    tool: edit.tool,
    uri: edit.uri,
    created: edit.beforeHash === undefined,
    deleted: edit.deleted === true,
    saved: edit.saved,
    at: edit.at,
    reverted: edit.revertedAt !== undefined,
  };
  if (edit.turn !== undefined) info.turn = edit.turn;
  if (edit.agent !== undefined) info.agent = edit.agent;
  return info;
}

export function toReadMarkInfo(mark: ReadMark, fresh: boolean): ReadMarkInfo {
  const info: ReadMarkInfo = { session: mark.session, uri: mark.uri, hash: mark.hash, origin: mark.origin, fresh, at: mark.at };
  if (mark.turn !== undefined) info.turn = mark.turn;
  return info;
}
