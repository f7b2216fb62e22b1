// Which chat and turn a call belongs to (src/chat/session.ts; docs/design.md §Chat sessions and
// turns): the session key from whatever the invocation token carries, the same key from the chat id
// the hooks name, and the turn from `chatRequestId`.
import * as assert from 'node:assert/strict';
import { ChatSessions, NO_CHAT_SESSION, turnOf, type UriFormatter } from '../../src/chat/session';

const format: UriFormatter = (p) => `${p.scheme}://${p.authority}${p.path}`;
const b64 = (id: string) => Buffer.from(id, 'utf8').toString('base64');
/** What VS Code writes in a local chat's resource (LocalChatSessionUri.forSession): URL-safe base64, no padding. */
const b64url = (id: string) => Buffer.from(id, 'utf8').toString('base64url');
/** A local chat's resource as the token carries it: plain URI components. */
const localChat = (segment: string, extra: Record<string, string> = {}) => ({
  sessionResource: { scheme: 'vscode-chat-session', authority: 'local', path: `/${segment}`, ...extra },
});

suite("chat sessions: the key of a tool call's token", () => {
  test('no token, or one that is not an object, is the no-chat session', () => {
    const s = new ChatSessions(format);
    for (const token of [
      undefined,
      null,
      'vscode-chat-session://local/abc',
      42,
      true,
      {},
      { sessionResource: 'vscode-chat-session://local/abc' },
      { sessionResource: { path: '/abc' } },
      { sessionId: '' },
      { sessionId: 7 },
    ]) {
      assert.equal(s.keyOf(token), NO_CHAT_SESSION, JSON.stringify(token));
    }
    assert.equal(NO_CHAT_SESSION, 'no-chat');
  });

  test("a sessionResource given as URI parts is the formatter's string of all five parts, missing ones empty", () => {
    const seen: unknown[] = [];
    const s = new ChatSessions((p) => {
      seen.push(p);
      return `${p.scheme}://${p.authority}${p.path}?${p.query}#${p.fragment}`;
    });
    assert.equal(s.keyOf(localChat('YWJj', { query: 'q=1', fragment: 'f' })), 'vscode-chat-session://local/YWJj?q=1#f');
    assert.equal(s.keyOf({ sessionResource: { scheme: 'other' } }), 'other://?#');
    assert.deepEqual(seen[1], { scheme: 'other', authority: '', path: '', query: '', fragment: '' });
  });

  test('a sessionResource wins over a sessionId; a sessionId alone gives chat-session:<id>', () => {
    const s = new ChatSessions(format);
    assert.equal(s.keyOf({ ...localChat('YWJj'), sessionId: 'old' }), 'vscode-chat-session://local/YWJj');
    assert.equal(s.keyOf({ sessionId: 'old' }), 'chat-session:old');
    assert.equal(
      s.keyOf({ sessionResource: { scheme: 5 }, sessionId: 'old' }),
      'chat-session:old',
      'a resource that is not URI parts is skipped',
    );
  });

  test('a formatter that throws falls back to the sessionId, else no-chat', () => {
    const s = new ChatSessions(() => {
      throw new Error('not a URI');
    });
    assert.equal(s.keyOf({ ...localChat('YWJj'), sessionId: 'old' }), 'chat-session:old');
    assert.equal(s.keyOf(localChat('YWJj')), NO_CHAT_SESSION);
  });

  test('the same token gives the same key every time; two chats give two keys', () => {
    const s = new ChatSessions(format);
    assert.equal(s.keyOf(localChat(b64('chat-1'))), s.keyOf(localChat(b64('chat-1'))));
    assert.notEqual(s.keyOf(localChat(b64('chat-1'))), s.keyOf(localChat(b64('chat-2'))));
  });
});

suite('chat sessions: the key of a chat the hooks name by its id', () => {
  const uuid = '8f6a71fe-6353-4bd9-a032-dba0e1966cf5';

  test('keyOfChatId(id) is the key of a token whose resource is vscode-chat-session://local/<base64url of id, unpadded> (as VS Code builds it), learned or not', () => {
    // 'a', 'ab', 'chat-123456789' (VS Code's own fallback form of an id): their padded base64 would differ
    for (const id of [uuid, 'a', 'ab', 'abc', 'chat_1-x', 'chat-123456789', 'é?>']) {
      const fresh = new ChatSessions(format);
      const tokenKey = new ChatSessions(format).keyOf(localChat(b64url(id)));
      assert.equal(fresh.keyOfChatId(id), tokenKey, `${id}: built from the id alone`);
      const learned = new ChatSessions(format);
      assert.equal(learned.keyOf(localChat(b64url(id))), tokenKey);
      assert.equal(learned.keyOfChatId(id), tokenKey, `${id}: after the token was seen`);
    }
  });

  test('the key is learned from a token whose path used another base64 form: no padding, URL-safe letters, a trailing slash', () => {
    // Note: an id of [\w-] is ASCII, and no ASCII letter, digit, "_" or "-" makes a base64 digit 62 or
    // 63, so its URL-safe form is its standard form; the padding is what differs.
    for (const id of ['ab', 'abcd', 'chat_1-x', uuid]) {
      const variants = [
        b64(id).replace(/=+$/, ''),
        b64(id).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
        `${b64(id)}/`,
        `${b64(id).replace(/=+$/, '')}/`,
      ];
      for (const segment of variants) {
        const s = new ChatSessions(format);
        const key = s.keyOf(localChat(segment));
        assert.equal(key, `vscode-chat-session://local/${segment}`);
        assert.equal(s.keyOfChatId(id), key, `${id} as ${segment}`);
      }
    }
  });

  test('a chat id whose bytes are not [\\w-]+ is not learned, nor is a resource of another scheme', () => {
    const s = new ChatSessions(format);
    for (const id of ['a b', 'a/b', 'é1', 'x.y']) {
      const key = s.keyOf(localChat(`${b64(id)}/`)); // a trailing slash: a key that differs from the one built from the id
      assert.notEqual(s.keyOfChatId(id), key, `${JSON.stringify(id)} is not learned`);
      assert.equal(s.keyOfChatId(id), `vscode-chat-session://local/${b64url(id)}`);
    }
    s.keyOf(localChat('%%%/'));
    s.keyOf({ sessionResource: { scheme: 'file', authority: '', path: `/${b64('chat9')}/` } });
    assert.equal(s.keyOfChatId('chat9'), `vscode-chat-session://local/${b64url('chat9')}`);
  });

  test('the learned ids are bounded: after more than 10 000 chats the earliest is forgotten and the newest kept', () => {
    const s = new ChatSessions(format);
    // a path with a trailing slash gives a key of its own, unlike the one built from the id
    const id = (i: number) => `chat-${String(i).padStart(5, '0')}`;
    const segment = (i: number) => `${b64url(id(i))}/`;
    const count = 10_001;
    for (let i = 0; i < count; i++) s.keyOf(localChat(segment(i)));
    assert.equal(
      s.keyOfChatId(id(0)),
      `vscode-chat-session://local/${b64url(id(0))}`,
      'the earliest is forgotten: the key is built from the id again',
    );
    assert.equal(s.keyOfChatId(id(1)), `vscode-chat-session://local/${segment(1)}`, 'the bound is 10 000: the second is still known');
    assert.equal(
      s.keyOfChatId(id(count - 1)),
      `vscode-chat-session://local/${segment(count - 1)}`,
      'the newest is kept: learning goes on past the bound',
    );
    s.keyOf(localChat(segment(0)));
    assert.equal(
      s.keyOfChatId(id(0)),
      `vscode-chat-session://local/${segment(0)}`,
      'a forgotten chat is learned again when its token comes back',
    );
  });
});

suite('chat turns', () => {
  test('turnOf reads chatRequestId only when it is a non-empty string', () => {
    assert.equal(turnOf({ chatRequestId: 'request-1' }), 'request-1');
    for (const options of [
      {},
      { chatRequestId: '' },
      { chatRequestId: 42 },
      { chatRequestId: null },
      { chatRequestId: { id: 'x' } },
      { requestId: 'x' },
    ]) {
      assert.equal(turnOf(options), undefined, JSON.stringify(options));
    }
  });
});
