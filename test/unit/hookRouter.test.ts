// The router of agents' hook events (src/hooks/hookRouter.ts), fed the payload JSON as Copilot and
// Claude Code send it: when a built-in tool's read and own write are settled, how turns are counted
// and renamed to Copilot's id, what compaction forgets, and the hook's answers
// (docs/design.md §Chat sessions and turns, rules 1–3).
import * as assert from 'node:assert/strict';
import { ChatNames } from '../../src/chat/names';
import { ChatSessions } from '../../src/chat/session';
import { sha256 } from '../../src/core/hash';
import type { CallContext, GateSettings } from '../../src/core/ports';
import type { ToolName } from '../../src/core/types';
import { claudeCodeAgent } from '../../src/agents/claudeCode/node/events';
import { codexAgent } from '../../src/agents/codex/node/events';
import { copilotAgent } from '../../src/agents/copilot/node/events';
import { copilotHarnessAgent } from '../../src/agents/copilotHarness/node/events';
import { ExpectedCalls } from '../../src/chat/expectedCalls';
import { HookRouter } from '../../src/hooks/hookRouter';
import { piAgent } from '../../src/agents/pi/node/events';
import { clineAgent } from '../../src/agents/cline/node/events';
import { type HookOrigin, MODEL_REQUEST } from '../../src/hooks/event';
import { copilotCliAgent } from '../../src/agents/copilotCli/node/events';
import { RESERVATION_MS } from '../../src/core/reservations';
import { callOn, coreFixture } from './memoryDocuments';
import { readyShellLevel } from '../../src/shell';

const CHAT = '8f6a71fe-6353-4bd9-a032-dba0e1966cf5';
const OTHER_CHAT = '0b1c2d3e-4f50-4a6b-9c7d-8e9fa0b1c2d3';
const A = 'file:///ws/a.txt';
const B = 'file:///ws/b.txt';

function setup(settings: Partial<GateSettings> = {}) {
  const { docs, store, log, gate, tools, edits } = coreFixture({ maxResultChars: 7000, ...settings });
  const sessions = new ChatSessions((p) => `${p.scheme}://${p.authority}${p.path}`);
  const activity: string[] = [];
  /** what the gate told the bridge of each chat's calls to settle, in order */
  const pendingNotes: string[] = [];
  let active = true;
  // the names the surfaces show, fed by the gate; each call it made is recorded too, in order
  const names = new ChatNames();
  const nameCalls: string[] = [];
  const expected = new ExpectedCalls();
  const hooks = new HookRouter({
    shell: () => readyShellLevel(),
    edits,
    sessions,
    log,
    agents: new Map(
      [copilotAgent, copilotHarnessAgent, copilotCliAgent, claudeCodeAgent, codexAgent, piAgent, clineAgent].map((a) => [a.id, a]),
    ),
    expected,
    active: () => active,
    onActivity: (s) => activity.push(s),
    resolveFile: (p) => ({ uri: 'file:///ws/' + p, path: p }),
    onPending: (chat, pending) => pendingNotes.push(`${chat.slice(0, 4)} ${pending}`),
    names: {
      noteCall: (session, turn) => (nameCalls.push(`noteCall ${session} ${turn}`), names.noteCall(session, turn)),
      notePrompt: (session, turn, prompt) => (
        nameCalls.push(`notePrompt ${session} ${turn} ${prompt}`),
        names.notePrompt(session, turn, prompt)
      ),
      retagTurn: (session, from, to) => (nameCalls.push(`retagTurn ${session} ${from} ${to}`), names.retagTurn(session, from, to)),
      noteAgent: (session, agent) => (nameCalls.push(`noteAgent ${session} ${agent}`), names.noteAgent(session, agent)),
    },
  });
  const blocks: string[] = [];
  gate.onDidBlock((b) => blocks.push(`${b.tool} ${b.path} ${b.reason} turn ${b.turn}`));
  const key = (chat = CHAT) => sessions.keyOfChatId(chat);

  let toolUses = 0;
  /** One hook event of the Local agent, as the bridge hands it over: the payload's JSON text (a tool's carries its tool_use_id). */
  const send = (event: string, extra: Record<string, unknown> = {}, chat = CHAT) =>
    hooks.handle(
      copilotAgent.id,
      JSON.stringify({
        timestamp: '2026-11-30T13:06:30.457Z',
        hook_event_name: event,
        session_id: chat,
        transcript_path: '/x/t.jsonl',
        cwd: '/ws',
        ...(/ToolUse$/.test(event) && { tool_use_id: `toolu_${++toolUses}` }),
        ...extra,
      }),
    );
  const prompt = (chat = CHAT) => send('UserPromptSubmit', { prompt: 'go on' }, chat);
  const preRead = (file: string, chat = CHAT) =>
    send('PreToolUse', { tool_name: 'read_file', tool_input: { filePath: file, startLine: 1, endLine: 2 } }, chat);
  const postRead = (file: string, chat = CHAT) =>
    send('PostToolUse', { tool_name: 'read_file', tool_input: { filePath: file, startLine: 1, endLine: 2 }, tool_response: '' }, chat);
  /** The file's whole text as it is now (nothing when there is no file): a quote rule 12 always finds, so the marks alone decide. */
  const currentText = (file: string) => {
    try {
      return docs.text('file:///ws/' + file);
    } catch {
      return '';
    }
  };
  const replaceInput = (file: string, oldString: string) => ({ filePath: file, oldString, newString: 'y' });
  const preReplace = (file: string, chat = CHAT, oldString = currentText(file)) =>
    send('PreToolUse', { tool_name: 'replace_string_in_file', tool_input: replaceInput(file, oldString) }, chat);
  const postReplace = (file: string, chat = CHAT) =>
    send('PostToolUse', { tool_name: 'replace_string_in_file', tool_input: replaceInput(file, 'x'), tool_response: '' }, chat);
  /** A tool the gate does not look at: its event still says the chat's earlier tool is done. */
  const otherTool = (chat = CHAT) => send('PreToolUse', { tool_name: 'list_dir', tool_input: { path: '/ws' } }, chat);
  /** A whole built-in read: both its events, in order. */
  const read = async (file: string, chat = CHAT) => {
    assert.equal(await preRead(file, chat), '');
    assert.equal(await postRead(file, chat), '');
  };
  const marksOf = (uri: string, chat = CHAT) => store.all().filter((m) => m.session === key(chat) && m.uri === uri);
  const newest = (uri: string, chat = CHAT) => store.newest(key(chat), uri);
  /** A call of our own guarded tools in this chat, with Copilot's id of the turn. */
  const guardedCall = (tool: ToolName, uri: string, turn: string, chat = CHAT): CallContext => callOn(store, tool, uri, key(chat), turn);
  /** A whole built-in edit the gate lets through: its PreToolUse, the text the tool leaves, its PostToolUse. */
  const builtinEdit = async (file: string, uri: string, leaves: string) => {
    assert.equal(await preReplace(file), '');
    docs.userEdit(uri, leaves);
    assert.equal(await postReplace(file), '');
  };
  const denied = (output: string) => output !== '' && JSON.parse(output).hookSpecificOutput?.permissionDecision === 'deny';
  return {
    docs,
    store,
    log,
    tools,
    hooks,
    expected,
    builtinEdit,
    pendingNotes,
    names,
    nameCalls,
    sessions,
    activity,
    blocks,
    gate,
    key,
    send,
    prompt,
    preRead,
    postRead,
    preReplace,
    postReplace,
    otherTool,
    read,
    marksOf,
    newest,
    guardedCall,
    denied,
    setActive: (on: boolean) => (active = on),
  };
}

/** A chat in its first turn that has read a.txt (holding "x") with the built-in read_file. */
async function afterFirstRead(settings: Partial<GateSettings> = {}) {
  const t = setup(settings);
  t.docs.file(A, 'x\n');
  await t.prompt();
  await t.read('a.txt');
  return t;
}

suite('hook router: a read is settled when the tool is done', () => {
  test('read_file: the version is captured at its PreToolUse and marked only at its PostToolUse', async () => {
    const t = setup();
    t.docs.file(A, 'one\ntwo\n');
    assert.equal(await t.preRead('a.txt'), '');
    assert.equal(t.newest(A), undefined, 'nothing is marked while the read runs');
    assert.equal(await t.postRead('a.txt'), '');
    const mark = t.newest(A);
    assert.equal(mark?.origin, 'read');
    assert.equal(mark?.hash, sha256('one\ntwo\n'));
    assert.equal(await t.preReplace('a.txt'), '', 'an edit after the read passes');
  });

  test("a read whose PostToolUse has not come yet is settled by the chat's next event, before that event is judged", async () => {
    const t = setup();
    t.docs.file(A, 'one\n');
    await t.preRead('a.txt');
    // the next call comes first: the read must count for it
    assert.equal(await t.preReplace('a.txt'), '', 'the edit right after the read passes');
    assert.deepEqual(t.blocks, []);
    assert.equal(t.marksOf(A).filter((m) => m.origin === 'read').length, 1);
  });

  test("any next event of the same chat settles its read, even one the gate ignores; another chat's event does not", async () => {
    const t = setup();
    t.docs.file(A, 'one\n');
    await t.preRead('a.txt');
    assert.equal(await t.otherTool(OTHER_CHAT), '');
    assert.equal(await t.send('Stop', {}, OTHER_CHAT), '');
    assert.equal(t.newest(A), undefined, "another chat's events say nothing about this chat's tool");
    assert.equal(await t.otherTool(), '');
    assert.equal(t.newest(A)?.hash, sha256('one\n'), 'a terminal call of the same chat means the read is done');
    assert.equal(t.newest(A, OTHER_CHAT), undefined, "and the mark is this chat's alone");
  });

  test('a PostToolUse that arrives after the next PreToolUse does not mark twice, nor mark the later version', async () => {
    const t = setup();
    t.docs.file(A, 'shown\n');
    await t.preRead('a.txt');
    await t.otherTool(); // settles the read
    t.docs.userEdit(A, 'shown\ntyped later\n');
    assert.equal(await t.postRead('a.txt'), '', 'the late PostToolUse');
    const marks = t.marksOf(A);
    assert.equal(marks.length, 1, `one mark, not ${marks.length}`);
    assert.equal(marks[0].hash, sha256('shown\n'), 'the mark is of the version the read showed');
    const v = await t.preReplace('a.txt');
    assert.ok(t.denied(v), 'the typing after the read is a change the agent has not seen');
    assert.match(t.blocks[0], / changed /);
  });

  test("the user typing between the read's PreToolUse and its settle leaves the mark of the version the read showed: the next edit is blocked as changed", async () => {
    const t = setup();
    t.docs.file(A, 'shown\n');
    await t.preRead('a.txt');
    t.docs.userEdit(A, 'shown\ntyped during the read\n');
    await t.postRead('a.txt');
    assert.equal(t.newest(A)?.hash, sha256('shown\n'));
    const v = await t.preReplace('a.txt');
    assert.ok(t.denied(v));
    assert.deepEqual(t.blocks, [`replace_string_in_file a.txt changed turn ${CHAT}#0`]);
    assert.match(
      JSON.parse(v).hookSpecificOutput.permissionDecisionReason,
      /a\.txt changed since you last read it \(edited in the editor, not yet saved\)/,
    );
  });

  test('a read of a file that does not exist is not marked', async () => {
    const t = setup();
    await t.read('missing.txt');
    assert.equal(t.store.size, 0);
  });
});

suite("hook router: an edit the gate let through is the agent's own write once settled", () => {
  test('the next edit in the same turn passes on the own write (ownWriteKeepsMark sameTurn), settled at its PostToolUse', async () => {
    const t = await afterFirstRead();
    assert.equal(await t.preReplace('a.txt'), '');
    t.docs.userEdit(A, 'y\n'); // what the built-in tool wrote
    assert.equal(t.newest(A)?.origin, 'read', 'not an own write before the tool is done');
    assert.equal(await t.postReplace('a.txt'), '');
    assert.equal(t.newest(A)?.origin, 'write');
    assert.equal(t.newest(A)?.hash, sha256('y\n'), 'the mark is of the text the edit left');
    assert.equal(t.newest(A)?.turn, `${CHAT}#1`);
    assert.equal(await t.preReplace('a.txt'), '', 'the next edit in the turn passes without a read');
    assert.deepEqual(t.blocks, []);
  });

  test('an own write whose PostToolUse is late is settled by the next PreToolUse, which then passes', async () => {
    const t = await afterFirstRead();
    assert.equal(await t.preReplace('a.txt'), '');
    t.docs.userEdit(A, 'y\n');
    assert.equal(await t.preReplace('a.txt'), '', "the second edit arrives before the first one's PostToolUse");
    assert.deepEqual(t.blocks, []);
    t.docs.userEdit(A, 'z\n'); // what the second edit wrote
    await t.postReplace('a.txt'); // the first edit's late PostToolUse
    await t.postReplace('a.txt');
    assert.deepEqual(
      t
        .marksOf(A)
        .filter((m) => m.origin === 'write')
        .map((m) => m.hash),
      [sha256('y\n'), sha256('z\n')],
      'one own write per allowed edit, each of the text it left',
    );
  });

  test('in a new turn (after UserPromptSubmit) the own write no longer counts: blocked as own-write-expired', async () => {
    const t = await afterFirstRead();
    await t.builtinEdit('a.txt', A, 'y\n');
    await t.prompt();
    const v = await t.preReplace('a.txt');
    assert.ok(t.denied(v));
    assert.deepEqual(t.blocks, [`replace_string_in_file a.txt own-write-expired turn ${CHAT}#2`]);
    assert.match(JSON.parse(v).hookSpecificOutput.permissionDecisionReason, /when you wrote it in an earlier turn/);
  });

  test('a denied edit leaves no own write: the refusal counts as a read, in later turns too', async () => {
    const t = setup();
    t.docs.file(A, 'x\n');
    await t.prompt();
    assert.ok(t.denied(await t.preReplace('a.txt')), 'never read: denied');
    await t.otherTool(); // the chat goes on; a denied tool has nothing to settle
    assert.deepEqual(
      t.marksOf(A).map((m) => m.origin),
      ['refusal'],
    );
    await t.prompt();
    assert.equal(await t.preReplace('a.txt'), '', 'a refusal mark is a read: it counts in the next turn (an own write would not)');
  });

  test("the next PreToolUse that arrives while the edit's PostToolUse is still being settled waits for that own write", async () => {
    const t = await afterFirstRead();
    assert.equal(await t.preReplace('a.txt'), '');
    t.docs.userEdit(A, 'y\n'); // what the built-in tool wrote
    const [post, next] = await Promise.all([t.postReplace('a.txt'), t.preReplace('a.txt')]);
    assert.equal(post, '');
    assert.equal(next, '', `the second edit of the turn is based on the agent's own write, yet: ${t.blocks}`);
  });

  test('a call over two files that is denied records an own write for neither', async () => {
    const t = setup();
    t.docs.file(A, 'a\n').file(B, 'b\n');
    await t.prompt();
    await t.read('a.txt');
    const patch = {
      explanation: 'e',
      input: '*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n*** End Patch',
    };
    assert.ok(t.denied(await t.send('PreToolUse', { tool_name: 'apply_patch', tool_input: patch })));
    await t.otherTool();
    assert.equal(t.store.all().filter((m) => m.origin === 'write').length, 0);
  });
});

suite('hook router: rule 12, the oldStrings of a replace', () => {
  const TEXT = 'one\ntwo\nthree\nfour\nfive\n';

  test("two replaces issued together from one read: the second, arriving before the first one's PostToolUse, quotes the line the first changed and is denied inexact-match; the first stays the own write, and the retry from the refusal passes", async () => {
    const t = setup();
    t.docs.file(A, TEXT);
    await t.prompt();
    await t.read('a.txt');
    assert.equal(await t.preReplace('a.txt', CHAT, 'one\ntwo\nthree'), '', 'the first replace quotes the read exactly');
    t.docs.userEdit(A, TEXT.replace('two', 'TWO')); // what Copilot's tool wrote
    const second = await t.preReplace('a.txt', CHAT, 'two\nthree\nfour\nfive');
    assert.ok(t.denied(second), 'its copy of line 2 is the one the first replace changed');
    assert.deepEqual(t.blocks, [`replace_string_in_file a.txt inexact-match turn ${CHAT}#1`]);
    const reason = JSON.parse(second).hookSpecificOutput.permissionDecisionReason;
    assert.match(reason, /An oldString of your replace is not in a\.txt as written/);
    assert.match(reason, /^2\tTWO$/m, 'the refusal shows the text with the first edit');
    await t.postReplace('a.txt'); // the first replace's late PostToolUse
    assert.deepEqual(
      t.marksOf(A).map((m) => m.origin),
      ['read', 'write', 'refusal'],
      'the first replace is the own write; the denied one wrote nothing, and its refusal counts as a read',
    );
    assert.equal(await t.preReplace('a.txt', CHAT, 'TWO\nthree\nfour\nfive'), '', 'the retry quoting what the refusal showed');
  });

  test('a multi_replace_string_in_file with one inexact oldString is denied whole, and nothing of it is recorded as written', async () => {
    const t = setup();
    t.docs.file(A, TEXT).file(B, TEXT);
    await t.prompt();
    await t.read('a.txt');
    await t.read('b.txt');
    const input = {
      explanation: 'three edits',
      replacements: [
        { filePath: 'a.txt', oldString: 'one\ntwo', newString: '1\n2' },
        { filePath: 'b.txt', oldString: 'three\n', newString: '3\n' },
        { filePath: 'b.txt', oldString: '  four\nfive', newString: '4\n5' },
      ],
    };
    const out = await t.send('PreToolUse', { tool_name: 'multi_replace_string_in_file', tool_input: input });
    assert.ok(t.denied(out));
    assert.match(
      JSON.parse(out).hookSpecificOutput.permissionDecisionReason,
      /nothing was applied to any of its 2 files, because one of them was quoted inexactly/,
    );
    assert.deepEqual(t.blocks, [`multi_replace_string_in_file b.txt inexact-match turn ${CHAT}#1`]);
    await t.otherTool(); // the chat goes on: a denied call has nothing to settle
    assert.equal(t.store.all().filter((m) => m.origin === 'write').length, 0);
    assert.deepEqual(t.pendingNotes.filter((n) => n.endsWith('true')).length, 2, 'only the two reads left something to settle');
  });
});

suite('hook router: what the bridge is told of calls to settle', () => {
  test('a read or an allowed edit leaves its chat a call to settle until its PostToolUse, its next event or PreCompact; a denial leaves none', async () => {
    const t = setup();
    t.docs.file(A, 'x\n');
    const c = CHAT.slice(0, 4);
    await t.prompt();
    assert.deepEqual(t.pendingNotes, [], 'a prompt leaves nothing to settle');
    await t.preRead('a.txt');
    assert.deepEqual(t.pendingNotes, [`${c} true`], 'told before the answer went out');
    await t.postRead('a.txt');
    assert.deepEqual(t.pendingNotes, [`${c} true`, `${c} false`]);
    await t.preReplace('a.txt');
    await t.otherTool();
    assert.deepEqual(t.pendingNotes.slice(2), [`${c} true`, `${c} false`], 'the next event of any tool settles the edit');
    t.docs.file(B, 'y\n');
    assert.ok(t.denied(await t.preReplace('b.txt')));
    assert.deepEqual(t.pendingNotes.length, 4, 'a denied edit leaves nothing to settle');
    await t.preRead('a.txt');
    await t.send('PreCompact', { trigger: 'auto' });
    assert.deepEqual(t.pendingNotes.slice(4), [`${c} true`, `${c} false`], 'PreCompact drops it');
  });
});

suite('hook router: turns', () => {
  test('each UserPromptSubmit starts a new counted turn of its chat; two chats count separately', async () => {
    const t = setup();
    t.docs.file(A, 'a\n');
    await t.read('a.txt');
    assert.equal(t.newest(A)?.turn, `${CHAT}#0`, 'before any message the count is 0');
    await t.prompt();
    await t.read('a.txt');
    assert.equal(t.newest(A)?.turn, `${CHAT}#1`);
    await t.prompt(OTHER_CHAT);
    await t.prompt(OTHER_CHAT);
    await t.prompt(OTHER_CHAT);
    await t.read('a.txt', OTHER_CHAT);
    assert.equal(t.newest(A, OTHER_CHAT)?.turn, `${OTHER_CHAT}#3`);
    await t.read('a.txt');
    assert.equal(t.newest(A)?.turn, `${CHAT}#1`, "the other chat's messages do not move this chat's turn");
    await t.prompt();
    await t.read('a.txt');
    assert.equal(t.newest(A)?.turn, `${CHAT}#2`);
  });

  test("noteGuardedCall names the counted turn by Copilot's id: a built-in edit's own write counts for a guarded replace in the same turn", async () => {
    const t = await afterFirstRead();
    await t.builtinEdit('a.txt', A, 'x y\n');
    assert.equal(t.newest(A)?.turn, `${CHAT}#1`);
    t.hooks.noteGuardedCall(t.key(), 'request-1');
    assert.equal(t.newest(A)?.turn, 'request-1', "the marks of the counted turn now carry Copilot's id");
    const r = await t.tools.replace(t.guardedCall('editGuard_replaceString', A, 'request-1'), {
      oldString: 'y',
      newString: 'z',
      replaceAll: false,
    });
    assert.equal(r.data.status, 'ok', r.text);
    assert.equal(t.docs.text(A), 'x z\n');
  });

  test("and the other way: a guarded write's own write counts for the built-in edit that follows in the same turn", async () => {
    const t = setup();
    t.docs.file(A, 'x\n');
    await t.prompt();
    await t.read('a.txt'); // the hooks now know this chat
    t.hooks.noteGuardedCall(t.key(), 'request-1'); // as runTool does before the guarded tool runs
    const w = await t.tools.write(t.guardedCall('editGuard_writeFile', B, 'request-1'), { content: 'new\n', append: false });
    assert.equal(w.data.status, 'ok', w.text);
    assert.equal(t.newest(B)?.origin, 'write');
    assert.equal(await t.preReplace('b.txt'), '', 'the built-in edit in the same turn passes on the guarded own write');
    assert.deepEqual(t.blocks, []);
    await t.prompt();
    assert.ok(t.denied(await t.preReplace('b.txt')), 'in the next turn it no longer counts');
    assert.match(t.blocks[0], /own-write-expired turn .*#2$/);
  });

  test("noteGuardedCall renames a pending read too: its mark carries Copilot's id", async () => {
    const t = setup();
    t.docs.file(A, 'a\n');
    await t.prompt();
    await t.preRead('a.txt');
    t.hooks.noteGuardedCall(t.key(), 'request-1');
    await t.postRead('a.txt');
    assert.equal(t.newest(A)?.turn, 'request-1');
  });

  test('a second noteGuardedCall in the same turn does not rename again; the next turn takes its own id', async () => {
    const t = setup();
    t.docs.file(A, 'a\n').file(B, 'b\n');
    await t.prompt();
    await t.read('a.txt');
    t.hooks.noteGuardedCall(t.key(), 'request-1');
    t.hooks.noteGuardedCall(t.key(), 'request-2');
    assert.equal(t.newest(A)?.turn, 'request-1');
    await t.read('b.txt');
    assert.equal(t.newest(B)?.turn, 'request-1', 'later built-in calls of the turn keep the first id');
    await t.prompt();
    await t.read('b.txt');
    assert.equal(t.newest(B)?.turn, `${CHAT}#2`, 'a new turn is counted again');
    t.hooks.noteGuardedCall(t.key(), 'request-3');
    assert.equal(t.newest(B)?.turn, 'request-3');
    assert.equal(t.newest(A)?.turn, 'request-1', "the earlier turn's marks keep their id");
  });

  test('noteGuardedCall without an id, or for a chat the hooks never named, renames nothing', async () => {
    const t = setup();
    t.docs.file(A, 'a\n');
    await t.prompt();
    await t.read('a.txt');
    t.hooks.noteGuardedCall(t.key(), undefined);
    t.hooks.noteGuardedCall(t.key(OTHER_CHAT), 'request-x');
    assert.equal(t.newest(A)?.turn, `${CHAT}#1`);
    t.hooks.noteGuardedCall(t.key(), 'request-1');
    assert.equal(t.newest(A)?.turn, 'request-1', 'the id still renames the turn when it comes');
  });
});

suite('hook router: the names of chats and turns', () => {
  test('a UserPromptSubmit with a prompt names the counted turn with its words (the first titles the chat); one without notes the turn; each built-in call notes its turn', async () => {
    const t = setup();
    t.docs.file(A, 'a\n');
    await t.send('UserPromptSubmit', { prompt: 'Fix the greeting in hello.ts' });
    await t.read('a.txt');
    await t.send('UserPromptSubmit', {});
    await t.preReplace('a.txt');
    assert.deepEqual(t.nameCalls, [
      `notePrompt ${t.key()} ${CHAT}#1 Fix the greeting in hello.ts`,
      `noteCall ${t.key()} ${CHAT}#1`,
      `noteCall ${t.key()} ${CHAT}#2`,
      `noteCall ${t.key()} ${CHAT}#2`,
    ]);
    assert.equal(t.names.chat(t.key())?.title, 'Fix the greeting in hello.ts');
    assert.equal(t.names.turn(t.key(), `${CHAT}#1`)?.prompt, 'Fix the greeting in hello.ts');
    assert.equal(t.names.turn(t.key(), `${CHAT}#2`)?.ordinal, 2);
    assert.equal(t.names.turn(t.key(), `${CHAT}#2`)?.prompt, undefined);
  });

  test("noteGuardedCall's retag reaches the names: the turn keeps its number and words under Copilot's id, and later built-in calls note that id", async () => {
    const t = setup();
    t.docs.file(A, 'a\n');
    await t.send('UserPromptSubmit', { prompt: 'Fix the greeting' });
    await t.read('a.txt');
    t.hooks.noteGuardedCall(t.key(), 'request-1');
    t.hooks.noteGuardedCall(t.key(), 'request-1'); // a second guarded call of the turn renames nothing
    await t.read('a.txt');
    assert.deepEqual(t.nameCalls.slice(2), [`retagTurn ${t.key()} ${CHAT}#1 request-1`, `noteCall ${t.key()} request-1`]);
    const renamed = t.names.turn(t.key(), 'request-1');
    assert.equal(renamed?.ordinal, 1);
    assert.equal(renamed?.prompt, 'Fix the greeting');
    assert.equal(t.names.turn(t.key(), `${CHAT}#1`), undefined);
  });
});

suite('hook router: compaction', () => {
  test("PreCompact forgets the chat's marks: its next edit is blocked as not-read; another chat keeps its marks", async () => {
    const t = setup();
    t.docs.file(A, 'a\n');
    await t.read('a.txt');
    await t.read('a.txt', OTHER_CHAT);
    assert.equal(await t.send('PreCompact', { trigger: 'auto' }), '');
    assert.equal(t.newest(A), undefined);
    assert.ok(t.newest(A, OTHER_CHAT), 'the other chat was not compacted');
    assert.ok(t.denied(await t.preReplace('a.txt')));
    assert.deepEqual(t.blocks, [`replace_string_in_file a.txt not-read turn ${CHAT}#0`]);
    assert.equal(await t.preReplace('a.txt', OTHER_CHAT), '');
    assert.ok(
      t.log.lines.some((l) => /^info chat .* is being compacted: forgot its read marks of 1 file/.test(l)),
      t.log.lines.join('\n'),
    );
  });

  test('an own write still being settled when PreCompact arrives does not outlive the compaction', async () => {
    const t = await afterFirstRead();
    assert.equal(await t.preReplace('a.txt'), '');
    t.docs.userEdit(A, 'y\n');
    await Promise.all([t.postReplace('a.txt'), t.send('PreCompact', { trigger: 'auto' })]);
    assert.equal(t.newest(A), undefined, `after compaction the chat has no mark of a.txt, yet: ${t.newest(A)?.origin}`);
  });

  test('a read pending at compaction is not stamped later', async () => {
    const t = setup();
    t.docs.file(A, 'a\n');
    await t.preRead('a.txt');
    await t.send('PreCompact', { trigger: 'auto' });
    assert.equal(await t.postRead('a.txt'), '');
    await t.otherTool();
    assert.equal(t.newest(A), undefined, 'the summary does not hold the text that read showed');
    assert.ok(t.denied(await t.preReplace('a.txt')));
    assert.match(t.blocks[0], / not-read /);
  });
});

suite('hook router: answers', () => {
  test("with guardBuiltinTools off every event is let through with '' and nothing is stamped", async () => {
    const t = setup();
    t.setActive(false);
    t.docs.file(A, 'a\n');
    assert.equal(await t.prompt(), '');
    assert.equal(await t.preRead('a.txt'), '');
    assert.equal(await t.postRead('a.txt'), '');
    await t.builtinEdit('a.txt', A, 'b\n');
    assert.equal(await t.send('PreCompact'), '');
    assert.equal(await t.hooks.handle(copilotAgent.id, 'not json'), '');
    assert.equal(t.store.size, 0);
    assert.deepEqual(t.blocks, []);
    assert.deepEqual(t.activity, []);
    assert.deepEqual(t.nameCalls, [], 'nor is a chat or turn named');
    assert.deepEqual(t.log.lines, []);
  });

  test("input that is not JSON is let through with '' and a warning in the log", async () => {
    const t = setup();
    assert.equal(await t.hooks.handle(copilotAgent.id, '{"hook_event_name": "PreToolUse", '), '');
    assert.equal(await t.hooks.handle(copilotAgent.id, ''), '');
    assert.deepEqual(t.log.lines, [
      'warn hooks bridge: a Copilot hook sent input that is not JSON; let through',
      'warn hooks bridge: a Copilot hook sent input that is not JSON; let through',
    ]);
    assert.equal(t.store.size, 0);
  });

  test('a denial is the PreToolUse deny JSON carrying the refusal text', async () => {
    const t = setup();
    t.docs.file(A, 'one\ntwo\n');
    const out = JSON.parse(await t.preReplace('a.txt'));
    assert.deepEqual(Object.keys(out), ['hookSpecificOutput']);
    const { hookEventName, permissionDecision, permissionDecisionReason } = out.hookSpecificOutput;
    assert.equal(hookEventName, 'PreToolUse');
    assert.equal(permissionDecision, 'deny');
    assert.match(permissionDecisionReason, /^Agent Edit Guard stopped this replace_string_in_file call: nothing was applied\./);
    assert.match(
      permissionDecisionReason,
      /BLOCKED: nothing was written\. You have not read a\.txt in this chat, so your replace could overwrite content you have not seen/,
    );
    assert.match(permissionDecisionReason, /^1\tone$/m, 'with the current numbered content');
  });

  test('reads, edits and shell commands tell which chat is active; turns and ignored events do not', async () => {
    const t = setup();
    t.docs.file(A, 'a\n');
    await t.prompt();
    await t.otherTool();
    assert.deepEqual(t.activity, []);
    await t.preRead('a.txt', OTHER_CHAT);
    await t.preReplace('a.txt');
    // the terminal is gated too (rule 16): a command that writes nothing still tells its chat is at work
    assert.equal(await t.send('PreToolUse', { tool_name: 'run_in_terminal', tool_input: { command: 'ls' } }, OTHER_CHAT), '');
    assert.deepEqual(t.activity, [t.key(OTHER_CHAT), t.key(), t.key(OTHER_CHAT)]);
  });
});

suite("hook router: Claude Code's tools, which read and write the disk (rule 13)", () => {
  const SESSION = 'c1a2b3c4-0000-4000-8000-00000000c1a2';
  function claude() {
    const t = setup();
    const send = (event: string, extra: Record<string, unknown> = {}) =>
      t.hooks.handle(
        claudeCodeAgent.id,
        JSON.stringify({
          session_id: SESSION,
          transcript_path: '/h/.claude/projects/-ws/s.jsonl',
          cwd: '/ws',
          hook_event_name: event,
          prompt_id: 'p1',
          permission_mode: 'acceptEdits',
          ...extra,
        }),
      );
    const tool = (event: 'PreToolUse' | 'PostToolUse', name: string, input: Record<string, unknown>) =>
      send(event, { tool_name: name, tool_input: input, ...(event === 'PostToolUse' && { tool_response: {} }) });
    const read = async (file: string) => {
      assert.equal(await tool('PreToolUse', 'Read', { file_path: file }), '');
      assert.equal(await tool('PostToolUse', 'Read', { file_path: file }), '');
    };
    const edit = (file: string) => tool('PreToolUse', 'Edit', { file_path: file, old_string: 'x', new_string: 'y', replace_all: false });
    const write = (file: string) => tool('PreToolUse', 'Write', { file_path: file, content: 'new\n' });
    const reason = (output: string) => JSON.parse(output).hookSpecificOutput.permissionDecisionReason as string;
    return { ...t, send, tool, read, edit, write, reason, key: () => t.sessions.keyOfChatId(SESSION) };
  }

  test("a call Claude Code's own tool failed leaves nothing: a failed Read marks nothing, a failed Edit stamps no own write", async () => {
    const t = claude();
    t.docs.file(A, 'x\n');
    assert.equal(await t.tool('PreToolUse', 'Read', { file_path: 'a.txt' }), '');
    assert.equal(await t.send('PostToolUseFailure', { tool_name: 'Read', tool_input: { file_path: 'a.txt' }, error: 'too large' }), '');
    assert.equal(t.store.newest(t.key(), A), undefined, 'the model saw nothing of the file');
    await t.read('a.txt');
    assert.equal(await t.edit('a.txt'), '');
    // the user saved a change between the check and the tool, which then found no match
    t.docs.diskChange(A, 'changed by the user\n');
    assert.equal(
      await t.send('PostToolUseFailure', {
        tool_name: 'Edit',
        tool_input: { file_path: 'a.txt', old_string: 'x', new_string: 'y', replace_all: false },
        error: 'String to replace not found',
      }),
      '',
    );
    assert.equal(t.store.newest(t.key(), A)?.origin, 'read', "the user's text is not taken for the agent's own write");
    const out = await t.edit('a.txt');
    assert.ok(t.denied(out), out);
    assert.match(t.reason(out), /changed since you last read it/);
  });

  test('a Read marks the text on disk, not the unsaved buffer: that is what Claude Code saw', async () => {
    const t = claude();
    t.docs.file(A, 'on disk\n');
    t.docs.userEdit(A, 'typed, unsaved\n');
    await t.send('UserPromptSubmit', { prompt: 'Fix a.txt' });
    await t.read('a.txt');
    await t.tool('PreToolUse', 'Bash', { command: 'ls' }); // settles the read
    const mark = t.store.newest(t.key(), A);
    assert.ok(mark);
    assert.equal(t.store.snapshot(t.key(), A, mark.hash), 'on disk\n');
  });

  test('an Edit of a file with unsaved changes in the editor is denied with those changes, whatever was read; nothing changes until the user saves', async () => {
    const t = claude();
    t.docs.file(A, 'alpha\nbeta\n');
    await t.read('a.txt');
    t.docs.userEdit(A, 'alpha\nBETA (typed)\n');
    const out = await t.edit('a.txt');
    assert.ok(t.denied(out), out);
    const text = t.reason(out);
    assert.match(text, /^BLOCKED: nothing was written\. The user has unsaved changes to a\.txt in the editor/);
    assert.match(text, /Claude Code writes the file on disk/);
    assert.match(text, /^-beta$/m);
    assert.match(text, /^\+BETA \(typed\)$/m);
    assert.deepEqual(t.blocks, [`Edit a.txt unsaved-in-editor turn ${SESSION}#0`]);
    assert.match(text, /once they have saved them, redo your edit on the text the diff ends with/);
    assert.deepEqual(t.docs.get(A), { text: 'alpha\nBETA (typed)\n', disk: 'alpha\nbeta\n', dirty: true });
    // still denied on a retry, until the user saves
    assert.ok(t.denied(await t.edit('a.txt')));
    // the read was of the disk's text, so the diff showed the buffer's whole text: once saved, no read is needed
    await t.docs.userSave(A);
    assert.equal(await t.edit('a.txt'), '', 'the retry after the save passes');
  });

  test("an unsaved-changes refusal to an agent whose copy is older than the disk counts as no read: it must read after the user's save", async () => {
    const t = claude();
    t.docs.file(A, 'alpha\nbeta\n');
    await t.read('a.txt');
    t.docs.diskChange(A, 'alpha\nbeta\ngamma\n');
    t.docs.userEdit(A, 'alpha\nBETA (typed)\ngamma\n');
    const out = await t.edit('a.txt');
    assert.ok(t.denied(out), out);
    assert.match(t.reason(out), /then read the file again and redo your edit on it\.$/m);
    await t.docs.userSave(A);
    const after = await t.edit('a.txt');
    assert.ok(t.denied(after), 'the diff went from a disk it never saw');
    assert.match(t.reason(after), /a\.txt changed since you last read it/);
  });

  test('Read then Edit passes; an Edit after the file changed on disk is denied changed, with the diff', async () => {
    const t = claude();
    t.docs.file(A, 'one\n');
    await t.read('a.txt');
    assert.equal(await t.edit('a.txt'), '');
    t.docs.file(B, 'b\n');
    await t.read('b.txt');
    t.docs.diskChange(B, 'b, changed by another program\n');
    const out = await t.edit('b.txt');
    assert.ok(t.denied(out));
    assert.match(t.reason(out), /b\.txt changed since you last read it/);
    assert.match(t.reason(out), /^\+b, changed by another program$/m);
  });

  test('a Write over a file never read is denied with its content, and the retry passes; a Write of a new file passes', async () => {
    const t = claude();
    t.docs.file(A, "the user's notes\n");
    const out = await t.write('a.txt');
    assert.ok(t.denied(out));
    assert.match(t.reason(out), /You have not read a\.txt in this chat/);
    assert.match(t.reason(out), /1\tthe user's notes/);
    assert.equal(await t.write('a.txt'), '', 'the refusal counts as a read');
    assert.equal(await t.write('new.txt'), '');
  });

  test("PreCompact forgets the session's marks; the chat is named as Claude Code's", async () => {
    const t = claude();
    t.docs.file(A, 'x\n');
    await t.send('UserPromptSubmit', { prompt: 'Tidy a.txt' });
    await t.read('a.txt');
    await t.send('PreCompact', { trigger: 'manual', custom_instructions: null });
    assert.equal(t.store.newest(t.key(), A), undefined);
    assert.match(t.reason(await t.edit('a.txt')), /You have not read a\.txt in this chat/);
    assert.deepEqual(t.names.chat(t.key()), {
      session: t.key(),
      startedAt: t.names.chat(t.key())!.startedAt,
      title: 'Tidy a.txt',
      agent: 'Claude Code',
    });
  });
});

suite('hook router: the Copilot harness, on the hooks file it shares with the Local agent', () => {
  const HARNESS_CHAT = '3f1c2b4a-0000-4000-8000-00000000a11c';
  function harness(origin: HookOrigin = { parent: 'copilot-runtime' }) {
    const t = setup();
    // its commands name the Copilot hooks file's agent: the bridge tells the harness's payloads by what they lack
    const send = (event: string, extra: Record<string, unknown> = {}) =>
      t.hooks.handle(
        copilotAgent.id,
        JSON.stringify({ hook_event_name: event, session_id: HARNESS_CHAT, timestamp: '2026-12-02T03:00:00.000Z', cwd: '/ws', ...extra }),
        origin,
      );
    const tool = (
      event: 'PreToolUse' | 'PostToolUse' | 'PostToolUseFailure',
      name: string,
      input: unknown,
      extra: Record<string, unknown> = {},
    ) => send(event, { tool_name: name, tool_input: input, ...extra });
    const view = async (file: string) => {
      assert.equal(await tool('PreToolUse', 'Read', { path: file }), '');
      assert.equal(await tool('PostToolUse', 'Read', { path: file }), '');
    };
    // (paths as the harness gives them are absolute; here they are resolved against the fixture's folder)
    const edit = (file: string) => tool('PreToolUse', 'Edit', { path: file, old_str: 'x', new_str: 'y' });
    const reason = (output: string) => JSON.parse(output).hookSpecificOutput.permissionDecisionReason as string;
    return { ...t, send, tool, view, edit, reason, harnessKey: () => t.sessions.keyOfChatId(HARNESS_CHAT) };
  }
  /** The timestamp the runtime gives every PreToolUse of a response (response n of the chat). */
  const responseAt = (n: number) => ({ timestamp: `2026-12-07T10:49:${String(30 + n).padStart(2, '0')}.000Z` });

  test("a create its own tool fails after the gate let it through leaves nothing: the next response's edit of the file lands at once (issue: refused write-in-flight)", async () => {
    const t = harness();
    t.docs.file(A, 'one\ntwo\n');
    await t.send('UserPromptSubmit', { prompt: 'Make f3' });
    const create = { path: 'a.txt', file_text: 'new\n' };
    // a create over a file it never viewed: refused with the content, which counts as a read
    assert.ok(t.denied(await t.tool('PreToolUse', 'Write', create, responseAt(1))));
    // the same create again: let through (the refusal showed the text) — and the runtime's own create fails
    assert.equal(await t.tool('PreToolUse', 'Write', create, responseAt(2)), '');
    assert.equal(t.gate.reservations.size, 1, 'the create holds the file while it may land');
    assert.equal(await t.tool('PostToolUseFailure', 'Write', create, { error: 'Path already exists' }), '');
    assert.equal(t.gate.reservations.size, 0, 'a call that failed holds nothing');
    assert.equal(t.store.newest(t.harnessKey(), A)?.origin, 'refusal', 'and stamps no own write: it wrote nothing');
    // the next response edits the whole text the refusal showed: the correct call, let through
    assert.equal(await t.tool('PreToolUse', 'Edit', { path: 'a.txt', old_str: 'one\ntwo\n', new_str: 'new\n' }, responseAt(3)), '');
    assert.deepEqual(t.blocks, ['Write a.txt not-read turn 3f1c2b4a-0000-4000-8000-00000000a11c#1']);
  });

  test('a call of an earlier response whose result never came is over once a later response is checked: no sibling refusal, its own write stamped', async () => {
    const t = harness();
    t.docs.file(A, 'one\n');
    await t.send('UserPromptSubmit', { prompt: 'Fix a.txt' });
    await t.view('a.txt');
    assert.equal(await t.tool('PreToolUse', 'Edit', { path: 'a.txt', old_str: 'one', new_str: 'ONE' }, responseAt(1)), '');
    // the edit landed, but no event said so (a permission prompt declined or the result lost would look the same)
    t.docs.diskChange(A, 'ONE\n');
    assert.equal(await t.tool('PreToolUse', 'Edit', { path: 'a.txt', old_str: 'ONE', new_str: 'One' }, responseAt(2)), '');
    assert.equal(t.store.newest(t.harnessKey(), A)?.origin, 'write', "the earlier response's edit is the agent's own write");
    assert.deepEqual(t.blocks, []);
  });

  test('two edits of one response still hold each other off: the sibling, with the same timestamp, is refused write-in-flight', async () => {
    const t = harness();
    t.docs.file(A, 'one\ntwo\n');
    await t.send('UserPromptSubmit', { prompt: 'Fix a.txt' });
    await t.view('a.txt');
    assert.equal(await t.tool('PreToolUse', 'Edit', { path: 'a.txt', old_str: 'one', new_str: 'ONE' }, responseAt(1)), '');
    const out = await t.tool('PreToolUse', 'Edit', { path: 'a.txt', old_str: 'two', new_str: 'TWO' }, responseAt(1));
    assert.ok(t.denied(out), out);
    assert.match(t.reason(out), /Another call of your same response is writing a\.txt right now/);
  });

  test("the Copilot CLI's payloads, run from its own process, are the CLI's: its chat, blocks and records name it", async () => {
    const t = harness({ parent: 'copilot' });
    t.docs.file(A, 'on disk\n');
    t.docs.userEdit(A, 'typed, unsaved\n');
    await t.send('UserPromptSubmit', { prompt: 'Fix a.txt' });
    const out = await t.edit('a.txt');
    assert.ok(t.denied(out), out);
    assert.match(t.reason(out), /Copilot CLI writes the file on disk/);
    assert.equal(t.names.chat(t.harnessKey())?.agent, 'Copilot CLI');
  });

  test("a view marks the disk's text, not the unsaved buffer; an edit under unsaved changes is denied with them (rule 13), the chat named as the harness's", async () => {
    const t = harness();
    t.docs.file(A, 'on disk\n');
    t.docs.userEdit(A, 'typed, unsaved\n');
    await t.send('UserPromptSubmit', { prompt: 'Fix a.txt' });
    await t.view('a.txt');
    const mark = t.store.newest(t.harnessKey(), A);
    assert.ok(mark);
    assert.equal(t.store.snapshot(t.harnessKey(), A, mark.hash), 'on disk\n');
    const out = await t.edit('a.txt');
    assert.ok(t.denied(out), out);
    assert.match(t.reason(out), /The user has unsaved changes to a\.txt in the editor/);
    assert.match(t.reason(out), /Copilot harness writes the file on disk/);
    assert.deepEqual(t.docs.get(A), { text: 'typed, unsaved\n', disk: 'on disk\n', dirty: true });
    assert.equal(t.names.chat(t.harnessKey())?.agent, 'Copilot harness');
  });

  test('an apply_patch over a file never viewed is denied with its content; a Delete of a file changed since the view is denied; a new file passes', async () => {
    const t = harness();
    t.docs.file(A, 'never viewed\n');
    const update = '*** Begin Patch\n*** Update File: a.txt\n@@\n-never viewed\n+patched\n*** End Patch';
    const out = await t.tool('PreToolUse', 'Edit', update);
    assert.ok(t.denied(out), out);
    assert.match(t.reason(out), /1\tnever viewed/);
    t.docs.file(B, 'b\n');
    await t.view('b.txt');
    t.docs.diskChange(B, 'b, changed since\n');
    const del = await t.tool('PreToolUse', 'Edit', '*** Begin Patch\n*** Delete File: b.txt\n*** End Patch');
    assert.ok(t.denied(del), del);
    assert.match(t.reason(del), /b\.txt changed since you last read it/);
    assert.equal(await t.tool('PreToolUse', 'Edit', '*** Begin Patch\n*** Add File: fresh.txt\n+new\n*** End Patch'), '');
  });

  test("the Local agent's payloads on the same hooks file stay the Local agent's; a chat once the harness's keeps it for PreCompact", async () => {
    const t = harness();
    t.docs.file(A, 'x\n');
    await t.prompt();
    await t.read('a.txt');
    assert.ok(t.newest(A), "the Local agent's read is marked under its chat");
    assert.equal(t.names.chat(t.key())?.agent, undefined, "a Local chat is Copilot's own chat, not another agent's");
    await t.send('UserPromptSubmit', { prompt: 'go' });
    await t.view('a.txt');
    assert.ok(t.store.newest(t.harnessKey(), A));
    // PreCompact carries the same fields from either host: the chat tells
    await t.send('PreCompact', { transcript_path: '/t', trigger: 'manual', custom_instructions: '' });
    assert.equal(t.store.newest(t.harnessKey(), A), undefined, "the harness chat's marks went with its compaction");
    assert.ok(t.newest(A), "the Local chat's marks stayed");
  });

  test("a guarded tool the harness calls is announced with the harness's chat and counted turn, for the tool to take", async () => {
    const t = harness();
    await t.send('UserPromptSubmit', { prompt: 'Read a.txt' });
    const input = { filePath: 'a.txt' };
    assert.equal(await t.tool('PreToolUse', 'guardedRead', input), '');
    assert.deepEqual(t.expected.take('editGuard_readFile', { ...input }), { session: t.harnessKey(), turn: `${HARNESS_CHAT}#1` });
    assert.equal(t.expected.take('editGuard_readFile', input), undefined, 'taken once');
  });
});

suite("hook router: Codex's apply_patch and shell reads, which read and write the disk (rule 13)", () => {
  const SESSION = '01a23473-97ef-7410-ac8c-9c711d10b30b';
  const TURN_1 = '01a23473-98eb-7ee2-9b0e-476926259788';
  const TURN_2 = '01a23474-0000-7000-8000-000000000002';
  function codex() {
    const t = setup();
    let turn = TURN_1;
    let calls = 0;
    // as Codex 0.171 sends them (test/codex/FACTS.md)
    const send = (event: string, extra: Record<string, unknown> = {}) =>
      t.hooks.handle(
        codexAgent.id,
        JSON.stringify({
          session_id: SESSION,
          turn_id: turn,
          transcript_path: '/h/.codex/sessions/rollout.jsonl',
          cwd: '/ws',
          hook_event_name: event,
          model: 'gpt-5.5',
          permission_mode: 'bypassPermissions',
          ...extra,
        }),
      );
    const tool = (event: 'PreToolUse' | 'PostToolUse', name: string, command: string) =>
      send(event, {
        tool_name: name,
        tool_input: { command },
        tool_use_id: `call_${++calls}`,
        ...(event === 'PostToolUse' && { tool_response: '' }),
      });
    const prompt = (id: string, text = 'Fix a.txt') => {
      turn = id;
      return send('UserPromptSubmit', { prompt: text });
    };
    /** `cat F` through the shell: both its events */
    const read = async (file: string, command = `cat ${file}`) => {
      assert.equal(await tool('PreToolUse', 'Bash', command), '');
      assert.equal(await tool('PostToolUse', 'Bash', command), '');
    };
    const patch = (body: string) => tool('PreToolUse', 'apply_patch', `*** Begin Patch\n${body}\n*** End Patch\n`);
    const reason = (output: string) => JSON.parse(output).hookSpecificOutput.permissionDecisionReason as string;
    return { ...t, send, tool, prompt, read, patch, reason, key: () => t.sessions.keyOfChatId(SESSION) };
  }

  test("a stale patch after the user's unsaved change is denied with that change; the buffer and the disk are untouched; the change counts as read", async () => {
    const t = codex();
    t.docs.file(A, 'let greeting = "Hello";\nlet name = "world";\n');
    await t.prompt(TURN_1, 'Greet Codex');
    await t.read('a.txt');
    t.docs.userEdit(A, 'let greeting = "Good morning";\nlet name = "world";\n');
    const out = await t.patch('*** Update File: a.txt\n@@\n-let name = "world";\n+let name = "Codex";');
    assert.ok(t.denied(out), out);
    const text = t.reason(out);
    assert.match(text, /^BLOCKED: nothing was written\. The user has unsaved changes to a\.txt in the editor/);
    assert.match(text, /Codex writes the file on disk, so your patch now would land under those changes/);
    assert.match(text, /^-let greeting = "Hello";$/m);
    assert.match(text, /^\+let greeting = "Good morning";$/m);
    assert.deepEqual(t.docs.get(A), {
      text: 'let greeting = "Good morning";\nlet name = "world";\n',
      disk: 'let greeting = "Hello";\nlet name = "world";\n',
      dirty: true,
    });
    assert.deepEqual(t.blocks, [`apply_patch a.txt unsaved-in-editor turn ${TURN_1}`], "the block is of Codex's own turn id");
    const mark = t.store.newest(t.key(), A);
    assert.ok(mark?.origin === 'refusal', 'the diff completed the disk text Codex read to the buffer');
    assert.equal(t.store.snapshot(t.key(), A, mark.hash), 'let greeting = "Good morning";\nlet name = "world";\n');
    assert.equal(t.names.chat(t.key())?.agent, 'Codex');
    assert.equal(t.names.chat(t.key())?.title, 'Greet Codex');
  });

  test('an Update of a file never read is denied with its content; the retry passes on the refusal, and its PostToolUse stamps the own write in its turn', async () => {
    const t = codex();
    t.docs.file(A, "the user's notes\n");
    await t.prompt(TURN_1);
    const body = "*** Update File: a.txt\n@@\n the user's notes\n+a fresh line";
    const out = await t.patch(body);
    assert.ok(t.denied(out), out);
    assert.match(t.reason(out), /You have not read a\.txt in this chat/);
    assert.match(t.reason(out), /1\tthe user's notes/);
    assert.equal(await t.patch(body), '', 'the refusal showed the text: the retry passes');
    t.docs.diskChange(A, "the user's notes\na fresh line\n");
    assert.equal(await t.tool('PostToolUse', 'apply_patch', `*** Begin Patch\n${body}\n*** End Patch\n`), '');
    const mark = t.store.newest(t.key(), A);
    assert.equal(mark?.origin, 'write');
    assert.equal(mark?.turn, TURN_1);
  });

  test('a Delete of a file changed since the read is denied with the change, and the file is kept', async () => {
    const t = codex();
    t.docs.file(B, 'b\n');
    await t.read('b.txt', "sed -n '1,20p' b.txt");
    t.docs.diskChange(B, 'b, changed by another program\n');
    const out = await t.patch('*** Delete File: b.txt');
    assert.ok(t.denied(out), out);
    assert.match(t.reason(out), /b\.txt changed since you last read it/);
    assert.match(t.reason(out), /^\+b, changed by another program$/m);
    assert.equal(t.docs.text(B), 'b, changed by another program\n');
  });

  test('a new file is allowed; a Move of a file read is allowed; a patch touching one unread file is denied whole', async () => {
    const t = codex();
    assert.equal(await t.patch('*** Add File: fresh.txt\n+new'), '');
    t.docs.file(A, 'move me\n');
    await t.read('a.txt', 'nl -ba a.txt | head -n 40');
    assert.equal(await t.patch('*** Update File: a.txt\n*** Move to: moved/a2.txt\n@@\n-move me\n+moved'), '');
    t.docs.file(B, 'never read\n');
    const out = await t.patch('*** Update File: a.txt\n@@\n-move me\n+x\n*** Update File: b.txt\n@@\n-never read\n+y');
    assert.ok(t.denied(out), out);
    assert.match(t.reason(out), /You have not read b\.txt/);
  });

  test('apply_patch through the shell (a heredoc) is checked like the tool; a shell command that is not a read marks nothing', async () => {
    const t = codex();
    t.docs.file(A, 'alpha\n');
    assert.equal(await t.tool('PreToolUse', 'Bash', 'grep -n alpha a.txt'), '');
    assert.equal(await t.tool('PostToolUse', 'Bash', 'grep -n alpha a.txt'), '');
    assert.equal(t.store.newest(t.key(), A), undefined, 'a search is not a read of the file');
    const out = await t.tool(
      'PreToolUse',
      'Bash',
      "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: a.txt\n@@\n-alpha\n+ALPHA\n*** End Patch\nEOF",
    );
    assert.ok(t.denied(out), out);
    assert.match(t.reason(out), /You have not read a\.txt in this chat/);
  });

  test("turns are Codex's turn ids: a read in one turn counts in the next (readKeepsMark always), a compaction forgets the chat's marks", async () => {
    const t = codex();
    t.docs.file(A, 'x\n');
    await t.prompt(TURN_1);
    await t.read('a.txt');
    assert.equal(t.store.newest(t.key(), A)?.turn, TURN_1);
    await t.prompt(TURN_2, 'Now edit it');
    assert.equal(await t.patch('*** Update File: a.txt\n@@\n-x\n+y'), '');
    assert.deepEqual(
      t.nameCalls.filter((c) => c.startsWith('notePrompt')),
      [`notePrompt ${t.key()} ${TURN_1} Fix a.txt`, `notePrompt ${t.key()} ${TURN_2} Now edit it`],
    );
    await t.send('PreCompact', { trigger: 'auto' });
    assert.equal(t.store.newest(t.key(), A), undefined);
    assert.match(t.reason(await t.patch('*** Update File: a.txt\n@@\n-x\n+y')), /You have not read a\.txt in this chat/);
  });
});

suite("hook router: an agent whose calls of one response run at once (pi's)", () => {
  /** pi's events as its extension sends them (src/agents/pi/node/plugin.ts): each tool event names its call. */
  function pi() {
    const t = setup();
    const send = (event: string, extra: Record<string, unknown> = {}) =>
      t.hooks.handle(piAgent.id, JSON.stringify({ session_id: CHAT, cwd: '/ws', hook_event_name: event, ...extra }));
    const tool = (event: 'PreToolUse' | 'PostToolUse', call: string, tool_name: string, tool_input: Record<string, unknown>) =>
      send(event, { tool_name, tool_input, tool_use_id: call });
    const read = (event: 'PreToolUse' | 'PostToolUse', call: string, file: string) => tool(event, call, 'read', { path: file });
    const edit = (event: 'PreToolUse' | 'PostToolUse', call: string, file: string, oldText: string) =>
      tool(event, call, 'edit', { path: file, edits: [{ oldText, newText: 'changed' }] });
    return { ...t, send, read, edit };
  }

  test("a sibling's check does not settle a read: an edit of the same file issued beside its read is refused, written without what the read shows", async () => {
    const t = pi();
    t.docs.file(A, 'one\n');
    await t.send('UserPromptSubmit', { prompt: 'Fix a.txt' });
    await t.send(MODEL_REQUEST);
    assert.equal(await t.read('PreToolUse', 'call_1', 'a.txt'), '');
    const out = await t.edit('PreToolUse', 'call_2', 'a.txt', 'one');
    assert.ok(t.denied(out), 'the model had not seen the file when it wrote the edit');
    assert.equal(t.newest(A)?.origin, 'refusal', 'the refusal counts as a read');
  });

  test("each call is settled at its own result: an edit's own write is the text it left, though a sibling's check came first", async () => {
    const t = pi();
    t.docs.file(A, 'one\n');
    t.docs.file(B, 'two\n');
    await t.send('UserPromptSubmit', { prompt: 'Fix both' });
    await t.send(MODEL_REQUEST);
    await t.read('PreToolUse', 'call_1', 'a.txt');
    await t.read('PreToolUse', 'call_2', 'b.txt');
    await t.read('PostToolUse', 'call_1', 'a.txt');
    await t.read('PostToolUse', 'call_2', 'b.txt');
    await t.send(MODEL_REQUEST);
    // both edits are checked before either runs, then they run together
    assert.equal(await t.edit('PreToolUse', 'call_3', 'a.txt', 'one'), '');
    assert.equal(await t.edit('PreToolUse', 'call_4', 'b.txt', 'two'), '');
    assert.equal(t.newest(A)?.origin, 'read', "a sibling's check does not make the edit of a.txt done");
    t.docs.userEdit(B, 'TWO\n');
    assert.equal(await t.edit('PostToolUse', 'call_4', 'b.txt', 'two'), '');
    assert.equal(t.newest(B)?.hash, sha256('TWO\n'), "b.txt's own write, at its own result");
    assert.equal(t.newest(A)?.origin, 'read', 'a.txt still waits for its own result');
    t.docs.userEdit(A, 'ONE\n');
    assert.equal(await t.edit('PostToolUse', 'call_3', 'a.txt', 'one'), '');
    assert.equal(t.newest(A)?.origin, 'write');
    assert.equal(t.newest(A)?.hash, sha256('ONE\n'), 'the mark is of the text the edit left');
    assert.deepEqual(t.blocks, []);
  });

  test("a sibling's edit of a file another call of the same response is about to write is refused write-in-flight: it was made from the text that write replaces", async () => {
    const t = pi();
    t.docs.file(A, 'one\ntwo\n');
    await t.send('UserPromptSubmit', { prompt: 'Fix a.txt' });
    await t.send(MODEL_REQUEST);
    await t.read('PreToolUse', 'call_1', 'a.txt');
    await t.read('PostToolUse', 'call_1', 'a.txt');
    await t.send(MODEL_REQUEST);
    // both edits are checked before either runs (pi, opencode): the second would be decided on the text the first replaces
    assert.equal(await t.edit('PreToolUse', 'call_2', 'a.txt', 'one'), '');
    const out = await t.edit('PreToolUse', 'call_3', 'a.txt', 'two');
    assert.ok(t.denied(out), out);
    assert.match(
      JSON.parse(out).hookSpecificOutput.permissionDecisionReason,
      /Another call of your same response is writing a\.txt right now/,
    );
    // the first lands; the next response's edit of the file passes on the text it left
    t.docs.diskChange(A, 'changed\ntwo\n');
    await t.edit('PostToolUse', 'call_2', 'a.txt', 'one');
    await t.send(MODEL_REQUEST);
    assert.equal(await t.edit('PreToolUse', 'call_4', 'a.txt', 'two'), '');
  });

  test('the next model request settles a call whose result never came', async () => {
    const t = pi();
    t.docs.file(A, 'one\n');
    await t.send('UserPromptSubmit', { prompt: 'Fix a.txt' });
    await t.send(MODEL_REQUEST);
    await t.read('PreToolUse', 'call_1', 'a.txt');
    assert.equal(t.newest(A), undefined);
    await t.send(MODEL_REQUEST);
    assert.equal(t.newest(A)?.hash, sha256('one\n'));
    assert.equal(await t.edit('PreToolUse', 'call_2', 'a.txt', 'one'), '', 'the edit of the next response passes on the read');
  });
});

suite("hook router: an agent that lets a hook take less than the default (Cline's plugin: 3 s, then the run fails)", function () {
  this.timeout(20000);

  test("a check waiting for another chat's write in flight is answered by the agent's own deadline: refused write-in-flight, where the default one would have outlasted the write's bound and let it through", async () => {
    assert.ok((clineAgent.answerWithinMs ?? Infinity) < RESERVATION_MS, 'the deadline comes before the reservation lapses');
    const t = setup();
    t.docs.file(A, 'one\n');
    const event = (agent: string, chat: string, hook_event_name: string, extra: Record<string, unknown> = {}) =>
      t.hooks.handle(agent, JSON.stringify({ session_id: chat, cwd: '/ws', hook_event_name, ...extra }));
    const clineTool = (hook: string, call: string, tool_name: string, tool_input: Record<string, unknown>) =>
      event(clineAgent.id, 'cline-chat', hook, { tool_name, tool_input, tool_use_id: call });
    // Cline reads the file; pi reads it and is let through to edit it, and its write never lands: the file stays reserved
    await event(clineAgent.id, 'cline-chat', 'UserPromptSubmit', { prompt: 'Fix a.txt' });
    await clineTool('PreToolUse', 'c1', 'read_files', { files: [{ path: 'a.txt' }] });
    await clineTool('PostToolUse', 'c1', 'read_files', { files: [{ path: 'a.txt' }] });
    await event(piAgent.id, 'pi-chat', 'UserPromptSubmit', { prompt: 'Fix a.txt too' });
    await event(piAgent.id, 'pi-chat', 'PreToolUse', { tool_name: 'read', tool_input: { path: 'a.txt' }, tool_use_id: 'p1' });
    await event(piAgent.id, 'pi-chat', 'PostToolUse', { tool_name: 'read', tool_input: { path: 'a.txt' }, tool_use_id: 'p1' });
    const piEdit = { tool_name: 'edit', tool_input: { path: 'a.txt', edits: [{ oldText: 'one', newText: 'ONE' }] }, tool_use_id: 'p2' };
    assert.equal(await event(piAgent.id, 'pi-chat', 'PreToolUse', piEdit), '');
    const out = await clineTool('PreToolUse', 'c2', 'editor', { path: 'a.txt', old_text: 'one', new_text: 'uno' });
    assert.ok(t.denied(out), out);
    assert.match(JSON.parse(out).hookSpecificOutput.permissionDecisionReason, /\bpi\b/, 'it names the writer it waited for');
  });
});

suite("hook router: the editor's documents brought up to date once per event (Editor.sync, docs/design.md §Layers)", () => {
  test('a keystroke on its way to the extension host when an edit check arrives is seen by the check: the read before it no longer counts', async () => {
    const t = setup();
    t.docs.file(A, 'one\n');
    await t.prompt();
    await t.read('a.txt');
    // the user types into the open document; the change reaches this side with the next round trip
    t.docs.memory.atSync = () => t.docs.userEdit(A, 'one\nthe user typed this\n');
    const out = await t.preReplace('a.txt', CHAT, 'one');
    assert.ok(t.denied(out), `refused on what the editor holds: ${out}`);
    assert.match(JSON.parse(out).hookSpecificOutput.permissionDecisionReason, /the user typed this/);
  });

  test("a read's start takes the version the editor holds with the keystroke on its way in it", async () => {
    const t = setup();
    t.docs.file(A, 'one\n');
    await t.prompt();
    assert.equal(await t.preRead('a.txt'), '', 'the editor opens the file');
    await t.postRead('a.txt');
    t.docs.memory.atSync = () => t.docs.userEdit(A, 'one\ntwo\n');
    await t.read('a.txt');
    assert.equal(t.newest(A)?.hash, sha256('one\ntwo\n'));
  });

  test('one round trip per event: the start of a read that also settles the edit before it sends one, shared by both loads', async () => {
    const t = setup();
    t.docs.file(A, 'one\n');
    await t.prompt();
    await t.read('a.txt');
    assert.equal(await t.preReplace('a.txt', CHAT, 'one'), '');
    t.docs.userEdit(A, 'y\n'); // what the tool leaves
    const before = t.docs.memory.syncs;
    // the edit's PostToolUse never came: this read settles it (a load of A) and takes its own version (another load)
    assert.equal(await t.preRead('a.txt'), '');
    assert.equal(t.docs.memory.syncs - before, 1);
  });

  test('an event that loads no document the editor holds sends none: a read mark, a turn, a tool the gate does not need, a file not open', async () => {
    const t = setup();
    t.docs.file(A, 'one\n');
    t.docs.file(B, 'two\n');
    await t.prompt();
    assert.equal(await t.preRead('a.txt'), '');
    const before = t.docs.memory.syncs;
    await t.postRead('a.txt');
    await t.prompt();
    await t.otherTool();
    assert.equal(t.docs.memory.syncs - before, 0, 'a mark, a turn, an ignored tool');
    assert.equal(await t.preRead('b.txt'), '');
    assert.equal(t.docs.memory.syncs - before, 0, 'the file no editor held is opened from the disk');
  });
});
