// How chats and turns are named to a person (src/chat/names.ts; docs/design.md §Chat sessions and turns):
// ordinals in the order turns were first seen, a retag that keeps what was known, the words kept of a
// prompt, which prompt titles a chat, the bounds, and a saved state that restores or is skipped.
import * as assert from 'node:assert/strict';
import { ChatNames, type ChatNamesState, MAX_NAMED_CHATS, MAX_NAMED_TURNS, PROMPT_WORDS_MAX, promptWords } from '../../src/chat/names';
import { NO_CHAT_SESSION } from '../../src/chat/session';

const CHAT = 'vscode-chat-session://local/OGY2YTcxZmU';
const OTHER = 'vscode-chat-session://local/MGIxYzJkM2U';

/** A clock the test moves: each call of `tick` is one minute later. */
function clock(start = Date.UTC(2026, 10, 30, 13, 2)) {
  let t = start;
  return { now: () => t, tick: (minutes = 1) => (t += minutes * 60_000) };
}

function named() {
  const c = clock();
  const names = new ChatNames(c.now);
  let changes = 0;
  names.onDidChange(() => changes++);
  return { names, ...c, changes: () => changes };
}

suite('chat names: chats and turns as first seen', () => {
  test("ordinals count a chat's turns in the order they were first seen, each with the time it was; a turn seen again keeps its number", () => {
    const { names, now, tick } = named();
    const start = now();
    names.noteCall(CHAT, 'request-a');
    tick();
    names.noteCall(CHAT, 'request-b');
    names.noteCall(CHAT, 'request-a');
    tick();
    names.noteCall(OTHER, 'request-x');
    names.noteCall(CHAT, 'request-c');
    assert.deepEqual(names.turn(CHAT, 'request-a'), { session: CHAT, turn: 'request-a', ordinal: 1, startedAt: start });
    assert.deepEqual(names.turn(CHAT, 'request-b'), { session: CHAT, turn: 'request-b', ordinal: 2, startedAt: start + 60_000 });
    assert.equal(names.turn(CHAT, 'request-c')?.ordinal, 3, "another chat's turns do not count");
    assert.equal(names.turn(OTHER, 'request-x')?.ordinal, 1);
    assert.deepEqual(names.chat(CHAT), { session: CHAT, startedAt: start });
    assert.equal(names.chat(OTHER)?.startedAt, start + 120_000);
    assert.equal(names.turn(CHAT, 'request-x'), undefined, "a turn of another chat is not this chat's");
    assert.equal(names.chat('never-seen'), undefined);
  });

  test('a call without a turn id notes the chat only; onDidChange fires for what is new, not for what is known', () => {
    const { names, changes } = named();
    names.noteCall(CHAT, undefined);
    assert.ok(names.chat(CHAT));
    assert.equal(changes(), 1);
    names.noteCall(CHAT, undefined);
    assert.equal(changes(), 1, 'nothing new');
    names.noteCall(CHAT, 'request-a');
    assert.equal(changes(), 2, 'a new turn');
    assert.equal(names.turn(CHAT, 'request-a')?.ordinal, 1, 'the calls without a turn id took no number');
    names.noteCall(CHAT, 'request-a');
    assert.equal(changes(), 2);
  });

  test("retag: the counted turn, now known by Copilot's id, keeps its number, time and words; the old name is gone", () => {
    const { names, now, tick, changes } = named();
    const start = now();
    names.notePrompt(CHAT, 'chat#1', 'Fix the greeting');
    tick();
    names.notePrompt(CHAT, 'chat#2', 'Now add a test');
    const before = changes();
    names.retagTurn(CHAT, 'chat#1', 'request-1');
    assert.deepEqual(names.turn(CHAT, 'request-1'), {
      session: CHAT,
      turn: 'request-1',
      ordinal: 1,
      startedAt: start,
      prompt: 'Fix the greeting',
    });
    assert.equal(names.turn(CHAT, 'chat#1'), undefined);
    assert.equal(changes(), before + 1);
    names.noteCall(CHAT, 'request-1');
    tick();
    names.noteCall(CHAT, 'request-3');
    assert.equal(names.turn(CHAT, 'request-3')?.ordinal, 3, 'the retag took no new number');
    names.retagTurn(CHAT, 'unknown', 'request-9');
    names.retagTurn(OTHER, 'chat#2', 'request-9');
    assert.equal(names.turn(CHAT, 'request-9'), undefined, 'a turn never seen is not made up');
    assert.equal(names.turn(CHAT, 'chat#2')?.ordinal, 2, "another chat's retag does not touch this chat");
  });

  test('retag onto a name already noted: one turn, the one seen first, with the words either had', () => {
    const { names, now, tick } = named();
    const start = now();
    names.notePrompt(CHAT, 'chat#1', 'Fix the greeting');
    tick();
    names.noteCall(CHAT, 'request-1'); // a guarded call noted before the retag reached the names
    names.retagTurn(CHAT, 'chat#1', 'request-1');
    assert.deepEqual(names.turn(CHAT, 'request-1'), {
      session: CHAT,
      turn: 'request-1',
      ordinal: 1,
      startedAt: start,
      prompt: 'Fix the greeting',
    });
    assert.equal(names.turn(CHAT, 'chat#1'), undefined);
  });
});

suite('chat names: the words of a request', () => {
  test('whitespace is collapsed; a prompt that fits is kept whole', () => {
    assert.equal(promptWords('  Fix the\n\tgreeting   in hello.ts \n'), 'Fix the greeting in hello.ts');
    assert.equal(promptWords(' \n\t '), undefined);
    assert.equal(promptWords(''), undefined);
    const exact = 'x'.repeat(PROMPT_WORDS_MAX);
    assert.equal(promptWords(exact), exact, 'exactly the budget is not cut');
  });

  test('a long prompt is cut at the last word boundary within the budget, with …, trailing punctuation dropped', () => {
    const prompt = 'Add a greeting to hello.ts, then write a unit test for it, and update the README with an example of the output';
    // "…for it," ends at character 58; with " and" it would be 62
    assert.equal(promptWords(prompt), 'Add a greeting to hello.ts, then write a unit test for it…');
    assert.equal(promptWords('one two three', 7), 'one two…', 'the budget counts the spaces between words');
    assert.equal(promptWords('one two three', 8), 'one two…');
  });

  test('a first word longer than the budget is cut inside, never through a surrogate pair; a huge prompt is read only as far as needed', () => {
    assert.equal(promptWords('y'.repeat(500)), 'y'.repeat(PROMPT_WORDS_MAX) + '…');
    // two UTF-16 units each, after one: the budget's last unit is the first half of a pair
    const emoji = 'a' + '😀'.repeat(PROMPT_WORDS_MAX);
    assert.equal(promptWords(emoji), 'a' + '😀'.repeat(PROMPT_WORDS_MAX / 2 - 1) + '…');
    const huge = 'Refactor the parser ' + 'and more words '.repeat(200_000);
    const words = promptWords(huge)!;
    assert.ok(words.startsWith('Refactor the parser and more words'), words);
    assert.ok(words.length <= PROMPT_WORDS_MAX + 1);
  });

  test("the chat's first prompt titles it; later prompts name only their own turn", () => {
    const { names, tick } = named();
    names.notePrompt(CHAT, 'chat#1', 'Fix   the greeting\nin hello.ts');
    tick();
    names.notePrompt(CHAT, 'chat#2', 'Now add a test');
    assert.equal(names.chat(CHAT)?.title, 'Fix the greeting in hello.ts');
    assert.equal(names.turn(CHAT, 'chat#1')?.prompt, 'Fix the greeting in hello.ts');
    assert.deepEqual(names.turn(CHAT, 'chat#2'), {
      session: CHAT,
      turn: 'chat#2',
      ordinal: 2,
      startedAt: names.turn(CHAT, 'chat#2')!.startedAt,
      prompt: 'Now add a test',
    });
    names.notePrompt(CHAT, 'chat#1', 'other words for a known turn');
    assert.equal(names.turn(CHAT, 'chat#1')?.prompt, 'Fix the greeting in hello.ts', 'a turn keeps the words it was first given');
  });

  test('a prompt met after turns seen without words does not title the chat (it is not the first request); an empty prompt titles nothing', () => {
    const { names } = named();
    names.noteCall(CHAT, 'request-1');
    names.notePrompt(CHAT, 'chat#2', 'Continue with the tests');
    assert.equal(names.chat(CHAT)?.title, undefined);
    assert.equal(names.turn(CHAT, 'chat#2')?.prompt, 'Continue with the tests');
    names.notePrompt(OTHER, 'other#1', '   ');
    assert.equal(names.chat(OTHER)?.title, undefined);
    assert.equal(names.turn(OTHER, 'other#1')?.prompt, undefined);
    assert.equal(names.turn(OTHER, 'other#1')?.ordinal, 1, 'the turn is noted all the same');
  });

  test('the no-chat session is never titled', () => {
    const { names } = named();
    names.notePrompt(NO_CHAT_SESSION, 't1', 'Words for no chat');
    assert.equal(names.chat(NO_CHAT_SESSION)?.title, undefined);
    assert.equal(names.turn(NO_CHAT_SESSION, 't1')?.prompt, 'Words for no chat');
  });
});

suite('chat names: bounds', () => {
  test(`at most ${MAX_NAMED_CHATS} chats: the least recently active goes first`, () => {
    const { names } = named();
    for (let i = 0; i < MAX_NAMED_CHATS; i++) names.noteCall(`chat-${i}`, undefined);
    names.noteCall('chat-0', 'request'); // chat-0 is active again: chat-1 is now the oldest
    names.noteCall('one more', undefined);
    assert.equal(names.chat('chat-1'), undefined);
    assert.ok(names.chat('chat-0'));
    assert.ok(names.chat('chat-2'));
    assert.ok(names.chat('one more'));
    assert.equal(names.toJSON().chats.length, MAX_NAMED_CHATS);
  });

  test(`at most ${MAX_NAMED_TURNS} turns per chat: the oldest goes first, and later turns keep counting on`, () => {
    const { names } = named();
    for (let i = 1; i <= MAX_NAMED_TURNS + 1; i++) names.noteCall(CHAT, `request-${i}`);
    assert.equal(names.turn(CHAT, 'request-1'), undefined);
    assert.equal(names.turn(CHAT, 'request-2')?.ordinal, 2);
    assert.equal(names.turn(CHAT, `request-${MAX_NAMED_TURNS + 1}`)?.ordinal, MAX_NAMED_TURNS + 1);
    names.noteCall(CHAT, 'request-1');
    assert.equal(names.turn(CHAT, 'request-1')?.ordinal, MAX_NAMED_TURNS + 2, 'a turn forgotten and met again is a new sight');
  });

  test('looking a name up does not keep it alive', () => {
    const { names } = named();
    for (let i = 0; i < MAX_NAMED_CHATS; i++) names.noteCall(`chat-${i}`, undefined);
    assert.ok(names.chat('chat-0'));
    names.noteCall('one more', undefined);
    assert.equal(names.chat('chat-0'), undefined, 'a label drawn is not activity');
  });
});

suite('chat names: saved state', () => {
  test('restore(toJSON()) gives the same names, the same order of age, and the same next ordinal', () => {
    const { names, now, tick } = named();
    names.notePrompt(CHAT, 'chat#1', 'Fix the greeting in hello.ts');
    tick();
    names.noteCall(CHAT, 'request-2');
    names.noteCall(NO_CHAT_SESSION, undefined);
    names.noteCall(OTHER, 'request-x');
    names.retagTurn(CHAT, 'chat#1', 'request-1');
    const state = names.toJSON();
    const json = JSON.parse(JSON.stringify(state)) as unknown;
    const restored = ChatNames.restore(json, now);
    assert.deepEqual(restored.toJSON(), state);
    for (const s of [CHAT, OTHER, NO_CHAT_SESSION]) assert.deepEqual(restored.chat(s), names.chat(s));
    for (const t of ['request-1', 'request-2']) assert.deepEqual(restored.turn(CHAT, t), names.turn(CHAT, t));
    tick();
    restored.noteCall(CHAT, 'request-3');
    assert.equal(restored.turn(CHAT, 'request-3')?.ordinal, 3);
    assert.equal(restored.turn(CHAT, 'request-3')?.startedAt, now(), 'the restored object runs on the clock it was given');
  });

  test('the state is plain, versioned JSON holding the words, not the prompt', () => {
    const { names } = named();
    const prompt = 'Rewrite the whole module ' + 'with many more words than anyone needs to recognise it '.repeat(20);
    names.notePrompt(CHAT, 'chat#1', prompt);
    const text = JSON.stringify(names.toJSON());
    assert.equal(JSON.parse(text).version, 1);
    assert.ok(!text.includes(prompt.trim()), 'the whole prompt is never stored');
    assert.ok(text.length < 1000, `${text.length} characters`);
  });

  test('garbage restores to an empty, working object, without throwing', () => {
    const big = Array.from({ length: 200_000 }, (_, i) => ({
      session: `s${i}`,
      startedAt: i,
      turnsSeen: 1,
      turns: [{ turn: 't', ordinal: 1, startedAt: i }],
    }));
    const garbage: unknown[] = [
      null,
      undefined,
      42,
      'state',
      [],
      {},
      { version: 2, chats: [] },
      { version: 1 },
      { version: 1, chats: 'no' },
      {
        version: 1,
        chats: [
          null,
          1,
          'x',
          [],
          { session: 5, startedAt: 1 },
          { session: '', startedAt: 1 },
          { session: 'a', startedAt: 'noon' },
          { session: 'b', startedAt: Number.NaN },
          { session: 'c', startedAt: -1 },
        ],
      },
    ];
    for (const state of garbage) {
      const names = ChatNames.restore(state);
      assert.deepEqual(names.toJSON(), { version: 1, chats: [] }, JSON.stringify(state));
      names.noteCall(CHAT, 'request-1');
      assert.equal(names.turn(CHAT, 'request-1')?.ordinal, 1);
    }
    const huge = ChatNames.restore({ version: 1, chats: big });
    assert.equal(huge.toJSON().chats.length, MAX_NAMED_CHATS, 'a huge list is cut to the bound');
    assert.ok(huge.chat(`s${big.length - 1}`), 'keeping the newest');
    assert.equal(huge.chat('s0'), undefined);
  });

  test('within a chat, malformed fields are dropped and the rest kept; words are cut again; ordinals stay unique and ahead', () => {
    const state = {
      version: 1,
      chats: [
        {
          session: CHAT,
          startedAt: 1000,
          title: 'A title written by hand that goes on and on well past what a prompt would keep of it',
          turnsSeen: 'many',
          turns: [
            { turn: 'ok', ordinal: 4, startedAt: 2000, prompt: 42 },
            { turn: 'dup', ordinal: 4, startedAt: 2100 },
            { turn: 'zero', ordinal: 0, startedAt: 2200 },
            { turn: 'half', ordinal: 1.5, startedAt: 2300 },
            { turn: '', ordinal: 5, startedAt: 2400 },
            { turn: 'no time', ordinal: 6 },
            'not a turn',
            { turn: 'words', ordinal: 2, startedAt: 2500, prompt: '  Fix\nit  ' },
          ],
        },
        { session: NO_CHAT_SESSION, startedAt: 10, title: 'no chat has no title', turnsSeen: 0, turns: 'none' },
        {
          session: OTHER,
          startedAt: 10,
          turnsSeen: 3,
          turns: Array.from({ length: 100_000 }, (_, i) => ({ turn: `t${i}`, ordinal: i + 1, startedAt: 10 })),
        },
      ],
    };
    const names = ChatNames.restore(state);
    const title = names.chat(CHAT)?.title;
    assert.ok(title && title.endsWith('…') && title.length <= PROMPT_WORDS_MAX + 1, title);
    assert.deepEqual(names.turn(CHAT, 'ok'), { session: CHAT, turn: 'ok', ordinal: 4, startedAt: 2000 });
    assert.deepEqual(names.turn(CHAT, 'words'), { session: CHAT, turn: 'words', ordinal: 2, startedAt: 2500, prompt: 'Fix it' });
    for (const t of ['dup', 'zero', 'half', '', 'no time']) assert.equal(names.turn(CHAT, t), undefined, t);
    names.noteCall(CHAT, 'next');
    assert.equal(names.turn(CHAT, 'next')?.ordinal, 5, 'the next ordinal is past every kept one');
    assert.deepEqual(names.chat(NO_CHAT_SESSION), { session: NO_CHAT_SESSION, startedAt: 10 });
    assert.equal(names.toJSON().chats.find((c) => c.session === OTHER)?.turns.length, MAX_NAMED_TURNS);
    assert.equal(names.turn(OTHER, 't99999')?.ordinal, 100_000, 'the newest turns are kept');
    names.noteCall(OTHER, 'after');
    assert.equal(names.turn(OTHER, 'after')?.ordinal, 100_001);
  });

  test('a hand-written state of the documented shape restores', () => {
    const state: ChatNamesState = {
      version: 1,
      chats: [{ session: CHAT, startedAt: 5, turnsSeen: 1, turns: [{ turn: 'r', ordinal: 1, startedAt: 6, prompt: 'Hi' }] }],
    };
    assert.deepEqual(ChatNames.restore(state).turn(CHAT, 'r'), { session: CHAT, turn: 'r', ordinal: 1, startedAt: 6, prompt: 'Hi' });
  });
});
