// How the surfaces name a chat and a turn to a person.
import * as vscode from 'vscode';
import { NO_CHAT_SESSION } from '../chat/session';
import type { MarkOrigin } from '../core/types';

/** A short, human label for a session key, for the status bar, quick pick and diagnostics. */
export function sessionLabel(session: string): string {
  if (session === NO_CHAT_SESSION) return vscode.l10n.t('No chat (direct tool calls)');
  const tail = session.replace(/[/=]+$/, '').slice(-6);
  return vscode.l10n.t('Chat …{0}', tail);
}

/** A turn id's short label. */
export const turnLabel = (turn: string | undefined) => (turn ? vscode.l10n.t('turn …{0}', turn.slice(-6)) : vscode.l10n.t('no turn id'));

/** How the chat came to see a file's version: the tag after each read mark. */
export function originLabel(origin: MarkOrigin): string {
  switch (origin) {
    case 'read':
      return vscode.l10n.t({ message: 'read', comment: ["a read mark's origin: the agent read the file"] });
    case 'refusal':
      return vscode.l10n.t({ message: 'refusal', comment: ["a read mark's origin: the agent was shown the file in a refused write"] });
    case 'write':
      return vscode.l10n.t({ message: 'write', comment: ["a read mark's origin: the agent wrote the file itself"] });
  }
}
