// Real chat turns (turns and rule 3, separate chats, rules 6 and 9 inside chat): the test-only @scripted
// participant calls the tools with the request's real toolInvocationToken and chatRequestId, exactly
// like Copilot's agent loop. Sessions come from the token, turns from chatRequestId.
import * as vscode from 'vscode';
import * as assert from 'assert';
import {
  activateExtension,
  activateScriptedAgent,
  call,
  chatTurn,
  cleanUp,
  diskText,
  expectStatus,
  GREETING_TS,
  guardDiagnostics,
  makeFile,
  newChat,
  newestMark,
  openInEditor,
  ScriptedRequest,
  setConfig,
  setSetting,
  sha256,
  userEdit,
  waitFor,
} from './helpers';

/** A comparable form of the request's toolInvocationToken (the participant may record it as object or JSON). */
const tokenKey = (r: ScriptedRequest) => (typeof r.token === 'string' ? r.token : JSON.stringify(r.token));

/** Editors open in every group (a chat editor counts). */
const openTabs = () => vscode.window.tabGroups.all.reduce((n, g) => n + g.tabs.length, 0);

suite('real chat turns through @scripted', () => {
  suiteSetup(async () => {
    await activateExtension();
    await activateScriptedAgent();
  });

  setup(async () => {
    await newChat();
  });

  teardown(cleanUp);

  test('sameTurn: own write then replace in the same turn passes; in the next turn of the same chat it is blocked (own-write-expired) (rule 3)', async () => {
    const f = makeFile('h-same-turn', 'alpha\nbeta\n');

    const turn1 = await chatTurn([call.read(f.rel), call.write(f.rel, 'alpha\nbeta\ngamma\n'), call.replace(f.rel, 'gamma', 'GAMMA')]);
    const [read, write, replace] = turn1.results;
    expectStatus(read, 'ok');
    expectStatus(write, 'ok');
    expectStatus(replace, 'ok');
    assert.strictEqual(diskText(f), 'alpha\nbeta\nGAMMA\n', 'both writes of the turn landed');

    const mark = newestMark(f.uri);
    assert.ok(mark, 'a mark exists');
    assert.strictEqual(mark.origin, 'write', 'the own write re-marked the file');
    assert.strictEqual(mark.turn, turn1.id, 'the mark carries the turn = chatRequestId of the request');
    assert.strictEqual(mark.hash, sha256('alpha\nbeta\nGAMMA\n'));

    const turn2 = await chatTurn([call.replace(f.rel, 'GAMMA', 'delta')]);
    assert.notStrictEqual(turn2.id, turn1.id, 'a new turn');
    assert.strictEqual(tokenKey(turn2), tokenKey(turn1), 'same chat session (same token)');
    const blocked = expectStatus(turn2.results[0], 'blocked', { reason: 'own-write-expired' });
    assert.ok(blocked);
    assert.strictEqual(diskText(f), 'alpha\nbeta\nGAMMA\n', 'nothing written in the later turn');
    assert.match(turn2.results[0].text, /write/i, 'the text says the own write expired');

    // rule 6 in chat: the refusal stamped a mark, so the same chat's next call passes
    const turn3 = await chatTurn([call.replace(f.rel, 'GAMMA', 'delta')]);
    expectStatus(turn3.results[0], 'ok');
    assert.strictEqual(diskText(f), 'alpha\nbeta\ndelta\n');
  });

  test('never: an own write does not keep the mark even in the same turn (rule 3)', async () => {
    await setSetting('ownWriteKeepsMark', 'never');
    const f = makeFile('h-never', 'one\ntwo\n');

    const turn = await chatTurn([call.read(f.rel), call.write(f.rel, 'one\ntwo\nthree\n'), call.replace(f.rel, 'three', 'THREE')]);
    expectStatus(turn.results[0], 'ok');
    expectStatus(turn.results[1], 'ok');
    expectStatus(turn.results[2], 'blocked', { reason: ['own-write-expired', 'changed'] });
    assert.strictEqual(diskText(f), 'one\ntwo\nthree\n', 'the second write of the turn did not land');
  });

  test('a chat agent that passes no chatRequestId: each call is its own turn, so sameTurn acts as never (rule 3)', async () => {
    const f = makeFile('h-no-ids', 'x\n');
    const turn = await chatTurn([call.read(f.rel), call.write(f.rel, 'x\ny\n'), call.replace(f.rel, 'y', 'Y')], { ids: false });
    expectStatus(turn.results[0], 'ok');
    expectStatus(turn.results[1], 'ok');
    expectStatus(turn.results[2], 'blocked', { reason: 'own-write-expired' });
    assert.strictEqual(diskText(f), 'x\ny\n');
  });

  test('rule 6 in chat: a not-read refusal in a turn lets the next call of the same turn through', async () => {
    const f = makeFile('r6-chat', 'before\n');
    const turn = await chatTurn([call.write(f.rel, 'after\n'), call.write(f.rel, 'after\n')]);
    const first = expectStatus(turn.results[0], 'blocked', { reason: 'not-read' });
    assert.ok(first);
    assert.match(turn.results[0].text, /^\s*1\tbefore$/m, 'the refusal shows the numbered current content');
    expectStatus(turn.results[1], 'ok');
    assert.strictEqual(diskText(f), 'after\n');
  });

  test('rule 2: a read in an earlier turn of the same chat still lets a write through', async () => {
    const f = makeFile('r2-turns', 'read me\n');
    const t1 = await chatTurn([call.read(f.rel)]);
    expectStatus(t1.results[0], 'ok');
    const t2 = await chatTurn([call.write(f.rel, 'written later\n')]);
    expectStatus(t2.results[0], 'ok');
    assert.strictEqual(diskText(f), 'written later\n');
  });

  test('two chats: a read in chat A does not let chat B write (not-read), while A still can', async () => {
    const f = makeFile('j-two-chats', 'shared text\n');

    // chat A, in the chat view
    const a1 = await chatTurn([call.read(f.rel)]);
    expectStatus(a1.results[0], 'ok');
    const markA = newestMark(f.uri);
    assert.ok(markA && markA.origin === 'read', 'chat A stamped a read mark');

    // chat B, in a new chat editor (the chat view keeps chat A)
    const tabsBefore = openTabs();
    await vscode.commands.executeCommand('workbench.action.openChat');
    await waitFor(() => openTabs() > tabsBefore, 'the chat editor to open', 10000);
    const b1 = await chatTurn([call.write(f.rel, 'written by chat B\n')]);
    assert.notStrictEqual(tokenKey(b1), tokenKey(a1), 'test setup: chat B is another chat session (another token)');
    expectStatus(b1.results[0], 'blocked', { reason: 'not-read' });
    assert.strictEqual(diskText(f), 'shared text\n', 'chat B wrote nothing');
    const markB = newestMark(f.uri);
    assert.ok(markB && markB.origin === 'refusal', 'chat B got a refusal mark');
    assert.notStrictEqual(markB.session, markA.session, 'marks are kept per chat session');
    assert.strictEqual(newestMark(f.uri, markA.session)?.fresh, true, "chat A's read mark is untouched and fresh");

    // back to chat A: close B's editor, so the chat view (still on chat A) takes the next turn
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor(() => openTabs() === 0, 'the chat editor to close', 10000);
    const a2 = await chatTurn([call.write(f.rel, 'written by chat A\n')]);
    assert.strictEqual(tokenKey(a2), tokenKey(a1), 'test setup: back in chat A (same token)');
    expectStatus(a2.results[0], 'ok');
    assert.strictEqual(diskText(f), 'written by chat A\n', "chat A's write landed");
  });

  test("a new chat does not inherit the previous chat's marks (newChat between)", async () => {
    const f = makeFile('j-new-chat', 'v1\n');
    const a = await chatTurn([call.read(f.rel), call.write(f.rel, 'v2\n')]);
    expectStatus(a.results[1], 'ok');
    await newChat();
    const b = await chatTurn([call.replace(f.rel, 'v2', 'v3')]);
    assert.notStrictEqual(tokenKey(b), tokenKey(a), 'test setup: newChat gave another session');
    expectStatus(b.results[0], 'blocked', { reason: 'not-read' });
    assert.strictEqual(diskText(f), 'v2\n');
  });

  test('in a real chat turn, an agent edit into a document with unsaved user changes stays unsaved', async () => {
    // VS Code itself saves every dirty file when a chat request is sent (chat.saveBeforeSend, default
    // true, seen in 1.139): turn it off so the user's unsaved text is still unsaved when the tools run,
    // as it is when the user types while a turn is running.
    await setConfig('chat', 'saveBeforeSend', false);
    const original = 'title\nbody\n';
    const f = makeFile('l-chat-unsaved', original);
    const editor = await openInEditor(f);
    await userEdit(editor.document, 'title', 'title (typed, unsaved)');

    const turn = await chatTurn([call.read(f.rel), call.replace(f.rel, 'body', 'BODY')]);
    const read = expectStatus(turn.results[0], 'ok');
    assert.ok(read);
    assert.match(turn.results[0].text, /^\s*1\ttitle \(typed, unsaved\)$/m, 'the read saw the unsaved buffer');
    const json = expectStatus(turn.results[1], 'ok');
    assert.strictEqual(json.keptUnsaved, true, 'json.keptUnsaved');
    assert.match(turn.results[1].text, /unsaved|not saved/i, 'the text says so');
    assert.strictEqual(editor.document.getText(), 'title (typed, unsaved)\nBODY\n');
    assert.strictEqual(editor.document.isDirty, true, 'still dirty after the chat turn');
    assert.strictEqual(diskText(f), original, 'disk unchanged');
  });

  test('in a real chat turn, a stale replace after an unsaved user edit is blocked with the change, keeps the edit unsaved and marks the changed line', async () => {
    // the scene of the README's pictures (scripts/screenshots/readme.ts takes them), asserted here
    const file = makeFile('chat-stale-greeting', GREETING_TS, '.ts');
    // the user's edit happens while the agent works, so it stays unsaved (see test l)
    await setConfig('chat', 'saveBeforeSend', false);
    const read = await chatTurn([call.read(file.rel)]);
    expectStatus(read.results[0], 'ok');

    const editor = await openInEditor(file);
    await userEdit(editor.document, '`Hello, ${g.name}${g.punctuation}`', '`Good morning, ${g.name}${g.punctuation}`');

    const blocked = await chatTurn([
      call.replace(file.rel, '  return `Hello, ${g.name}${g.punctuation}`;', '  return `Hi, ${g.name}${g.punctuation}`;'),
    ]);
    expectStatus(blocked.results[0], 'blocked', { reason: 'changed' });
    assert.match(blocked.results[0].text, /edited in the editor, not yet saved/);
    assert.ok(editor.document.isDirty, "the user's edit is still unsaved");
    assert.strictEqual(editor.document.getText(), GREETING_TS.replace('Hello,', 'Good morning,'), "the buffer holds the user's edit alone");
    assert.strictEqual(diskText(file), GREETING_TS, 'nothing was written to disk');
    const diagnostics = await waitFor(
      () => (guardDiagnostics(file.uri).length ? guardDiagnostics(file.uri) : undefined),
      'the blocked-write diagnostic',
    );
    assert.strictEqual(diagnostics[0].range.start.line, 6, 'on the line the user changed');
  });

  test('rule 9 in chat: five parallel appends in one turn carrying the same fresh mark: exactly one lands', async () => {
    const original = 'journal:\n';
    const f = makeFile('r9-chat', original);
    const t1 = await chatTurn([call.read(f.rel)]);
    expectStatus(t1.results[0], 'ok');

    const t2 = await chatTurn(
      [1, 2, 3, 4, 5].map((i) => call.write(f.rel, `entry ${i}\n`, true)),
      { parallel: true },
    );
    const statuses = t2.results.map((r) => r.json?.status);
    assert.strictEqual(
      statuses.filter((s) => s === 'ok').length,
      1,
      `exactly one landed: ${JSON.stringify(t2.results.map((r) => r.json))}`,
    );
    assert.strictEqual(statuses.filter((s) => s === 'blocked').length, 4, 'the others were blocked');
    const text = diskText(f);
    assert.match(text, /^journal:\nentry [1-5]\n$/, `one entry on disk: ${JSON.stringify(text)}`);
  });
});
