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
  makeFileAt,
  type ModelRequest,
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
/** A denial of the gate, of any of the harness's tools. */
const DENIED_ANY = /^Denied by preToolUse hook: Agent Edit Guard stopped this \w+ call/;
const editsOf = (file: { uri: vscode.Uri }) =>
  api()
    .editRecord()
    .filter((e) => vscode.Uri.parse(e.uri).toString() === file.uri.toString());

suite('the gate in front of the Copilot harness', () => {
  suiteSetup(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
    // one click: the user-level hooks file, which the harness reads too; before the chat's first turn
    await config().update('guardCopilotTools', 'user', vscode.ConfigurationTarget.Global);
    await waitFor(() => fs.existsSync(userHooksFile()), 'the user-level hooks file', 10_000);
    await waitFor(
      () => fs.existsSync(path.join(os.homedir(), '.cache', 'agent-edit-guard', 'windows')),
      "this window's entry, for hooks started outside it",
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
    const f = makeFileAt('gate/view-edit.txt', 'one\ntwo\n');
    await harnessTurn('gate-view-edit', [view(f.abs), edit(f.abs, 'two', 'TWO'), say('Done.')]);
    assert.strictEqual(diskText(f), 'one\nTWO\n');
    const [record] = await waitFor(() => editsOf(f).length > 0 && editsOf(f), 'the edit in the record', 10_000);
    assert.strictEqual(record.agent, 'copilot-harness');
    assert.strictEqual(record.tool, 'Edit');
  });

  test("a stale edit after the user's unsaved change is denied with the change; the buffer keeps the user's text, unsaved", async () => {
    const f = makeFileAt('gate/unsaved.ts', 'let greeting = "Hello";\nlet name = "world";\n');
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

  test('a create or an edit over a file never viewed is denied with its content, and the retry from it lands', async () => {
    const f = makeFileAt('gate/notes.md', "the user's notes\n");
    const denials: string[] = [];
    let refusedByTheHarness = '';
    await harnessTurn('gate-never-viewed', [
      create(f.abs, 'replaced\n'),
      (req) => {
        const result = lastResult(req).text;
        // the runtime also checks a create's path: it may refuse an existing file itself before the gate is asked
        if (DENIED_ANY.test(result)) {
          denials.push(result);
          return edit(f.abs, "the user's notes", "the user's notes\nand the agent's line");
        }
        refusedByTheHarness = result;
        return edit(f.abs, "the user's notes", 'a copy from memory');
      },
      (req) => {
        const result = lastResult(req).text;
        if (!DENIED_ANY.test(result)) return say('Done.');
        denials.push(result);
        return edit(f.abs, "the user's notes", "the user's notes\nand the agent's line");
      },
      say('Done.'),
    ]);
    assert.ok(denials.length === 1, `one denial by the gate, then the retry: ${JSON.stringify({ denials, refusedByTheHarness })}`);
    assert.match(denials[0], /You have not read .*notes\.md in this chat/, denials[0]);
    assert.match(denials[0], /1\tthe user's notes/);
    if (refusedByTheHarness) assert.match(refusedByTheHarness, /already exists as a file/, refusedByTheHarness);
    assert.strictEqual(diskText(f), "the user's notes\nand the agent's line\n", 'the refusal counted as a view: the retry landed');
  });

  test("a create the runtime fails after the gate let it through holds nothing: the next response's edit of the file lands at once", async () => {
    const f = makeFileAt('gate/f3.txt', 'one\ntwo\n');
    const results: string[] = [];
    const seen = (req: ModelRequest) => results.push(lastResult(req).text);
    await harnessTurn('gate-failed-create', [
      // never viewed: refused with its content, which counts as a view
      create(f.abs, 'new\n'),
      (req) => (seen(req), create(f.abs, 'new\n')),
      // the correct call: the whole text the refusal showed, made the new text
      (req) => (seen(req), edit(f.abs, 'one\ntwo\n', 'new\n')),
      (req) => (seen(req), say('Done.')),
    ]);
    assert.match(results[0], /^Denied by preToolUse hook:[\s\S]*You have not read .*f3\.txt in this chat/, results[0]);
    assert.match(results[1], /already exists/, 'the gate let the same create through; the runtime failed it by itself');
    assert.doesNotMatch(results[2], DENIED_ANY, "the next response's edit is not taken for the failed create's sibling");
    assert.strictEqual(diskText(f), 'new\n');
  });

  test('apply_patch (a codex-family model) over a file never viewed is denied with its content; nothing is applied', async () => {
    const f = makeFileAt('gate/patched.txt', 'alpha\nbeta\n');
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
    const f = makeFileAt('gate/compacted.txt', 'kept\n');
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
    const f = makeFileAt('gate/guarded.txt', 'x\n');
    await harnessTurn('gate-guarded', [{ tool: 'guardedRead', input: { filePath: f.abs } }, edit(f.abs, 'x', 'y'), say('Done.')]);
    assert.strictEqual(diskText(f), 'y\n', "the harness's edit passed on the guarded read of the same chat");
    const marks = api()
      .readMarks()
      .filter((m) => vscode.Uri.parse(m.uri).toString() === f.uri.toString());
    assert.strictEqual(new Set(marks.map((m) => m.session)).size, 1, `one chat's marks: ${JSON.stringify(marks)}`);
    assert.notStrictEqual(marks[0].session, 'no-chat', 'not the no-chat session of a call without a chat');
  });

  test('the Agent Edits view shows a harness edit by its agent, and reverting it gives the file back', async () => {
    const f = makeFileAt('gate/revert.txt', 'first\nsecond\n');
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

  test('an apply_patch that deletes a file it viewed is recorded with the text it removed; reverting it brings the file back, byte for byte', async () => {
    const text = 'first line\r\nsecond, with é\r\nno break at the end';
    const f = makeFileAt('gate/deleted-by-patch.txt', text);
    await harnessTurn(
      'gate-delete',
      [view(f.abs), applyPatch(`*** Begin Patch\n*** Delete File: ${f.abs}\n*** End Patch`), say('Deleted.')],
      { model: MODELS.codex },
    );
    assert.strictEqual(fs.existsSync(f.abs), false, 'the patch deleted the file');
    const [record] = await waitFor(() => editsOf(f).length > 0 && editsOf(f), 'the deletion in the record', 10_000);
    assert.strictEqual(record.deleted, true, JSON.stringify(record));
    const [result] = (await vscode.commands.executeCommand<FileRevert[]>('editGuard.revertEdit', record.id)) ?? [];
    assert.strictEqual(result?.kind, 'reverted', JSON.stringify(result));
    assert.ok(
      fs.readFileSync(f.abs).equals(Buffer.from(text, 'utf8')),
      `back, byte for byte: ${JSON.stringify(fs.readFileSync(f.abs, 'utf8'))}`,
    );
  });

  test('an apply_patch that moves a file it viewed: reverting the turn moves it back (the source made again, the target gone)', async () => {
    const source = makeFileAt('gate/move-source.txt', 'moving\ntext\n');
    const target = path.join(path.dirname(source.abs), 'move-target.txt');
    await harnessTurn(
      'gate-move',
      [
        view(source.abs),
        applyPatch(
          `*** Begin Patch\n*** Update File: ${source.abs}\n*** Move to: ${target}\n@@\n moving\n-text\n+text, moved\n*** End Patch`,
        ),
        say('Moved.'),
      ],
      { model: MODELS.codex },
    );
    assert.ok(!fs.existsSync(source.abs) && fs.existsSync(target), 'the patch moved the file');
    const targetUri = vscode.Uri.file(target);
    const edits = await waitFor(
      () => {
        const both = [...editsOf(source), ...editsOf({ uri: targetUri })];
        return both.length === 2 && both;
      },
      'the move in the record: a deletion and a creation',
      10_000,
    );
    const results =
      (await vscode.commands.executeCommand<FileRevert[]>('editGuard.revertTurn', {
        kind: 'turn',
        session: edits[0].session,
        turn: edits[0].turn,
      })) ?? [];
    assert.deepStrictEqual(results.map((r) => r.kind).sort(), ['reverted', 'reverted'], JSON.stringify(results));
    assert.strictEqual(diskText(source), 'moving\ntext\n');
    assert.strictEqual(fs.existsSync(target), false, 'the moved-to file, unchanged since, is gone');
  });
});
