// Other agents' file tools behind the gate (docs/design.md §Surfaces, hooks bridge): what a hook payload
// of Copilot means, and each other agent's (its test/<agent>/events.ts; src/agents/<agent>/node/events.ts), and the core's check / mark /
// own-write flow for them — the same rules as our own tools, over in-memory documents.
import * as assert from 'node:assert/strict';
import { parseCopilotEvent } from '../../src/agents/copilot/node/events';
import { copilotHarnessAgent } from '../../src/agents/copilotHarness/node/events';
import { copilotCliAgent } from '../../src/agents/copilotCli/node/events';
import { isRuntimePayload as isHarnessPayload, parseRuntimeEvent as parseHarnessEvent } from '../../src/hooks/copilotRuntime';
import { denyPreToolUse } from '../../src/hooks/event';
import { filesOfPatch } from '../../src/hooks/patch';
import type { CallContext, GateSettings } from '../../src/core/ports';
import { sha256 } from '../../src/core/hash';
import type { ToolName } from '../../src/core/types';
import { callOn, coreFixture } from './memoryDocuments';
import { TEST_AGENTS } from '../shared/testAgents';

const payload = (event: string, extra: Record<string, unknown> = {}) => ({
  timestamp: '2026-11-30T13:06:30.457Z',
  hook_event_name: event,
  session_id: '8f6a71fe-6353-4bd9-a032-dba0e1966cf5',
  transcript_path: '/x/transcripts/8f6a71fe.jsonl',
  cwd: '/ws',
  ...extra,
});

suite("hook events of Copilot's built-in tools", () => {
  test('read_file: its PreToolUse fixes the version it will show, its PostToolUse says it ran', () => {
    const input = { filePath: '/ws/a.ts', startLine: 1, endLine: 3 };
    const chat = '8f6a71fe-6353-4bd9-a032-dba0e1966cf5';
    assert.deepEqual(parseCopilotEvent(payload('PreToolUse', { tool_name: 'read_file', tool_input: input })), {
      kind: 'before-read',
      chat,
      tool: 'read_file',
      files: ['/ws/a.ts'],
    });
    assert.deepEqual(parseCopilotEvent(payload('PostToolUse', { tool_name: 'read_file', tool_input: input, tool_response: '' })), {
      kind: 'after-read',
      chat,
      tool: 'read_file',
      files: ['/ws/a.ts'],
    });
  });

  test('each edit tool names the files it touches, before and after it runs', () => {
    const cases: Array<[string, Record<string, unknown>, Array<{ path: string; intent: string; quotes?: string[] }>]> = [
      [
        'replace_string_in_file',
        { filePath: '/ws/a', oldString: 'x', newString: 'y' },
        [{ path: '/ws/a', intent: 'change', quotes: ['x'] }],
      ],
      ['insert_edit_into_file', { explanation: 'e', filePath: '/ws/a', code: '…' }, [{ path: '/ws/a', intent: 'change' }]],
      ['create_file', { filePath: '/ws/new', content: 'c' }, [{ path: '/ws/new', intent: 'create' }]],
      [
        'multi_replace_string_in_file',
        {
          explanation: 'e',
          replacements: [{ filePath: '/ws/a', oldString: '1', newString: '2' }, { filePath: '/ws/b' }, { filePath: '/ws/a' }],
        },
        [
          { path: '/ws/a', intent: 'change', quotes: ['1'] },
          { path: '/ws/b', intent: 'change', quotes: [] },
        ],
      ],
      [
        'apply_patch',
        { explanation: 'e', input: '*** Begin Patch\n*** Update File: /ws/a\n@@\n-x\n+y\n*** Add File: /ws/c\n+new\n*** End Patch' },
        [
          { path: '/ws/a', intent: 'change' },
          { path: '/ws/c', intent: 'create' },
        ],
      ],
    ];
    for (const [tool, input, files] of cases) {
      assert.deepEqual(
        parseCopilotEvent(payload('PreToolUse', { tool_name: tool, tool_input: input })),
        { kind: 'before-edit', chat: payload('x').session_id, tool, files },
        tool,
      );
      assert.equal(
        parseCopilotEvent(payload('PostToolUse', { tool_name: tool, tool_input: input, tool_response: '' })).kind,
        'after-edit',
        tool,
      );
    }
  });

  test('rule 12: the two replace tools carry the oldStrings aimed at each file, in order; an empty or missing one is left out; other tools quote nothing', () => {
    const quotesOf = (tool: string, input: Record<string, unknown>) => {
      const e = parseCopilotEvent(payload('PreToolUse', { tool_name: tool, tool_input: input }));
      return e.kind === 'before-edit' ? e.files.map((f) => [f.path, f.quotes]) : e.kind;
    };
    assert.deepEqual(quotesOf('replace_string_in_file', { filePath: '/ws/a', oldString: 'line 1\nline 2\n', newString: 'y' }), [
      ['/ws/a', ['line 1\nline 2\n']],
    ]);
    assert.deepEqual(
      quotesOf('replace_string_in_file', { filePath: '/ws/a', oldString: '', newString: 'y' }),
      [['/ws/a', []]],
      "an empty oldString is the tool's own error",
    );
    assert.deepEqual(
      quotesOf('multi_replace_string_in_file', {
        explanation: 'e',
        replacements: [
          { filePath: '/ws/a', oldString: 'one', newString: '1' },
          { filePath: '/ws/b', oldString: 'two', newString: '2' },
          { filePath: '/ws/a', oldString: 'three', newString: '3' },
          { filePath: '/ws/a', oldString: 42, newString: '4' },
          { oldString: 'no file', newString: '5' },
          'not a replacement',
        ],
      }),
      [
        ['/ws/a', ['one', 'three']],
        ['/ws/b', ['two']],
      ],
    );
    assert.deepEqual(
      quotesOf('copilot_multiReplaceString', { replacements: [{ filePath: '/ws/a', oldString: 'one', newString: '1' }] }),
      [['/ws/a', ['one']]],
      'by its internal id too',
    );
    assert.deepEqual(quotesOf('insert_edit_into_file', { explanation: 'e', filePath: '/ws/a', code: 'x' }), [['/ws/a', undefined]]);
    assert.deepEqual(quotesOf('create_file', { filePath: '/ws/a', content: 'x' }), [['/ws/a', undefined]]);
    assert.deepEqual(quotesOf('apply_patch', { input: '*** Begin Patch\n*** Update File: /ws/a\n@@\n-x\n+y\n*** End Patch' }), [
      ['/ws/a', undefined],
    ]);
  });

  test("Copilot's internal tool ids mean the same tools", () => {
    const e = parseCopilotEvent(payload('PreToolUse', { tool_name: 'copilot_replaceString', tool_input: { filePath: '/ws/a' } }));
    assert.equal(e.kind === 'before-edit' && e.tool, 'replace_string_in_file');
  });

  test("a patch: update and delete change a file; add and a rename's target create one; CRLF patches too", () => {
    const patch =
      '*** Begin Patch\r\n*** Update File: /ws/a b.ts\r\n*** Move to: /ws/c.ts\r\n@@\r\n-x\r\n+y\r\n*** Delete File: /ws/d.ts\r\n*** Add File: /ws/e.ts\r\n+e\r\n*** End Patch';
    assert.deepEqual(filesOfPatch(patch), [
      { path: '/ws/a b.ts', intent: 'change' },
      { path: '/ws/c.ts', intent: 'create' },
      { path: '/ws/d.ts', intent: 'change' },
      { path: '/ws/e.ts', intent: 'create' },
    ]);
    assert.deepEqual(filesOfPatch('-*** Update File: not a header\n+ *** Add File: neither'), []);
  });

  test('turns (with the prompt when it is a string), compaction, and what the gate ignores', () => {
    const chat = payload('x').session_id;
    // Copilot passes `{ prompt: request.prompt }`: the words the turn is named by
    assert.deepEqual(parseCopilotEvent(payload('UserPromptSubmit', { prompt: 'Fix the greeting' })), {
      kind: 'turn',
      chat,
      prompt: 'Fix the greeting',
    });
    for (const prompt of [undefined, '', 42, { text: 'hi' }])
      assert.deepEqual(
        parseCopilotEvent(payload('UserPromptSubmit', { prompt })),
        { kind: 'turn', chat },
        `prompt ${JSON.stringify(prompt)}: still a turn, without words`,
      );
    assert.equal(parseCopilotEvent(payload('PreCompact', { trigger: 'auto' })).kind, 'compact');
    // its terminal tool is gated (rule 16): the command, for the shell level to read
    assert.deepEqual(
      parseCopilotEvent(payload('PreToolUse', { tool_name: 'run_in_terminal', tool_input: { command: 'ls', isBackground: false } })),
      { kind: 'before-shell', chat, tool: 'run_in_terminal', command: 'ls' },
    );
    assert.deepEqual(parseCopilotEvent(payload('PostToolUse', { tool_name: 'copilot_runInTerminal', tool_input: { command: 'ls' } })), {
      kind: 'after-shell',
      chat,
      tool: 'run_in_terminal',
      command: 'ls',
    });
    for (const p of [
      null,
      'text',
      [],
      {},
      payload('Stop'),
      payload('PreToolUse', { tool_name: 'list_dir', tool_input: { path: '/ws' } }),
      payload('PreToolUse', { tool_name: 'run_in_terminal', tool_input: {} }),
      payload('PreToolUse', { tool_name: 'editGuard_writeFile', tool_input: { filePath: 'a' } }),
      payload('PreToolUse', { tool_name: 'replace_string_in_file', tool_input: {} }),
      { hook_event_name: 'PreCompact' },
    ]) {
      assert.equal(parseCopilotEvent(p).kind, 'ignore', JSON.stringify(p));
    }
  });

  // each agent's own, from its test folder (test/<agent>/events.ts, named by its testAgent.ts)
  for (const { events } of TEST_AGENTS) if (events) test(events.title, events.run);

  test('a denial is the hook output Copilot turns into "Tool execution denied: <reason>"', () => {
    assert.deepEqual(JSON.parse(denyPreToolUse('why')), {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'why' },
    });
  });
});

const A = 'file:///ws/a.txt';
const B = 'file:///ws/b.txt';

function setup(settings: Partial<GateSettings> = {}) {
  const { docs, store, gate, edits, log } = coreFixture({ maxResultChars: 7000, ...settings });
  const blocks: string[] = [];
  gate.onDidBlock((b) => blocks.push(`${b.tool} ${b.path} ${b.reason}`));
  const call = (tool: ToolName, uri: string, turn = 'chat#1', session = 'chat-1'): CallContext => callOn(store, tool, uri, session, turn);
  /** a built-in read: the version at its PreToolUse, marked once it ran */
  const builtinRead = async (uri: string, turn = 'chat#1') => {
    const seen = await edits.versionOf(uri);
    assert.ok(seen, `${uri} exists`);
    edits.stampRead(call('read_file', uri, turn), seen);
  };
  return { docs, store, edits, log, blocks, call, builtinRead };
}

suite('the gate for built-in tools (same rules, through the hooks)', () => {
  test('rule 2: an edit of a file the chat never read is denied, with its content, and the denial counts as a read', async () => {
    const t = setup();
    t.docs.file(A, 'one\ntwo\n');
    const v = await t.edits.check([t.call('replace_string_in_file', A)]);
    assert.equal(v.allow, false);
    assert.ok(!v.allow && /BLOCKED: nothing was written\. You have not read a\.txt/.test(v.text));
    assert.ok(!v.allow && v.text.includes('1\tone'));
    assert.deepEqual(t.blocks, ['replace_string_in_file a.txt not-read']);
    assert.equal((await t.edits.check([t.call('replace_string_in_file', A)])).allow, true, 'the retry passes');
  });

  test('a built-in edit of a file whose bytes are not valid UTF-8 is denied, read or not: saving would write U+FFFD', async () => {
    const t = setup();
    t.docs.memory.writeDiskBytes(A, new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    await t.builtinRead(A);
    const v = await t.edits.check([t.call('replace_string_in_file', A)]);
    assert.ok(!v.allow && /nothing was applied/.test(v.text) && /not valid UTF-8/.test(v.text), !v.allow ? v.text : 'allowed');
  });

  test('a built-in read marks the version it showed, even when the user typed before its PostToolUse arrived', async () => {
    const t = setup();
    t.docs.file(A, 'shown\n');
    const seen = await t.edits.versionOf(A); // PreToolUse: the read will show this
    t.docs.userEdit(A, 'shown\ntyped after the read\n'); // the user types; PostToolUse comes late
    t.edits.stampRead(t.call('read_file', A), seen!);
    const v = await t.edits.check([t.call('replace_string_in_file', A)]);
    assert.ok(!v.allow && /changed since you last read it/.test(v.text), 'the typing is a change the agent has not seen');
  });

  test('rule 1 + 2: a built-in read marks the whole buffer text; an unsaved user edit after it blocks with the diff', async () => {
    const t = setup();
    t.docs.file(A, 'one\ntwo\n');
    await t.builtinRead(A);
    assert.equal(t.store.newest('chat-1', A)?.hash, sha256('one\ntwo\n'));
    assert.equal((await t.edits.check([t.call('replace_string_in_file', A)])).allow, true);
    t.docs.userEdit(A, 'one\ntwo\nuser\n');
    const v = await t.edits.check([t.call('replace_string_in_file', A)]);
    assert.ok(!v.allow);
    assert.match(v.text, /changed since you last read it \(edited in the editor, not yet saved\)/);
    assert.match(v.text, /^\+user$/m);
    assert.equal(t.docs.text(A), 'one\ntwo\nuser\n', 'a check writes nothing');
  });

  test('a call over two files is denied whole when one is stale, and names only that one', async () => {
    const t = setup();
    t.docs.file(A, 'a\n').file(B, 'b\n');
    await t.builtinRead(A);
    await t.builtinRead(B);
    t.docs.diskChange(B, 'b changed\n');
    const v = await t.edits.check([t.call('apply_patch', A), t.call('apply_patch', B)]);
    assert.ok(!v.allow);
    assert.deepEqual(v.blocked, ['b.txt']);
    assert.match(
      v.text,
      /^Agent Edit Guard stopped this apply_patch call: nothing was applied to any of its 2 files, because one of them was changed or not read/,
    );
    assert.doesNotMatch(v.text, /a\.txt changed/);
  });

  test('refusals of several files share one result budget', async () => {
    const t = setup({ maxResultChars: 2000 });
    const big = Array.from({ length: 400 }, (_, i) => `line ${i} ${'x'.repeat(20)}`).join('\n');
    t.docs.file(A, big).file(B, big);
    const v = await t.edits.check([t.call('multi_replace_string_in_file', A), t.call('multi_replace_string_in_file', B)]);
    assert.ok(!v.allow);
    assert.ok(v.text.length < 2000 + 1500, `the denial stays near the budget (${v.text.length} characters)`);
  });

  test('rule 4: a new file may be created; an existing one is gated like any write', async () => {
    const t = setup();
    assert.equal((await t.edits.check([t.call('create_file', B)])).allow, true);
    t.docs.file(A, 'exists\n');
    assert.equal((await t.edits.check([t.call('create_file', A)])).allow, false);
  });

  test("rule 3: the built-in edit's own write counts in its turn, not in the next (sameTurn)", async () => {
    const t = setup();
    t.docs.file(A, 'a\n');
    await t.builtinRead(A, 'chat#1');
    t.docs.userEdit(A, 'a edited by the tool\n'); // what the built-in tool wrote
    await t.edits.recordWrite(t.call('replace_string_in_file', A, 'chat#1'));
    assert.equal(t.store.newest('chat-1', A)?.origin, 'write');
    assert.equal((await t.edits.check([t.call('replace_string_in_file', A, 'chat#1')])).allow, true);
    const next = await t.edits.check([t.call('replace_string_in_file', A, 'chat#2')]);
    assert.ok(!next.allow && /when you wrote it in an earlier turn/.test(next.text));
  });

  test('rule 8: with the gate off nothing is denied', async () => {
    const t = setup({ enabled: false });
    t.docs.file(A, 'a\n');
    assert.equal((await t.edits.check([t.call('replace_string_in_file', A)])).allow, true);
  });

  test("compaction: forgetting the chat's marks makes its next edit need a fresh read (not-read)", async () => {
    const t = setup();
    t.docs.file(A, 'a\n');
    await t.builtinRead(A);
    t.store.clear('chat-1');
    const v = await t.edits.check([t.call('replace_string_in_file', A)]);
    assert.ok(!v.allow && /You have not read a\.txt/.test(v.text));
  });
});

/** Seven lines, as a chat reads them; the tests' edits quote up to 3 lines around what they change, as Copilot's tool description asks. */
const SEVEN = ['const a = 1;', 'const b = 2;', 'const c = 3;', 'const d = 4;', 'const e = 5;', 'const f = 6;', 'const g = 7;']
  .map((l) => `${l}\n`)
  .join('');
const linesOf = (text: string, first: number, last: number) =>
  text
    .split('\n')
    .slice(first - 1, last)
    .join('\n');

suite("rule 12: a built-in replace's oldString must stand in the file as written", () => {
  function setup12(settings: Partial<GateSettings> = {}) {
    const t = setup(settings);
    /** replace_string_in_file of `uri` quoting `quotes` (its hook payload's oldStrings) */
    const replace = (uri: string, quotes: string[], turn = 'chat#1') => ({ ...t.call('replace_string_in_file', uri, turn), quotes });
    /** a built-in edit the gate let through, as Copilot applies it: the text it leaves, recorded as the agent's own write */
    const ownEdit = async (uri: string, quotes: string[], leaves: string, turn = 'chat#1') => {
      const v = await t.edits.check([replace(uri, quotes, turn)]);
      assert.ok(v.allow, !v.allow ? v.text : '');
      t.docs.userEdit(uri, leaves);
      await t.edits.recordWrite(t.call('replace_string_in_file', uri, turn));
    };
    return { ...t, replace, ownEdit };
  }

  test('two edits from one read: the second quotes a line the first changed, so on a current own-write mark it is refused inexact-match, with the numbered content; the refusal is a mark, and the retry from it passes', async () => {
    const t = setup12();
    t.docs.file(A, SEVEN);
    await t.builtinRead(A);
    // edit 1 changes line 3, quoting lines 1–6 of the read; edit 2 changes lines 2 and 5, quoting lines 1–7 of the same read
    await t.ownEdit(A, [linesOf(SEVEN, 1, 6)], SEVEN.replace('c = 3', 'c = 30'));
    const afterFirst = t.docs.text(A);
    const v = await t.edits.check([t.replace(A, [linesOf(SEVEN, 1, 7)])]);
    assert.ok(
      !v.allow,
      "one stale line in 7: the tool would match it at 99% similarity and write its lines 2–5 over the file's, putting c = 3 back",
    );
    assert.deepEqual(t.blocks, ['replace_string_in_file a.txt inexact-match']);
    assert.match(v.text, /^Agent Edit Guard stopped this replace_string_in_file call: nothing was applied\./);
    assert.match(
      v.text,
      /BLOCKED: nothing was written\. An oldString of your replace is not in a\.txt as written, so the tool would apply it by approximate matching, over lines you did not quote/,
    );
    assert.match(v.text, /^3\tconst c = 30;$/m, 'with the current numbered content');
    assert.equal(t.docs.text(A), afterFirst, 'a check writes nothing');
    const mark = t.store.newest('chat-1', A);
    assert.equal(mark?.origin, 'refusal', 'the refusal counts as reading the file (rule 6)');
    assert.equal(mark?.hash, sha256(afterFirst));
    assert.ok(
      t.log.lines.some((l) => /^info blocked replace_string_in_file on a\.txt: inexact-match /.test(l)),
      t.log.lines.join('\n'),
    );
    assert.equal(
      (await t.edits.check([t.replace(A, [linesOf(afterFirst, 1, 7)])])).allow,
      true,
      'the retry, quoting the text the refusal showed, passes',
    );
  });

  test('a quote whose indentation differs from the file (a formatter re-indented it) is refused inexact-match', async () => {
    const t = setup12();
    const formatted = 'function f() {\n    return 1;\n}\n';
    t.docs.file(A, formatted);
    await t.builtinRead(A);
    const v = await t.edits.check([t.replace(A, ['function f() {\n  return 1;\n}'])]);
    assert.ok(!v.allow);
    assert.deepEqual(t.blocks, ['replace_string_in_file a.txt inexact-match']);
  });

  test("allowed: an exact quote, an LF quote in a CRLF document, a quote whose trailing spaces differ from the file's", async () => {
    const t = setup12();
    t.docs.file(A, SEVEN);
    t.docs.file(B, SEVEN.replace(/\n/g, '\r\n').replace('b = 2;', 'b = 2;   '));
    await t.builtinRead(A);
    await t.builtinRead(B);
    assert.ok(t.docs.text(B).includes('\r\n'), 'the editor holds b.txt with CRLF');
    for (const [uri, quote] of [
      [A, linesOf(SEVEN, 2, 5)],
      [A, 'b = 2;\nconst c'],
      [B, linesOf(SEVEN, 1, 4)],
      [B, 'const a = 1;  \nconst b = 2;\t\nconst c = 3;'],
    ] as const) {
      const v = await t.edits.check([t.replace(uri, [quote])]);
      assert.ok(v.allow, `${uri} ${JSON.stringify(quote)}: ${!v.allow ? v.text : ''}`);
    }
    assert.deepEqual(t.blocks, []);
  });

  test('rules 2–3 come first: not read, changed, an own write of an earlier turn are refused for that, whatever the quote', async () => {
    const t = setup12();
    const stale = 'no such line';
    t.docs.file(A, SEVEN).file(B, SEVEN);
    assert.equal((await t.edits.check([t.replace(A, [stale])])).allow, false);
    await t.builtinRead(B);
    t.docs.userEdit(B, SEVEN.replace('a = 1', 'a = 10'));
    assert.equal((await t.edits.check([t.replace(B, [stale])])).allow, false);
    const C = 'file:///ws/c.txt';
    t.docs.file(C, SEVEN);
    await t.builtinRead(C);
    await t.ownEdit(C, ['const a = 1;'], SEVEN.replace('a = 1', 'a = 11'));
    assert.equal((await t.edits.check([t.replace(C, [stale], 'chat#2')])).allow, false);
    assert.deepEqual(t.blocks, [
      'replace_string_in_file a.txt not-read',
      'replace_string_in_file b.txt changed',
      'replace_string_in_file c.txt own-write-expired',
    ]);
  });

  test("not checked: an empty oldString (the tool's own error), a call that carries no quotes, and anything with the gate off", async () => {
    const t = setup12();
    t.docs.file(A, SEVEN);
    await t.builtinRead(A);
    assert.equal((await t.edits.check([t.replace(A, [''])])).allow, true);
    assert.equal((await t.edits.check([t.call('insert_edit_into_file', A)])).allow, true);
    const off = setup12({ enabled: false });
    off.docs.file(A, SEVEN);
    assert.equal((await off.edits.check([off.replace(A, ['no such line'])])).allow, true);
    assert.deepEqual([...t.blocks, ...off.blocks], []);
  });

  test('a multi-replace over two files with one inexact quote is denied whole, naming that file; with a stale file too, each gets its own refusal', async () => {
    const t = setup12();
    t.docs.file(A, SEVEN).file(B, SEVEN);
    await t.builtinRead(A);
    await t.builtinRead(B);
    const multi = (uri: string, quotes: string[]) => ({ ...t.call('multi_replace_string_in_file', uri), quotes });
    const v = await t.edits.check([multi(A, ['const a = 1;', 'const g = 7;']), multi(B, ['const b = 2;', 'const c = 4;'])]);
    assert.ok(!v.allow);
    assert.deepEqual(v.blocked, ['b.txt']);
    assert.match(v.text, /nothing was applied to any of its 2 files, because one of them was quoted inexactly\./);
    t.docs.userEdit(A, SEVEN.replace('a = 1', 'a = 10'));
    const both = await t.edits.check([multi(A, ['const a = 10;']), multi(B, ['const c = 4;'])]);
    assert.ok(!both.allow);
    assert.deepEqual(both.blocked, ['a.txt', 'b.txt']);
    assert.match(both.text, /because 2 of them were changed, not read in this chat, or quoted inexactly\./);
    assert.deepEqual(t.blocks, [
      'multi_replace_string_in_file b.txt inexact-match',
      'multi_replace_string_in_file a.txt changed',
      'multi_replace_string_in_file b.txt inexact-match',
    ]);
  });
});

suite(
  'hook events of the Copilot runtime: the Copilot harness and the Copilot CLI (test/harness/FACTS.md, test/copilotCli/FACTS.md)',
  () => {
    const harness = (event: string, fields: Record<string, unknown> = {}) => ({
      hook_event_name: event,
      session_id: '3f1c2b4a-0000-4000-8000-00000000a11c',
      timestamp: '2026-12-02T03:00:00.000Z',
      cwd: '/ws',
      ...fields,
    });
    const chat = '3f1c2b4a-0000-4000-8000-00000000a11c';

    test('view is Read {path}, edit is Edit {path, old_str, new_str}, create is Write {path, file_text}: read, change, create', () => {
      assert.deepEqual(parseHarnessEvent(harness('PreToolUse', { tool_name: 'Read', tool_input: { path: '/ws/a.ts' } })), {
        kind: 'before-read',
        chat,
        tool: 'Read',
        files: ['/ws/a.ts'],
        call: 'Read {"path":"/ws/a.ts"}',
        response: '2026-12-02T03:00:00.000Z',
      });
      assert.deepEqual(
        parseHarnessEvent(harness('PreToolUse', { tool_name: 'Edit', tool_input: { path: '/ws/a.ts', old_str: 'a', new_str: 'b' } })),
        {
          kind: 'before-edit',
          chat,
          tool: 'Edit',
          files: [{ path: '/ws/a.ts', intent: 'change' }],
          call: 'Edit {"path":"/ws/a.ts","old_str":"a","new_str":"b"}',
          response: '2026-12-02T03:00:00.000Z',
        },
      );
      assert.deepEqual(
        parseHarnessEvent(
          harness('PostToolUse', {
            tool_name: 'Write',
            tool_input: { path: '/ws/n.ts', file_text: 'x' },
            tool_result: { result_type: 'success', text_result_for_llm: 'Created file /ws/n.ts with 1 characters' },
          }),
        ),
        {
          kind: 'after-edit',
          chat,
          tool: 'Write',
          files: [{ path: '/ws/n.ts', intent: 'create' }],
          call: 'Write {"path":"/ws/n.ts","file_text":"x"}',
        },
      );
    });

    test('its payloads name no call: the tool and its input stand for one, the same before and after it, apart from a sibling call', () => {
      const edit = (when: string, new_str: string) =>
        parseHarnessEvent(harness(when, { tool_name: 'Edit', tool_input: { path: '/ws/a.ts', old_str: 'a', new_str } }));
      const callOf = (e: ReturnType<typeof parseHarnessEvent>) => ('call' in e ? e.call : undefined);
      assert.equal(callOf(edit('PreToolUse', 'b')), callOf(edit('PostToolUse', 'b')));
      assert.notEqual(
        callOf(edit('PreToolUse', 'b')),
        callOf(edit('PreToolUse', 'c')),
        'two calls of one response are each settled at its own PostToolUse',
      );
      assert.equal(copilotHarnessAgent.parallelCalls, true);
    });

    test("a codex-family model's apply_patch is Edit with the raw patch as its input: every file it adds, updates, deletes or moves", () => {
      const patch = [
        '*** Begin Patch',
        '*** Update File: src/a.ts',
        '*** Move to: src/b.ts',
        '@@',
        '-x',
        '+y',
        '*** Delete File: old.txt',
        '*** Add File: new.txt',
        '+hello',
        '*** End Patch',
      ].join('\n');
      assert.deepEqual(parseHarnessEvent(harness('PreToolUse', { tool_name: 'Edit', tool_input: patch })), {
        kind: 'before-edit',
        chat,
        tool: 'Edit',
        files: [
          { path: 'src/a.ts', intent: 'change' },
          { path: 'src/b.ts', intent: 'create' },
          { path: 'old.txt', intent: 'change' },
          { path: 'new.txt', intent: 'create' },
        ],
        call: `Edit ${JSON.stringify(patch)}`,
        response: '2026-12-02T03:00:00.000Z',
      });
    });

    test('a call its own tool failed ends in PostToolUseFailure: the same call, failed (it read nothing, wrote nothing)', () => {
      const input = { path: '/ws/a.ts', file_text: 'x' };
      assert.deepEqual(
        parseHarnessEvent(harness('PostToolUseFailure', { tool_name: 'Write', tool_input: input, error: 'Path already exists' })),
        {
          kind: 'after-edit',
          chat,
          tool: 'Write',
          files: [{ path: '/ws/a.ts', intent: 'create' }],
          call: `Write ${JSON.stringify(input)}`,
          failed: true,
        },
      );
      assert.equal(isHarnessPayload(harness('PostToolUseFailure', { tool_name: 'Write', tool_input: input })), true);
      const read = parseHarnessEvent(harness('PostToolUseFailure', { tool_name: 'Read', tool_input: { path: '/ws/gone.ts' } }));
      assert.equal(read.kind === 'after-read' && read.failed, true);
    });

    test("one response's calls are told from a later response's by their PreToolUse's timestamp (test/copilotCli/FACTS.md)", () => {
      const at = (timestamp: string) =>
        parseHarnessEvent(
          harness('PreToolUse', { timestamp, tool_name: 'Edit', tool_input: { path: '/ws/a.ts', old_str: 'a', new_str: 'b' } }),
        );
      const responseOf = (e: ReturnType<typeof parseHarnessEvent>) => ('response' in e ? e.response : undefined);
      assert.equal(responseOf(at('2026-12-07T10:49:32.238Z')), '2026-12-07T10:49:32.238Z');
      assert.notEqual(responseOf(at('2026-12-07T10:49:32.238Z')), responseOf(at('2026-12-07T10:49:32.431Z')));
      // a PreToolUse without one names no response: its siblings are told as before, by the reservation (rule 14)
      const bare = harness('PreToolUse', { tool_name: 'Read', tool_input: { path: '/ws/a.ts' } }) as Record<string, unknown>;
      delete bare.timestamp;
      assert.equal(responseOf(parseHarnessEvent(bare)), undefined);
    });

    test('the Copilot CLI and the Copilot harness send the same payloads; the process that ran the hook tells whose it is', () => {
      const p = harness('PreToolUse', { tool_name: 'Edit', tool_input: {} });
      assert.equal(copilotCliAgent.claims?.(p, { parent: 'copilot' }), true);
      assert.equal(copilotHarnessAgent.claims?.(p, { parent: 'copilot' }), false);
      assert.equal(copilotCliAgent.claims?.(p, { parent: 'copilot-runtime' }), false);
      assert.equal(copilotHarnessAgent.claims?.(p, { parent: 'copilot-runtime' }), true);
      // a client that could not read its parent: the harness's, as before the CLI was told apart
      assert.equal(copilotHarnessAgent.claims?.(p, {}), true);
      assert.equal(copilotCliAgent.claims?.(p, {}), false);
      // the Local agent's payloads are neither's
      const local = payload('PreToolUse', { tool_name: 'read_file', tool_use_id: 'call_1', tool_input: {} });
      assert.equal(copilotCliAgent.claims?.(local, { parent: 'copilot' }), false);
      assert.equal(copilotHarnessAgent.claims?.(local, {}), false);
    });

    test('a call of a guarded tool is announced before it runs (the tool learns its chat from it); its PostToolUse changes nothing', () => {
      const input = { filePath: 'a.ts' };
      assert.deepEqual(parseHarnessEvent(harness('PreToolUse', { tool_name: 'guardedRead', tool_input: input })), {
        kind: 'guarded-call',
        chat,
        call: { tool: 'guardedRead', input },
      });
      assert.equal(parseHarnessEvent(harness('PostToolUse', { tool_name: 'guardedRead', tool_input: input })).kind, 'ignore');
    });

    test("turns, compaction, and other tools; its payloads are told from the Local agent's by the fields they lack", () => {
      assert.deepEqual(parseHarnessEvent(harness('UserPromptSubmit', { prompt: 'Fix it' })), { kind: 'turn', chat, prompt: 'Fix it' });
      assert.deepEqual(parseHarnessEvent(harness('PreCompact', { transcript_path: '/t', trigger: 'manual' })), { kind: 'compact', chat });
      assert.equal(parseHarnessEvent(harness('PreToolUse', { tool_name: 'grep', tool_input: { pattern: 'x' } })).kind, 'ignore');
      assert.equal(parseHarnessEvent(harness('PreToolUse', { tool_name: 'glob', tool_input: { pattern: '*.ts' } })).kind, 'ignore');
      // its shell is gated (rule 16), under either name, its call told as its file tools' are
      const command = { command: 'ls', description: 'List files' };
      for (const tool_name of ['bash', 'Bash']) {
        assert.deepEqual(parseHarnessEvent(harness('PreToolUse', { tool_name, tool_input: command })), {
          kind: 'before-shell',
          chat,
          tool: tool_name,
          command: 'ls',
          call: `${tool_name} ${JSON.stringify(command)}`,
          response: '2026-12-02T03:00:00.000Z',
        });
        assert.deepEqual(parseHarnessEvent(harness('PostToolUse', { tool_name, tool_input: command })), {
          kind: 'after-shell',
          chat,
          tool: tool_name,
          command: 'ls',
          call: `${tool_name} ${JSON.stringify(command)}`,
        });
      }
      assert.equal(isHarnessPayload(harness('PreToolUse', { tool_name: 'Edit', tool_input: {} })), true);
      assert.equal(isHarnessPayload(harness('UserPromptSubmit', { prompt: 'x' })), true);
      // the Local agent's carry a tool_use_id and a transcript_path
      assert.equal(isHarnessPayload(payload('PreToolUse', { tool_name: 'read_file', tool_use_id: 'call_1', tool_input: {} })), false);
      assert.equal(isHarnessPayload(payload('UserPromptSubmit', { prompt: 'x' })), false);
      assert.equal(
        isHarnessPayload(harness('PreCompact', { transcript_path: '/t' })),
        false,
        'PreCompact alone does not tell: the chat does',
      );
    });
  },
);
