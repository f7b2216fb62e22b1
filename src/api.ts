// The API `activate()` returns, for other extensions and for tests (docs/design.md §Surfaces).
import type * as vscode from 'vscode';
import type { EditRecord } from './core/editHistory';
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

/** One agent edit in the record (the Agent Edits view): revert it with the `editGuard.revertEdit` command and its `id`. */
export interface AgentEditInfo {
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
  agentEdits(): AgentEditInfo[];
  onDidChangeAgentEdits(listener: () => void): { dispose(): void };
}

export function toAgentEditInfo(record: EditRecord): AgentEditInfo {
  const info: AgentEditInfo = {
    id: record.id,
    session: record.session,
    tool: record.tool,
    uri: record.uri,
    created: record.beforeHash === undefined,
    deleted: record.deleted === true,
    saved: record.saved,
    at: record.at,
    reverted: record.revertedAt !== undefined,
  };
  if (record.turn !== undefined) info.turn = record.turn;
  if (record.agent !== undefined) info.agent = record.agent;
  return info;
}

export function toReadMarkInfo(mark: ReadMark, fresh: boolean): ReadMarkInfo {
  const info: ReadMarkInfo = { session: mark.session, uri: mark.uri, hash: mark.hash, origin: mark.origin, fresh, at: mark.at };
  if (mark.turn !== undefined) info.turn = mark.turn;
  return info;
}
