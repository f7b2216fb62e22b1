// Which chat and which turn a tool call belongs to (DESIGN "Chat sessions and turns").
// Nothing here is documented API: read every field defensively.
import * as vscode from 'vscode';

/** The session of calls made outside any chat (another extension calling `vscode.lm.invokeTool`). */
export const NO_CHAT_SESSION = 'no-chat';

type UriComponentsLike = { scheme: string; authority?: string; path?: string; query?: string; fragment?: string };

function isUriComponents(value: unknown): value is UriComponentsLike {
  return typeof value === 'object' && value !== null && typeof (value as { scheme?: unknown }).scheme === 'string';
}

/** Chat ids (as hooks name a chat) → the session key its tool tokens gave, learned from our tools' calls. */
const keysByChatId = new Map<string, string>();

/**
 * A local chat's resource is `vscode-chat-session://local/<base64 of the chat id>`; hooks name the
 * chat by that id (`session_id`). Remembering the pair keeps both on one key whatever the encoding.
 */
function learnChatId(key: string, resource: { scheme: string; authority?: string; path?: string }): string {
  const segment = resource.scheme === 'vscode-chat-session' ? (resource.path ?? '').split('/').filter(Boolean).pop() : undefined;
  if (segment) {
    const id = Buffer.from(segment.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
    if (/^[\w-]+$/.test(id) && keysByChatId.size < 10_000) keysByChatId.set(id, key);
  }
  return key;
}

/** The session key of a chat named by its id, as hooks name it: the same key its tools' tokens give. */
export function sessionKeyOfChatId(id: string): string {
  return (
    keysByChatId.get(id) ??
    vscode.Uri.from({ scheme: 'vscode-chat-session', authority: 'local', path: `/${Buffer.from(id, 'utf8').toString('base64')}` }).toString()
  );
}

/** A stable key for the chat session of `options.toolInvocationToken`. */
export function sessionKeyOf(token: unknown): string {
  if (typeof token !== 'object' || token === null) return NO_CHAT_SESSION;
  const { sessionResource, sessionId } = token as { sessionResource?: unknown; sessionId?: unknown };
  if (sessionResource instanceof vscode.Uri) return learnChatId(sessionResource.toString(), sessionResource);
  if (isUriComponents(sessionResource)) {
    try {
      return learnChatId(vscode.Uri.from({
        scheme: sessionResource.scheme,
        authority: sessionResource.authority ?? '',
        path: sessionResource.path ?? '',
        query: sessionResource.query ?? '',
        fragment: sessionResource.fragment ?? '',
      }).toString(), sessionResource);
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
