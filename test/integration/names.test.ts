// How the surfaces name a chat and a turn (docs/design.md §Surfaces, src/ui/labels.ts): in real chat
// turns through @scripted and in direct tool calls, the blocked-write diagnostic and the quick pick's
// groups say when the chat started and which turn of it this was — never a tail of an internal id.
// (Titles from the words of a request need Copilot's hooks: test/copilot/builtinTools.test.ts.)
import * as vscode from 'vscode';
import * as assert from 'assert';
import {
  activateExtension,
  activateScriptedAgent,
  call,
  chatTurn,
  cleanUp,
  expectStatus,
  guardDiagnostics,
  makeFile,
  newChat,
  newestMark,
  openInEditor,
  ReadMarkInfo,
  statusBarTooltip,
  TestFile,
  userEdit,
  waitFor,
  writeFile,
} from './helpers';
import { visibleText } from './ui';

/** A time of day as the labels write it (hour and minute, in any locale's order: "14:05", "2:05 PM"). */
const TIME = String.raw`\d{1,2}[:.]\d{2}`;

/** The diagnostic the guard put on the file, once it is there. */
const diagnosticOf = (f: TestFile) => waitFor(() => guardDiagnostics(f.uri)[0], `the blocked-write diagnostic on ${f.rel}`);

/** Opens the read-marks quick pick and answers its text once it shows `expected`. */
async function quickPickShowing(expected: RegExp): Promise<string> {
  void vscode.commands.executeCommand('editGuard.showReadMarks');
  return waitFor(
    async () => {
      const text = await visibleText('.quick-input-widget');
      return expected.test(text) ? text : undefined;
    },
    `the read-marks quick pick to show ${expected}`,
    5000,
    100,
  );
}

/** The last six characters of the ids a mark carries: what the labels used to show, and must not now. */
function idTails(mark: ReadMarkInfo): string[] {
  return [mark.session.replace(/[/=]+$/, '').slice(-6), ...(mark.turn ? [mark.turn.slice(-6)] : [])];
}

suite('names of chats and turns on the surfaces', () => {
  suiteSetup(async () => {
    await activateExtension();
    await activateScriptedAgent();
  });

  setup(newChat);
  teardown(cleanUp);

  test('a blocked write in a chat\'s second turn: the diagnostic names the chat by when it started and the turn as "Turn 2" with its time, and still names tool and reason', async () => {
    const f = makeFile('names-diag', 'one\ntwo\n');
    expectStatus((await chatTurn([call.read(f.rel)])).results[0], 'ok');
    const editor = await openInEditor(f);
    await userEdit(editor.document, 'two', 'two, by the user');
    assert.ok(await editor.document.save());
    const turn2 = await chatTurn([call.replace(f.rel, 'one', 'ONE')]);
    expectStatus(turn2.results[0], 'blocked', { reason: 'changed' });

    const message = (await diagnosticOf(f)).message;
    assert.match(message, new RegExp(`\\(Chat started ${TIME}[^,]*, Turn 2 · ${TIME}`), message);
    assert.match(message, /^Guarded replace was blocked/, `names the tool, as ours: ${message}`);
    assert.match(message, /changed since the agent last read it/, `gives the reason: ${message}`);
    const mark = newestMark(f.uri);
    assert.ok(mark && mark.turn === turn2.id, 'the refusal mark is of the second turn');
    for (const tail of idTails(mark)) assert.ok(!message.includes(tail), `no id tail (${tail}) in: ${message}`);
  });

  test('the quick pick groups a chat\'s marks under "Chat started …" and its numbered turns, newest first, the current chat marked', async () => {
    const a = makeFile('names-qp-a', 'a\n');
    const b = makeFile('names-qp-b', 'b\n');
    await chatTurn([call.read(a.rel)]);
    await chatTurn([call.read(b.rel)]);
    const groups = new RegExp(
      `Chat started ${TIME}[^›]*\\(current\\) › Turn 2 · ${TIME}[\\s\\S]*Chat started ${TIME}[^›]*\\(current\\) › Turn 1 · ${TIME}`,
    );
    const text = await quickPickShowing(groups);
    assert.ok(
      text.indexOf(b.rel.split('/').pop()!) < text.indexOf(a.rel.split('/').pop()!),
      `turn 2's file is listed before turn 1's: ${text}`,
    );
    for (const f of [a, b]) {
      const mark = newestMark(f.uri);
      assert.ok(mark);
      for (const tail of idTails(mark)) assert.ok(!text.includes(tail), `no id tail (${tail}) in: ${text}`);
    }
  });

  test("the status bar's tooltip names the current chat by when it started and lists what it has seen", async () => {
    const f = makeFile('names-tooltip', 'seen\n');
    await chatTurn([call.read(f.rel)]);
    const tooltip = await waitFor(
      async () => {
        const text = await statusBarTooltip();
        return text.includes(f.rel) ? text : undefined;
      },
      `the tooltip to list ${f.rel}`,
      8000,
      200,
    );
    assert.match(tooltip, new RegExp(`the current chat, Chat started ${TIME}[^,]*, has seen:`), tooltip);
    const mark = newestMark(f.uri);
    assert.ok(mark);
    for (const tail of idTails(mark)) assert.ok(!tooltip.includes(tail), `no id tail (${tail}) in: ${tooltip}`);
  });

  test('direct tool calls (no chat, no turn id): the diagnostic and the quick pick say so', async () => {
    const f = makeFile('names-direct', 'x\n');
    expectStatus(await writeFile(f.rel, 'y\n'), 'blocked', { reason: 'not-read' });
    const message = (await diagnosticOf(f)).message;
    assert.match(message, /\(No chat \(direct tool calls\)\): /, message);
    await quickPickShowing(/No chat \(direct tool calls\) \(current\) › Calls without a turn id/);
  });
});
