// Which chat and which turn a tool call belongs to (DESIGN "Chat sessions and turns").
// Nothing here is documented API: read every field defensively.
import * as vscode from 'vscode';

/** The session of calls made outside any chat (another extension calling `vscode.lm.invokeTool`). */
export const NO_CHAT_SESSION = 'no-chat';

type UriComponentsLike = { scheme: string; authority?: string; path?: string; query?: string; fragment?: string };

function isUriComponents(value: unknown): value is UriComponentsLike {
  return typeof value === 'object' && value !== null && typeof (value as { scheme?: unknown }).scheme === 'string';
}

/** A stable key for the chat session of `options.toolInvocationToken`. */
export function sessionKeyOf(token: unknown): string {
  if (typeof token !== 'object' || token === null) return NO_CHAT_SESSION;
  const { sessionResource, sessionId } = token as { sessionResource?: unknown; sessionId?: unknown };
  if (sessionResource instanceof vscode.Uri) return sessionResource.toString();
  if (isUriComponents(sessionResource)) {
    try {
      return vscode.Uri.from({
        scheme: sessionResource.scheme,
        authority: sessionResource.authority ?? '',
        path: sessionResource.path ?? '',
        query: sessionResource.query ?? '',
        fragment: sessionResource.fragment ?? '',
      }).toString();
    } catch {
      /* fall through to the other shapes */
    }
  }
  if (typeof sessionId === 'string' && sessionId) return `chat-session:${sessionId}`;
  return NO_CHAT_SESSION;
}

/** The chat turn (`chatRequestId`) if the calling agent passed one; `undefined` = a turn of its own. */
export function turnOf(options: object): string | undefined {
  const id = (options as { chatRequestId?: unknown }).chatRequestId;
  return typeof id === 'string' && id ? id : undefined;
}

/** A short, human label for a session key, for the status bar and quick pick. */
export function sessionLabel(session: string): string {
  if (session === NO_CHAT_SESSION) return vscode.l10n.t('No chat (direct tool calls)');
  const tail = session.replace(/[/=]+$/, '').slice(-6);
  return vscode.l10n.t('Chat …{0}', tail);
}
