// The API `activate()` returns, for other extensions and for tests (docs/design.md §Surfaces).
import type * as vscode from 'vscode';
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

export interface AgentEditGuardApi {
  readMarks(): ReadMarkInfo[];
  onDidChangeReadMarks: vscode.Event<void>;
}

export function toReadMarkInfo(mark: ReadMark, fresh: boolean): ReadMarkInfo {
  const info: ReadMarkInfo = { session: mark.session, uri: mark.uri, hash: mark.hash, origin: mark.origin, fresh, at: mark.at };
  if (mark.turn !== undefined) info.turn = mark.turn;
  return info;
}
