// The pictures in the README, taken from the real host: a blocked write in the chat view (through a
// real chat turn of the test-only @scripted agent) and its diagnostic in the editor. Runs with the
// rest of the suite (its assertions count); `npm run screenshots` runs it alone and keeps the PNGs
// in media/.
import * as assert from 'assert';
import * as vscode from 'vscode';
import * as fs from 'fs';
import * as path from 'path';
import { activateExtension, GREETING_TS, call, chatTurn, cleanUp, fileRef, guardDiagnostics, newChat, openInEditor, sleep, userEdit, waitFor } from './helpers';
import { screenshotsEnabled, ui } from './ui';

suite('screenshots for the README', () => {
  suiteSetup(async () => {
    await activateExtension();
  });
  teardown(async () => {
    await vscode.workspace.getConfiguration('chat').update('saveBeforeSend', undefined, vscode.ConfigurationTarget.Global);
    await cleanUp();
  });

  test('screenshots: a stale replace blocked in the chat, and its diagnostic in the editor', async function () {
    if (!screenshotsEnabled()) this.skip(); // needs the Playwright driver of the code-server host
    this.timeout(120000);
    const file = fileRef('src/greeting.ts');
    fs.mkdirSync(path.dirname(file.abs), { recursive: true });
    fs.writeFileSync(file.abs, GREETING_TS);
    // VS Code saves dirty editors when a chat message is sent (chat.saveBeforeSend, on by default);
    // here the user's edit happens while the agent works, so it stays unsaved, as in real use
    await vscode.workspace.getConfiguration('chat').update('saveBeforeSend', false, vscode.ConfigurationTarget.Global);
    await newChat();
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    const read = await chatTurn([call.read(file.rel)]);
    assert.strictEqual(read.results[0].json?.status, 'ok');

    // the user changes the file in the editor and does not save
    const editor = await openInEditor(file);
    await userEdit(editor.document, '`Hello, ${g.name}${g.punctuation}`', '`Good morning, ${g.name}${g.punctuation}`');

    // the agent edits from its old copy
    const blocked = await chatTurn([call.replace(file.rel, '  return `Hello, ${g.name}${g.punctuation}`;', '  return `Hi, ${g.name}${g.punctuation}`;')]);
    assert.strictEqual(blocked.results[0].json?.status, 'blocked');
    assert.strictEqual(blocked.results[0].json?.reason, 'changed');
    assert.match(blocked.results[0].text, /edited in the editor, not yet saved/);
    assert.ok(editor.document.isDirty, "the user's edit is still unsaved");
    const diagnostics = await waitFor(() => (guardDiagnostics(file.uri).length ? guardDiagnostics(file.uri) : undefined), 'the blocked-write diagnostic');
    assert.strictEqual(diagnostics[0].range.start.line, 6, 'on the line the user changed');

    // the chat view, widened so the refusal's diff is readable
    await vscode.commands.executeCommand('workbench.action.toggleMaximizedAuxiliaryBar');
    await sleep(1000); // let the chat finish rendering the response
    assert.ok((await ui({ action: 'screenshot', name: 'chat-blocked-write' })).ok, 'screenshot chat-blocked-write taken');
    await vscode.commands.executeCommand('workbench.action.toggleMaximizedAuxiliaryBar');

    // the diagnostic: hover it in the editor
    await vscode.window.showTextDocument(editor.document, { viewColumn: vscode.ViewColumn.One });
    editor.selection = new vscode.Selection(6, 12, 6, 12);
    await vscode.commands.executeCommand('editor.action.showHover');
    await sleep(800);
    assert.ok((await ui({ action: 'screenshot', name: 'editor-diagnostic' })).ok, 'screenshot editor-diagnostic taken');

    // the status bar's quick pick of read marks
    await vscode.commands.executeCommand('editor.action.hideHover');
    void vscode.commands.executeCommand('editGuard.showReadMarks');
    await sleep(800);
    assert.ok((await ui({ action: 'screenshot', name: 'read-marks-quick-pick' })).ok, 'screenshot read-marks-quick-pick taken');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });
});
