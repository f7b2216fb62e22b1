// The gate in front of the Copilot harness (docs/design.md rule 13, §Surfaces: hooks from anywhere), in
// real harness turns: editGuard.guardCopilotTools `user` writes ~/.copilot/hooks/agent-edit-guard.json,
// the Agent Host's runtime runs it — outside this window's extension host, so with none of its
// environment — and the hook finds this window through its record (src/hooks/discovery.ts). The model is
// scripted; the runtime, its hooks, the bridge, the gate and the editor's documents are the real ones.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { AgentEditGuardApi } from '../../src/api';
import type { FileRevert } from '../../src/core/revert';
import { AGENT_EDITS_VIEW_SELECTOR, revertAndCloseAll, ui, userEdit } from '../integration/helpers';
import {
  applyPatch,
  compactChat,
  create,
  diskText,
  edit,
  harnessTurn,
  lastResult,
  makeFile,
  MODELS,
  newHarnessChat,
  say,
  view,
  waitFor,
} from './harness';

const EXTENSION_ID = 'editguard.agent-edit-guard';
const api = () => vscode.extensions.getExtension<AgentEditGuardApi>(EXTENSION_ID)!.exports;
const config = () => vscode.workspace.getConfiguration('editGuard', null);
const userHooksFile = () => path.join(os.homedir(), '.copilot', 'hooks', 'agent-edit-guard.json');
/** The runtime's words for a PreToolUse deny; the reason follows. */
const DENIED = /^Denied by preToolUse hook: Agent Edit Guard stopped this Edit call: nothing was applied\./;
const editsOf = (file: { uri: vscode.Uri }) =>
  api()
    .agentEdits()
    .filter((e) => vscode.Uri.parse(e.uri).toString() === file.uri.toString());

suite('the gate in front of the Copilot harness', () => {
  suiteSetup(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
    // one click: the user-level hooks file, which the harness reads too; before the chat's first turn
    await config().update('guardCopilotTools', 'user', vscode.ConfigurationTarget.Global);
    await waitFor(() => fs.existsSync(userHooksFile()), 'the user-level hooks file', 10_000);
    await waitFor(
      () => fs.existsSync(path.join(os.homedir(), '.cache', 'agent-edit-guard', 'windows')),
      "this window's record, for hooks started outside it",
      10_000,
    );
    await newHarnessChat();
  });
  teardown(async function () {
    await revertAndCloseAll();
    if (this.currentTest?.state === 'failed') await newHarnessChat();
  });
  suiteTeardown(async () => {
    await config().update('guardCopilotTools', undefined, vscode.ConfigurationTarget.Global);
  });

  test('view then edit: the edit lands, and the record names it a Copilot harness edit', async () => {
    const f = makeFile('gate/view-edit.txt', 'one\ntwo\n');
    await harnessTurn('gate-view-edit', [view(f.abs), edit(f.abs, 'two', 'TWO'), say('Done.')]);
    assert.strictEqual(diskText(f), 'one\nTWO\n');
    const [record] = await waitFor(() => editsOf(f).length > 0 && editsOf(f), 'the edit in the record', 10_000);
    assert.strictEqual(record.agent, 'copilot-harness');
    assert.strictEqual(record.tool, 'Edit');
  });

  test("a stale edit after the user's unsaved change is denied with the change; the buffer keeps the user's text, unsaved", async () => {
    const f = makeFile('gate/unsaved.ts', 'let greeting = "Hello";\nlet name = "world";\n');
    const doc = await vscode.workspace.openTextDocument(f.uri);
    await vscode.window.showTextDocument(doc);
    let denied = '';
    await harnessTurn('gate-unsaved', [
      view(f.abs),
      async () => {
        // after the view, the user types and does not save; the model edits from what it saw
        await userEdit(doc, 'Hello', 'Good morning');
        return edit(f.abs, 'let name = "world";', 'let name = "there";');
      },
      (req) => {
        denied = lastResult(req).text;
        return say('The user is editing this file; I will wait.');
      },
    ]);
    assert.match(
      denied,
      /^Denied by preToolUse hook: BLOCKED: nothing was written\. The user has unsaved changes to .*unsaved\.ts in the editor/,
      denied,
    );
    assert.match(denied, /^\+let greeting = "Good morning";$/m, "the refusal shows the user's change");
    assert.ok(doc.isDirty, 'the buffer still holds unsaved changes');
    assert.strictEqual(doc.getText(), 'let greeting = "Good morning";\nlet name = "world";\n');
    assert.strictEqual(diskText(f), 'let greeting = "Hello";\nlet name = "world";\n', 'nothing was written under the buffer');
  });

  test('create over an existing file never viewed is denied with its content; the edit from what it showed lands', async () => {
    const f = makeFile('gate/notes.md', "the user's notes\n");
    let denied = '';
    await harnessTurn('gate-create', [
      create(f.abs, 'replaced\n'),
      (req) => {
        denied = lastResult(req).text;
        // (the harness's create never goes over a file: the retry is an edit, from what the refusal showed)
        return edit(f.abs, "the user's notes", "the user's notes\nand the agent's line");
      },
      say('Done.'),
    ]);
    assert.match(denied, /^Denied by preToolUse hook: Agent Edit Guard stopped this Write call/, denied);
    assert.match(denied, /1\tthe user's notes/);
    assert.strictEqual(diskText(f), "the user's notes\nand the agent's line\n", 'the refusal counted as a view: the retry landed');
  });

  test('apply_patch (a codex-family model) over a file never viewed is denied with its content; nothing is applied', async () => {
    const f = makeFile('gate/patched.txt', 'alpha\nbeta\n');
    let denied = '';
    const patch = `*** Begin Patch\n*** Update File: ${f.abs}\n@@\n-beta\n+BETA\n*** End Patch`;
    await harnessTurn(
      'gate-patch',
      [
        applyPatch(patch),
        (req) => {
          denied = lastResult(req).text;
          return say('I will view it first.');
        },
      ],
      { model: MODELS.codex },
    );
    assert.match(denied, DENIED, denied);
    assert.match(denied, /1\talpha/);
    assert.strictEqual(diskText(f), 'alpha\nbeta\n');
  });

  test("after /compact the chat's views are forgotten: the next edit of a file it viewed is denied, with the file", async () => {
    const f = makeFile('gate/compacted.txt', 'kept\n');
    await harnessTurn('gate-before-compact', [view(f.abs), say('Seen.')]);
    await compactChat();
    let denied = '';
    await harnessTurn('gate-after-compact', [
      edit(f.abs, 'kept', 'changed'),
      (req) => {
        denied = lastResult(req).text;
        return say('I will view it again.');
      },
    ]);
    assert.match(denied, DENIED, denied);
    assert.match(denied, /You have not read .*compacted\.txt in this chat/);
    assert.strictEqual(diskText(f), 'kept\n');
  });

  test("the guarded tools the harness calls are keyed to its chat: a guarded read counts for the harness's own edit in the same chat", async () => {
    const f = makeFile('gate/guarded.txt', 'x\n');
    await harnessTurn('gate-guarded', [{ tool: 'guardedRead', input: { filePath: f.abs } }, edit(f.abs, 'x', 'y'), say('Done.')]);
    assert.strictEqual(diskText(f), 'y\n', "the harness's edit passed on the guarded read of the same chat");
    const marks = api()
      .readMarks()
      .filter((m) => vscode.Uri.parse(m.uri).toString() === f.uri.toString());
    assert.strictEqual(new Set(marks.map((m) => m.session)).size, 1, `one chat's marks: ${JSON.stringify(marks)}`);
    assert.notStrictEqual(marks[0].session, 'no-chat', 'not the no-chat session of a call without a chat');
  });

  test('the Agent Edits view shows a harness edit by its agent, and reverting it gives the file back', async () => {
    const f = makeFile('gate/revert.txt', 'first\nsecond\n');
    await harnessTurn('gate-revert', [view(f.abs), edit(f.abs, 'second', 'SECOND'), say('Done.')]);
    assert.strictEqual(diskText(f), 'first\nSECOND\n');
    await vscode.commands.executeCommand('editGuard.showAgentEdits');
    await waitFor(
      async () =>
        /Copilot harness edit/.test(
          ((await ui({ action: 'text', selector: AGENT_EDITS_VIEW_SELECTOR, timeout: 2000 })).text as string) ?? '',
        ),
      'the harness edit, named by its agent, in the rendered Agent Edits view',
      20_000,
      250,
    );
    const [record] = editsOf(f);
    const [result] = (await vscode.commands.executeCommand<FileRevert[]>('editGuard.revertEdit', record.id)) ?? [];
    assert.strictEqual(result?.kind, 'reverted', JSON.stringify(result));
    assert.strictEqual(diskText(f), 'first\nsecond\n');
  });
});
