// The API `activate()` returns, for other extensions and for tests (DESIGN "Surfaces").
import type * as vscode from 'vscode';
import type { MarkStore, ReadMark } from './core/marks';

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

/**
 * Freshness of a mark: against the open document's hash when there is one (exact, even inside
 * the live tracker's debounce), else against the last hash the store observed.
 */
export function isMarkFresh(store: MarkStore, mark: ReadMark, currentHash: (uri: string) => string | undefined): boolean {
  const now = currentHash(mark.uri);
  return now !== undefined ? now === mark.hash : store.isFresh(mark);
}

export function toReadMarkInfo(mark: ReadMark, fresh: boolean): ReadMarkInfo {
  const info: ReadMarkInfo = { session: mark.session, uri: mark.uri, hash: mark.hash, origin: mark.origin, fresh, at: mark.at };
  if (mark.turn !== undefined) info.turn = mark.turn;
  return info;
}
