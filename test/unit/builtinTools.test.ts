// Copilot's built-in file tools behind the gate (docs/design.md §Surfaces, hooks bridge): what a hook payload means, and the core's
// check / mark / own-write flow for them — the same rules as our own tools, over in-memory documents.
import * as assert from 'node:assert/strict';
import { denyOutput, filesOfPatch, parseHookEvent } from '../../src/hooks/copilot/hookEvents';
import type { CallContext, GuardSettings } from '../../src/core/ports';
import { sha256 } from '../../src/core/hash';
import type { ToolName } from '../../src/core/types';
import { coreFixture, verbOf } from './memoryDocuments';

const payload = (event: string, extra: Record<string, unknown> = {}) => ({
  timestamp: '2026-11-30T13:06:30.457Z',
  hook_event_name: event,
  session_id: '8f6a71fe-6353-4bd9-a032-dba0e1966cf5',
  transcript_path: '/x/transcripts/8f6a71fe.jsonl',
  cwd: '/ws',
  ...extra,
});

suite('hook events of Copilot\'s built-in tools', () => {
  test('read_file: its PreToolUse fixes the version it will show, its PostToolUse says it ran', () => {
    const input = { filePath: '/ws/a.ts', startLine: 1, endLine: 3 };
    const chat = '8f6a71fe-6353-4bd9-a032-dba0e1966cf5';
    assert.deepEqual(parseHookEvent(payload('PreToolUse', { tool_name: 'read_file', tool_input: input })), { kind: 'before-read', chat, files: ['/ws/a.ts'] });
    assert.deepEqual(parseHookEvent(payload('PostToolUse', { tool_name: 'read_file', tool_input: input, tool_response: '' })), { kind: 'after-read', chat, files: ['/ws/a.ts'] });
  });

  test('each edit tool names the files it touches, before and after it runs', () => {
    const cases: Array<[string, Record<string, unknown>, Array<{ path: string; intent: string }>]> = [
      ['replace_string_in_file', { filePath: '/ws/a', oldString: 'x', newString: 'y' }, [{ path: '/ws/a', intent: 'change' }]],
      ['insert_edit_into_file', { explanation: 'e', filePath: '/ws/a', code: '…' }, [{ path: '/ws/a', intent: 'change' }]],
      ['create_file', { filePath: '/ws/new', content: 'c' }, [{ path: '/ws/new', intent: 'create' }]],
      [
        'multi_replace_string_in_file',
        { explanation: 'e', replacements: [{ filePath: '/ws/a', oldString: '1', newString: '2' }, { filePath: '/ws/b' }, { filePath: '/ws/a' }] },
        [{ path: '/ws/a', intent: 'change' }, { path: '/ws/b', intent: 'change' }],
      ],
      [
        'apply_patch',
        { explanation: 'e', input: '*** Begin Patch\n*** Update File: /ws/a\n@@\n-x\n+y\n*** Add File: /ws/c\n+new\n*** End Patch' },
        [{ path: '/ws/a', intent: 'change' }, { path: '/ws/c', intent: 'create' }],
      ],
    ];
    for (const [tool, input, files] of cases) {
      assert.deepEqual(parseHookEvent(payload('PreToolUse', { tool_name: tool, tool_input: input })), { kind: 'before-edit', chat: payload('x').session_id, tool, files }, tool);
      assert.equal(parseHookEvent(payload('PostToolUse', { tool_name: tool, tool_input: input, tool_response: '' })).kind, 'after-edit', tool);
    }
  });

  test('Copilot\'s internal tool ids mean the same tools', () => {
    const e = parseHookEvent(payload('PreToolUse', { tool_name: 'copilot_replaceString', tool_input: { filePath: '/ws/a' } }));
    assert.equal(e.kind === 'before-edit' && e.tool, 'replace_string_in_file');
  });

  test('a patch: update and delete change a file; add and a rename\'s target create one; CRLF patches too', () => {
    const patch = '*** Begin Patch\r\n*** Update File: /ws/a b.ts\r\n*** Move to: /ws/c.ts\r\n@@\r\n-x\r\n+y\r\n*** Delete File: /ws/d.ts\r\n*** Add File: /ws/e.ts\r\n+e\r\n*** End Patch';
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
    assert.deepEqual(parseHookEvent(payload('UserPromptSubmit', { prompt: 'Fix the greeting' })), { kind: 'turn', chat, prompt: 'Fix the greeting' });
    for (const prompt of [undefined, '', 42, { text: 'hi' }]) assert.deepEqual(parseHookEvent(payload('UserPromptSubmit', { prompt })), { kind: 'turn', chat }, `prompt ${JSON.stringify(prompt)}: still a turn, without words`);
    assert.equal(parseHookEvent(payload('PreCompact', { trigger: 'auto' })).kind, 'compact');
    for (const p of [null, 'text', [], {}, payload('Stop'), payload('PreToolUse', { tool_name: 'run_in_terminal', tool_input: { command: 'ls' } }), payload('PreToolUse', { tool_name: 'editGuard_writeFile', tool_input: { filePath: 'a' } }), payload('PreToolUse', { tool_name: 'replace_string_in_file', tool_input: {} }), { hook_event_name: 'PreCompact' }]) {
      assert.equal(parseHookEvent(p).kind, 'ignore', JSON.stringify(p));
    }
  });

  test('a denial is the hook output Copilot turns into "Tool execution denied: <reason>"', () => {
    assert.deepEqual(JSON.parse(denyOutput('why')), { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'why' } });
  });
});

const A = 'file:///ws/a.txt';
const B = 'file:///ws/b.txt';

function setup(settings: Partial<GuardSettings> = {}) {
  const { docs, store, gate, edits } = coreFixture({ maxResultChars: 7000, ...settings });
  const blocks: string[] = [];
  gate.onDidBlock((b) => blocks.push(`${b.tool} ${b.path} ${b.reason}`));
  const call = (tool: ToolName, uri: string, turn = 'chat#1', session = 'chat-1'): CallContext => ({ tool, verb: verbOf(tool), session, turn, uri, path: uri.replace('file:///ws/', ''), arrival: store.watermark });
  /** a built-in read: the version at its PreToolUse, marked once it ran */
  const builtinRead = async (uri: string, turn = 'chat#1') => {
    const seen = await edits.versionOf(uri);
    assert.ok(seen, `${uri} exists`);
    edits.markSeen(call('read_file', uri, turn), seen);
  };
  return { docs, store, edits, blocks, call, builtinRead };
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
    t.edits.markSeen(t.call('read_file', A), seen!);
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
    assert.match(v.text, /^Agent Edit Guard stopped this apply_patch call: nothing was applied to any of its 2 files, because one of them was changed or not read/);
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

  test('rule 3: the built-in edit\'s own write counts in its turn, not in the next (sameTurn)', async () => {
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

  test('compaction: forgetting the chat\'s marks makes its next edit need a fresh read (not-read)', async () => {
    const t = setup();
    t.docs.file(A, 'a\n');
    await t.builtinRead(A);
    t.store.clear('chat-1');
    const v = await t.edits.check([t.call('replace_string_in_file', A)]);
    assert.ok(!v.allow && /You have not read a\.txt/.test(v.text));
  });
});
