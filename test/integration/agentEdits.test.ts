// Review and revert of agent edits (docs/design.md §Edit record, §Revert) in the real host: the
// record of each landed write, the Agent Edits view, and the revert that keeps later work.
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { RecordedEditInfo } from '../../src/api';
import type { FileRevert } from '../../src/core/revert';
import {
  activateExtension,
  AGENT_EDITS_VIEW_SELECTOR,
  api,
  call,
  changeOnDisk,
  chatTurn,
  cleanUp,
  diskBytes,
  diskText,
  docFor,
  expectStatus,
  fileRef,
  guardDiagnostics,
  makeFile,
  newChat,
  notification,
  openInEditor,
  readFile,
  replaceString,
  scriptedAgentHosts,
  scriptedAgentReadyIn,
  setConfig,
  type TestFile,
  ui,
  userEdit,
  waitFor,
  writeFile,
} from './helpers';

const REVERT_EDIT = 'editGuard.revertEdit';
const REVERT_TURN = 'editGuard.revertTurn';
const SHOW_AGENT_EDITS = 'editGuard.showAgentEdits';
const STORAGE = 'editGuard.test.agentEditsStorage';

const LINES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
const text = (lines: readonly string[], eol = '\n') => lines.map((l) => l + eol).join('');

/** The file's records, oldest first. */
const editsOf = (f: TestFile): RecordedEditInfo[] =>
  api()
    .editRecord()
    .filter((e) => vscode.Uri.parse(e.uri).toString() === f.uri.toString());
const revertEdits = async (command: string, arg: unknown) => (await vscode.commands.executeCommand<FileRevert[]>(command, arg)) ?? [];
const revertFile = async (f: TestFile) => {
  const edits = editsOf(f).filter((e) => !e.reverted);
  assert.ok(edits.length > 0, `${f.rel} has an edit to revert`);
  const results: FileRevert[] = [];
  for (const e of edits.reverse()) results.push(...(await revertEdits(REVERT_EDIT, e.id)));
  return results;
};

/** An agent edit that landed: read, then replace. */
async function agentReplaces(f: TestFile, oldString: string, newString: string) {
  expectStatus(await readFile(f.rel), 'ok');
  expectStatus(await replaceString(f.rel, oldString, newString), 'ok');
  // no editor shows the file, so the edit went to the disk: the user acts on it once the editor has loaded it
  await waitFor(() => docFor(f)?.getText() === diskText(f), `VS Code to load the agent's edit of ${f.rel}`);
}

function folderBytes(folder: string): number {
  if (!fs.existsSync(folder)) return 0;
  return fs
    .readdirSync(folder, { withFileTypes: true })
    .reduce((n, e) => n + (e.isDirectory() ? folderBytes(path.join(folder, e.name)) : fs.statSync(path.join(folder, e.name)).size), 0);
}

suite('agent edits: review and revert', () => {
  suiteSetup(async () => {
    await activateExtension();
  });
  teardown(cleanUp);

  test('every landed write is recorded (tool, file, saved); revert one edit gives the file its text back, saved', async () => {
    const f = makeFile('rv-one', text(LINES));
    await agentReplaces(f, 'gamma', 'GAMMA from the agent');
    const [edit] = editsOf(f);
    assert.ok(edit, 'the edit is recorded');
    assert.strictEqual(edit.tool, 'editGuard_replaceString');
    assert.strictEqual(edit.saved, true);
    assert.strictEqual(edit.created, false);

    const [result] = await revertEdits(REVERT_EDIT, edit.id);
    assert.strictEqual(result.kind, 'reverted', JSON.stringify(result));
    assert.strictEqual(diskText(f), text(LINES));
    assert.strictEqual(docFor(f)?.isDirty ?? false, false);
    assert.ok(editsOf(f)[0].reverted, 'the record says reverted');
  });

  test('revert a turn over three files: each gets its text from before the turn; another turn stays', async () => {
    await newChat();
    const files = ['rv-turn-a', 'rv-turn-b', 'rv-turn-c'].map((p) => makeFile(p, text(LINES)));
    const turn = await chatTurn([
      ...files.map((f) => call.read(f.rel)),
      call.replace(files[0].rel, 'alpha', 'ALPHA'),
      call.replace(files[0].rel, 'ALPHA', 'ALPHA twice'),
      call.replace(files[1].rel, 'delta', 'DELTA'),
      call.write(files[2].rel, 'rewritten by the agent\n'),
    ]);
    for (const r of turn.results) assert.strictEqual(r.json?.status, 'ok', r.text);
    const later = await chatTurn([call.read(files[2].rel), call.write(files[2].rel, 'rewritten by the agent\nand a later turn\n')]);
    assert.strictEqual(later.results[1].json?.status, 'ok', later.results[1].text);
    const [first] = editsOf(files[0]);
    assert.ok(first.turn, 'a chat turn has an id');

    // the later turn first (newest), then the turn under test
    await revertEdits(REVERT_TURN, { kind: 'turn', session: first.session, turn: editsOf(files[2]).at(-1)?.turn });
    const results = await revertEdits(REVERT_TURN, { kind: 'turn', session: first.session, turn: first.turn });
    assert.deepStrictEqual(
      results.map((r) => r.kind),
      ['reverted', 'reverted', 'reverted'],
      JSON.stringify(results),
    );
    for (const f of files) assert.strictEqual(diskText(f), text(LINES), f.rel);
  });

  test("after the user's change elsewhere in the file, the revert keeps it byte for byte (CRLF file)", async () => {
    const f = makeFile('rv-kept', text(LINES, '\r\n'));
    await agentReplaces(f, 'beta', 'BETA from the agent');
    // another program (or the user in another editor) changes line 7 and saves
    await changeOnDisk(f, diskText(f).replace('\r\neta\r\n', '\r\neta, changed by the user\r\n'));
    const [result] = await revertFile(f);
    assert.strictEqual(result.kind, 'reverted', JSON.stringify(result));
    assert.ok(result.kind === 'reverted' && result.keptLaterChanges);
    const expected = Buffer.from(text(LINES, '\r\n').replace('\r\neta\r\n', '\r\neta, changed by the user\r\n'), 'utf8');
    assert.ok(diskBytes(f).equals(expected), `disk: ${JSON.stringify(diskText(f))}`);
  });

  test("the user's changes right above and below the agent's lines are merged: the agent's lines come out, both of the user's stay", async () => {
    const f = makeFile('rv-adjacent', text(LINES));
    // the agent changes lines 2–3
    await agentReplaces(f, 'beta\ngamma\n', 'BETA by the agent\nGAMMA by the agent\n');
    // the user then changes line 1 and line 4, the lines right next to them, and saves
    await changeOnDisk(f, diskText(f).replace('alpha\n', 'alpha, by the user\n').replace('delta\n', 'delta, by the user\n'));
    const [result] = await revertFile(f);
    assert.strictEqual(result.kind, 'reverted', JSON.stringify(result));
    assert.strictEqual(diskText(f), text(LINES).replace('alpha\n', 'alpha, by the user\n').replace('delta\n', 'delta, by the user\n'));
  });

  test("in a line both changed, the user's other words stay and the agent's words go; words both changed are a conflict, and nothing changes", async () => {
    const f = makeFile('rv-words', 'const greeting = "Hello", name = "world";\nsecond line\n');
    await agentReplaces(f, '"Hello"', '"Good morning"');
    await changeOnDisk(f, diskText(f).replace('"world"', '"there"'));
    const [merged] = await revertFile(f);
    assert.strictEqual(merged.kind, 'reverted', JSON.stringify(merged));
    assert.strictEqual(diskText(f), 'const greeting = "Hello", name = "there";\nsecond line\n');

    const g = makeFile('rv-words-overlap', 'const greeting = "Hello", name = "world";\nsecond line\n');
    await agentReplaces(g, '"Hello"', '"Good morning"');
    const overlapped = diskText(g).replace('"Good morning"', '"Good evening"');
    await changeOnDisk(g, overlapped);
    const [conflict] = await revertFile(g);
    assert.strictEqual(conflict.kind, 'conflict', JSON.stringify(conflict));
    assert.strictEqual(diskText(g), overlapped, 'nothing was written');
  });

  test('a file renamed in the editor keeps its record under the new name, and the revert works there', async () => {
    const f = makeFile('rv-rename', text(LINES));
    await agentReplaces(f, 'epsilon', 'EPSILON by the agent');
    const renamed = fileRef(f.rel.replace('rv-rename', 'rv-renamed'));
    const rename = new vscode.WorkspaceEdit();
    rename.renameFile(f.uri, renamed.uri);
    assert.ok(await vscode.workspace.applyEdit(rename));
    await waitFor(() => editsOf(renamed).length > 0, 'the record under the new name', 10000);
    assert.strictEqual(editsOf(f).length, 0, 'nothing left under the old name');
    const [result] = await revertFile(renamed);
    assert.strictEqual(result.kind, 'reverted', JSON.stringify(result));
    assert.strictEqual(diskText(renamed), text(LINES));
  });

  test('an overlapping later change: nothing is changed, and the conflict is shown with its lines', async () => {
    const f = makeFile('rv-conflict', text(LINES));
    await agentReplaces(f, 'delta', 'DELTA from the agent');
    const overlapped = diskText(f).replace('DELTA from the agent', 'DELTA from the agent, then the user');
    await changeOnDisk(f, overlapped);
    const [result] = await revertFile(f);
    assert.strictEqual(result.kind, 'conflict', JSON.stringify(result));
    assert.ok(result.kind === 'conflict');
    assert.deepStrictEqual(result.lines, [{ start: 4, end: 4 }]);
    assert.strictEqual(diskText(f), overlapped, 'nothing was written');
    assert.strictEqual(editsOf(f)[0].reverted, false);
    const words = `Could not revert ${f.rel}`;
    const toast = await notification(words);
    assert.match(toast, /changes made since overlap the agent edit at line 4\. Nothing was changed\./);
    // the user chooses to see it: the file now ↔ the revert with conflict markers
    const clicked = await ui({
      action: 'click',
      within: `.notification-list-item:has-text(${JSON.stringify(words)}) >> visible=true`,
      role: 'button',
      name: 'Show Conflict',
      exact: true,
    });
    assert.ok(clicked.ok, JSON.stringify(clicked));
    const diff = await waitFor(
      () => {
        const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
        return input instanceof vscode.TabInputTextDiff && input.modified.scheme === 'agent-edit-guard' ? input : undefined;
      },
      'the conflict diff',
      5000,
    );
    assert.strictEqual(diff.original.toString(), f.uri.toString());
    const marked = (await vscode.workspace.openTextDocument(diff.modified)).getText();
    assert.match(
      marked,
      /<<<<<<< now \(kept\)\nDELTA from the agent, then the user\n=======\ndelta\n>>>>>>> with the agent edit reverted\n/,
    );
    assert.strictEqual(diskText(f), overlapped, 'looking changes nothing');
  });

  test('a file deleted since the edit: a clear message, and nothing is created', async () => {
    const f = makeFile('rv-deleted', text(LINES));
    await agentReplaces(f, 'zeta', 'ZETA');
    fs.unlinkSync(f.abs);
    await waitFor(async () => {
      try {
        await vscode.workspace.fs.stat(f.uri);
        return false;
      } catch {
        return true;
      }
    }, 'the file to be gone for VS Code');
    const [result] = await revertFile(f);
    assert.strictEqual(result.kind, 'missing', JSON.stringify(result));
    // the revert is done when its command answers: whatever it wrote is there by now
    assert.strictEqual(fs.existsSync(f.abs), false, 'nothing was created');
  });

  test('a revert into a buffer with unsaved changes stays unsaved: the disk keeps the agent version until the user saves', async () => {
    const f = makeFile('rv-dirty', text(LINES));
    await agentReplaces(f, 'alpha', 'ALPHA from the agent');
    const editor = await openInEditor(f);
    await userEdit(editor.document, 'theta', 'theta, typed and not saved');
    const [result] = await revertFile(f);
    assert.strictEqual(result.kind, 'reverted', JSON.stringify(result));
    assert.ok(result.kind === 'reverted' && result.keptUnsaved && !result.saved);
    assert.strictEqual(editor.document.getText(), text(LINES).replace('theta', 'theta, typed and not saved'));
    assert.strictEqual(editor.document.isDirty, true);
    assert.strictEqual(diskText(f), text(LINES).replace('alpha', 'ALPHA from the agent'), 'nothing was saved');
  });

  test("after a revert the agent's next write is refused `changed`, saying the user reverted it; the file's blocked-write warning is cleared", async () => {
    const f = makeFile('rv-agent-learns', text(LINES));
    await agentReplaces(f, 'epsilon', 'EPSILON');
    // then another program changes the file, and the agent's next edit is blocked: its warning stands over the file
    await changeOnDisk(f, diskText(f).replace('alpha', 'alpha (disk)'));
    expectStatus(await replaceString(f.rel, 'EPSILON', 'EPSILON again'), 'blocked', { reason: 'changed' });
    await waitFor(() => guardDiagnostics(f.uri).length > 0, 'the blocked-write warning');

    const results = await revertFile(f);
    assert.ok(results.length === 1 && results[0].kind === 'reverted', JSON.stringify(results));
    assert.strictEqual(diskText(f), text(LINES).replace('alpha', 'alpha (disk)'), 'the agent edit out, the disk change kept');
    assert.deepStrictEqual(guardDiagnostics(f.uri), [], 'the warning was about text that is gone');

    const again = await replaceString(f.rel, 'EPSILON', 'EPSILON once more');
    expectStatus(again, 'blocked', { reason: 'changed' });
    assert.match(again.text, /The user reverted your earlier edit of/);
    assert.match(again.text, /-EPSILON\n\+epsilon/);
  });

  test('the byte budget holds under many edits: the storage folder stays within editGuard.maxEditRecordMB, the newest edit stays revertable', async () => {
    await setConfig('editGuard', 'maxEditRecordMB', 1);
    const f = makeFile('rv-budget', 'start\n');
    expectStatus(await readFile(f.rel), 'ok');
    const version = (i: number) => Array.from({ length: 1500 }, (_, n) => `line ${n} of edit ${i}\n`).join('');
    for (let i = 1; i <= 40; i++) {
      // a call without a chat is a turn of its own: the agent's own write does not count for the next
      expectStatus(await readFile(f.rel, { limit: 1 }), 'ok');
      expectStatus(await writeFile(f.rel, version(i)), 'ok');
    }
    const folder = await vscode.commands.executeCommand<string>(STORAGE);
    assert.ok(folder, 'the workspace has extension storage');
    const stored = folderBytes(vscode.Uri.parse(folder).fsPath);
    assert.ok(stored <= 1024 * 1024, `the record takes ${stored} bytes on disk, over 1 MiB`);
    const kept = editsOf(f);
    console.log(
      `MEASURE edit record budget: ${stored} bytes on disk (budget ${1024 * 1024}), ${kept.length} of 40 edits of ${version(1).length} characters kept`,
    );
    assert.ok(kept.length >= 2 && kept.length < 40, `${kept.length} of 40 edits kept`);
    const [result] = await revertEdits(REVERT_EDIT, kept.at(-1)!.id);
    assert.strictEqual(result.kind, 'reverted', JSON.stringify(result));
    assert.strictEqual(diskText(f), version(39));
    const workspaceFolder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    assert.ok(!vscode.Uri.parse(folder).fsPath.startsWith(workspaceFolder), 'never inside the workspace folder');
  });

  test('Open Changes shows the edit as a diff of the recorded texts; Go to Changed Lines selects the lines in the file', async () => {
    const f = makeFile('rv-diff', text(LINES));
    await agentReplaces(f, 'epsilon', 'EPSILON from the agent');
    const [edit] = editsOf(f);
    await vscode.commands.executeCommand('editGuard.openEditDiff', edit.id);
    const tab = await waitFor(() => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff ? input : undefined;
    }, 'a diff editor');
    assert.strictEqual(tab.original.scheme, 'agent-edit-guard');
    assert.strictEqual((await vscode.workspace.openTextDocument(tab.original)).getText(), text(LINES));
    assert.strictEqual(
      (await vscode.workspace.openTextDocument(tab.modified)).getText(),
      text(LINES).replace('epsilon', 'EPSILON from the agent'),
    );
    await vscode.commands.executeCommand('editGuard.goToEditedLines', edit.id);
    const editor = await waitFor(
      () => (vscode.window.activeTextEditor?.document.uri.toString() === f.uri.toString() ? vscode.window.activeTextEditor : undefined),
      'the file in an editor',
    );
    assert.strictEqual(editor.selection.start.line, 4, 'the changed line (5) is selected');
    assert.strictEqual(editor.selection.end.line, 4);
  });

  test("the turn's inline Revert button in the rendered view reverts the turn", async () => {
    await newChat();
    const f = makeFile('rv-click', text(LINES));
    const turn = await chatTurn([call.read(f.rel), call.replace(f.rel, 'gamma', 'GAMMA by the agent')]);
    assert.strictEqual(turn.results[1].json?.status, 'ok', turn.results[1].text);
    await vscode.commands.executeCommand(SHOW_AGENT_EDITS);
    // the newest chat is expanded, its newest turn first: that row's button
    const row = `${AGENT_EDITS_VIEW_SELECTOR} .monaco-list-row[aria-level="2"] >> nth=0`;
    await waitFor(async () => ((await ui({ action: 'count', selector: row })).count ?? 0) > 0, 'the turn row', 8000, 200);
    assert.ok((await ui({ action: 'hover', selector: row })).ok);
    const clicked = await ui({ action: 'click', within: row, role: 'button', name: 'Revert This Turn' });
    assert.ok(clicked.ok, JSON.stringify(clicked));
    await waitFor(
      () => diskText(f) === text(LINES) && editsOf(f).every((e) => e.reverted),
      'the revert of the turn, on disk and in the record',
      8000,
    );
  });

  test('the view lists the edits by chat, turn and file; a window that made edits still shows them after a reload', async function () {
    // a second window starts a workbench and an extension host of its own: minutes on a busy machine
    this.timeout(480000);
    const f = makeFile('rv-view', text(LINES));
    await agentReplaces(f, 'theta', 'THETA');
    await vscode.commands.executeCommand(SHOW_AGENT_EDITS);
    const name = path.basename(f.rel);
    await waitFor(
      async () => ((await ui({ action: 'text', selector: AGENT_EDITS_VIEW_SELECTOR, timeout: 2000 })).text ?? '').includes(name),
      `${name} in the Agent Edits view`,
      30000,
      200,
    );

    // A window cannot reload itself under its own tests: a second window on the workspace makes an
    // edit through its own chat (a real turn of @scripted, typed into its chat input), then reloads.
    const g = makeFile('rv-reload', text(LINES));
    const second = (action: object, ms?: number) => ui({ ...action, window: 'second' }, ms);
    const showIn = async (what: string, file: string) => {
      await second({ action: 'press', key: 'F1' });
      await second({ action: 'insert', text: 'Agent Edit Guard: Show Agent Edits' });
      // the palette lists the command once it has filtered: click that row (Playwright waits for it)
      const picked = await second({ action: 'click', role: 'option', name: 'Agent Edit Guard: Show Agent Edits', timeout: 30000 }, 40000);
      assert.ok(picked.ok, `the command in the palette of ${what}: ${JSON.stringify(picked)}`);
      return waitFor(
        async () => ((await second({ action: 'text', selector: AGENT_EDITS_VIEW_SELECTOR, timeout: 2000 })).text ?? '').includes(file),
        `${file} in the view of ${what}`,
        30000,
        500,
        'second',
      );
    };
    try {
      const hosts = scriptedAgentHosts();
      assert.ok((await ui({ action: 'openWindow' }, 60000)).ok);
      const secondHost = await scriptedAgentReadyIn(hosts, 'second', 'the second window');
      const input = '.interactive-input-part .monaco-editor';
      const script = { calls: [call.read(g.rel), call.replace(g.rel, 'gamma', 'GAMMA from the second window')] };
      await second({ action: 'insert', selector: input, text: `@scripted ${JSON.stringify(script)}`, timeout: 30000 }, 40000);
      await second({ action: 'press', key: 'Enter' });
      await waitFor(() => diskText(g).includes('GAMMA from the second window'), 'the edit made in the second window', 60000, 250, 'second');
      assert.ok(await showIn('the second window', path.basename(g.rel)));
      assert.ok((await ui({ action: 'reloadWindow' }, 60000)).ok);
      // the reloaded window's extension host is a new one: its record comes from the window's storage
      await scriptedAgentReadyIn(new Set([...hosts, secondHost]), 'second', 'the second window, reloaded');
      assert.ok(await showIn('the second window, reloaded', path.basename(g.rel)));
    } catch (e) {
      await second({ action: 'screenshot', name: 'second-window-failed' });
      throw e;
    } finally {
      await ui({ action: 'closeWindow' });
    }
  });
});
