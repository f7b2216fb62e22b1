// Which chat and which turn a tool call belongs to (docs/design.md §Chat sessions and turns).
// Nothing here is documented API: every field is read defensively. No `vscode` import: the one thing
// VS Code must do — write a URI as its canonical string — is handed in, so the keys are unit-tested.
import { BoundedMap } from '../core/boundedMap';

/** The session of calls made outside any chat (another extension calling `vscode.lm.invokeTool`). */
export const NO_CHAT_SESSION = 'no-chat';

/** The scheme and authority of a local chat's resource: `vscode-chat-session://local/<base64 of the chat id>`. */
const CHAT_SCHEME = 'vscode-chat-session';
const LOCAL_AUTHORITY = 'local';

/** Chats whose hook id ↔ session key pair is remembered; the least recently used go first. */
const MAX_KNOWN_CHATS = 10_000;

export interface UriParts {
  scheme: string;
  authority?: string;
  path?: string;
  query?: string;
  fragment?: string;
}

/** A URI's canonical string, as `vscode.Uri.from(parts).toString()` writes it. */
export type UriFormatter = (parts: Required<UriParts>) => string;

function isUriParts(value: unknown): value is UriParts {
  return typeof value === 'object' && value !== null && typeof (value as { scheme?: unknown }).scheme === 'string';
}

export class ChatSessions {
  /** Chat ids (as hooks name a chat) → the session key its tool tokens gave, learned from our tools' calls. */
  private readonly keysByChatId = new BoundedMap<string, string>(MAX_KNOWN_CHATS);

  constructor(private readonly formatUri: UriFormatter) {}

  /** A stable key for the chat session of `options.toolInvocationToken`. */
  keyOf(token: unknown): string {
    if (typeof token !== 'object' || token === null) return NO_CHAT_SESSION;
    const { sessionResource, sessionId } = token as { sessionResource?: unknown; sessionId?: unknown };
    if (isUriParts(sessionResource)) {
      try {
        const key = this.formatUri({
          scheme: sessionResource.scheme,
          authority: sessionResource.authority ?? '',
          path: sessionResource.path ?? '',
          query: sessionResource.query ?? '',
          fragment: sessionResource.fragment ?? '',
        });
        this.learnChatId(key, sessionResource);
        return key;
      } catch {
        /* fall through to the other shapes */
      }
    }
    if (typeof sessionId === 'string' && sessionId) return `chat-session:${sessionId}`;
    return NO_CHAT_SESSION;
  }

  /**
   * The session key of a chat named by its id, as hooks name it: the same key its tools' tokens give.
   * Unlearned (the chat's first call was a hook's), it is built as VS Code builds a local chat's
   * resource (`LocalChatSessionUri.forSession`): the id's UTF-8 in URL-safe base64 without padding.
   */
  keyOfChatId(id: string): string {
    return (
      this.keysByChatId.get(id) ??
      this.formatUri({
        scheme: CHAT_SCHEME,
        authority: LOCAL_AUTHORITY,
        path: `/${Buffer.from(id, 'utf8').toString('base64url')}`,
        query: '',
        fragment: '',
      })
    );
  }

  /**
   * A local chat's resource names the chat by the base64 of its id; hooks name it by the id
   * (`session_id`). Remembering the pair keeps both on one key whatever the encoding.
   */
  private learnChatId(key: string, resource: UriParts): void {
    if (resource.scheme !== CHAT_SCHEME) return;
    const segment = (resource.path ?? '').split('/').filter(Boolean).pop();
    if (!segment) return;
    const id = Buffer.from(segment.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
    if (/^[\w-]+$/.test(id)) this.keysByChatId.set(id, key);
  }
}

/** The chat turn (`chatRequestId`) if the calling agent passed one; `undefined` = a turn of its own. */
export function turnOf(options: object): string | undefined {
  const id = (options as { chatRequestId?: unknown }).chatRequestId;
  return typeof id === 'string' && id ? id : undefined;
}
