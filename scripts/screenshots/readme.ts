// `npm run screenshots`: the pictures of the extension in the README and docs/, taken from the real host (the
// integration host: code-server, the test-only @scripted agent). Not a test: it is loaded as the
// extension host's test entry only to drive the workbench, and it fails only when a picture cannot
// be taken or its scene is not what the picture should show. The behaviour in these scenes is
// asserted by the suites (test/integration/chat.test.ts, surfaces.test.ts, contributions.test.ts).
// Writes into $SHOTS_DIR (scripts/screenshots/run.sh sets it to media/):
//   chat-blocked-write.png, editor-diagnostic.png, read-marks-quick-pick.png, agent-picker.png, tool-picker.png,
//   agent-edits-revert.png
import * as vscode from 'vscode';
import {
  activateExtension,
  activateScriptedAgent,
  AGENT_EDITS_VIEW_SELECTOR,
  call,
  chatTurn,
  cleanUp,
  fileRef,
  GREETING_TS,
  guardDiagnostics,
  newChat,
  openInEditor,
  sleep,
  userEdit,
  waitFor,
} from '../../test/integration/helpers';
import { openToolPickerAtOurGroup } from '../../test/integration/pickers';
import { ui, visibleText } from '../../test/integration/ui';
import * as fs from 'fs';
import * as path from 'path';

const log = (m: string) => console.log(`[screenshots] ${m}`);

function expect(ok: unknown, what: string): void {
  if (!ok) throw new Error(`the scene is not as the picture should show it: ${what}`);
}

async function shot(name: string, selector?: string): Promise<void> {
  const r = await ui({ action: 'screenshot', name, ...(selector ? { selector } : {}) });
  if (!r?.ok) throw new Error(`screenshot ${name}: ${JSON.stringify(r)}`);
  log(`${name}.png`);
}

/** A stale replace blocked in the chat, its diagnostic in the editor, and the status bar's quick pick. */
async function blockedWrite(): Promise<void> {
  const file = fileRef('src/greeting.ts');
  fs.mkdirSync(path.dirname(file.abs), { recursive: true });
  fs.writeFileSync(file.abs, GREETING_TS);
  // VS Code saves dirty editors when a chat message is sent (chat.saveBeforeSend, on by default);
  // here the user's edit happens while the agent works, so it stays unsaved, as in real use
  await vscode.workspace.getConfiguration('chat').update('saveBeforeSend', false, vscode.ConfigurationTarget.Global);
  try {
    await newChat();
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    const read = await chatTurn([call.read(file.rel)]);
    expect(read.results[0].json?.status === 'ok', 'the read passed');

    // the user changes the file in the editor and does not save
    const editor = await openInEditor(file);
    await userEdit(editor.document, '`Hello, ${g.name}${g.punctuation}`', '`Good morning, ${g.name}${g.punctuation}`');

    // the agent edits from its old copy
    const blocked = await chatTurn([
      call.replace(file.rel, '  return `Hello, ${g.name}${g.punctuation}`;', '  return `Hi, ${g.name}${g.punctuation}`;'),
    ]);
    expect(
      blocked.results[0].json?.status === 'blocked' && blocked.results[0].json?.reason === 'changed',
      'the stale replace was blocked as changed',
    );
    const diagnostics = await waitFor(
      () => (guardDiagnostics(file.uri).length ? guardDiagnostics(file.uri) : undefined),
      'the blocked-write diagnostic',
    );
    expect(diagnostics[0].range.start.line === 6, 'the diagnostic is on the line the user changed');

    // the chat view, widened so the refusal's diff is readable
    await vscode.commands.executeCommand('workbench.action.toggleMaximizedAuxiliaryBar');
    await sleep(1000); // let the chat finish rendering the response
    await shot('chat-blocked-write');
    await vscode.commands.executeCommand('workbench.action.toggleMaximizedAuxiliaryBar');

    // the diagnostic: hover it in the editor
    await vscode.window.showTextDocument(editor.document, { viewColumn: vscode.ViewColumn.One });
    editor.selection = new vscode.Selection(6, 12, 6, 12);
    await vscode.commands.executeCommand('editor.action.showHover');
    await sleep(800);
    await shot('editor-diagnostic');

    // the status bar's quick pick of read marks
    await vscode.commands.executeCommand('editor.action.hideHover');
    void vscode.commands.executeCommand('editGuard.showReadMarks');
    await sleep(800);
    await shot('read-marks-quick-pick');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  } finally {
    await vscode.workspace.getConfiguration('chat').update('saveBeforeSend', undefined, vscode.ConfigurationTarget.Global);
    await cleanUp();
  }
}

/**
 * The Agent Edits view after a turn was reverted: the agent changed two files, the user then added a
 * line to one of them, and the revert of the turn took the agent's changes out and kept that line.
 */
async function agentEditsRevert(): Promise<void> {
  const welcome = fileRef('src/welcome.ts');
  const notes = fileRef('docs/notes.md');
  for (const [f, text] of [
    [welcome, GREETING_TS],
    [notes, '# Notes\n\n- greet people by name\n'],
  ] as const) {
    fs.mkdirSync(path.dirname(f.abs), { recursive: true });
    fs.writeFileSync(f.abs, text);
  }
  try {
    await newChat();
    const turn = await chatTurn([
      call.read(welcome.rel),
      call.read(notes.rel),
      call.replace(welcome.rel, '  return `Hello, ${g.name}${g.punctuation}`;', '  return `Hi there, ${g.name}${g.punctuation}`;'),
      call.replace(welcome.rel, '  punctuation: string;', '  punctuation: "!" | ".";'),
      call.replace(notes.rel, '- greet people by name\n', '- greet people by name\n- say "Hi there", not "Hello"\n'),
    ]);
    expect(
      turn.results.every((r) => r.json?.status === 'ok'),
      'the agent edits landed',
    );

    // the user adds a line of their own, after the agent's edits, and saves
    const editor = await openInEditor(welcome);
    await userEdit(editor.document, 'export function greet', '/** Greets one person (reviewed by the user). */\nexport function greet');
    await editor.document.save();

    const api = vscode.extensions.getExtension<{ editRecord(): Array<{ uri: string; session: string; turn?: string }> }>(
      'editguard.agent-edit-guard',
    )!.exports;
    const edit = api.editRecord().find((e) => vscode.Uri.parse(e.uri).toString() === welcome.uri.toString());
    expect(edit?.turn, 'the turn is recorded');
    const results =
      (await vscode.commands.executeCommand<Array<{ kind: string; keptLaterChanges?: boolean }>>('editGuard.revertTurn', {
        kind: 'turn',
        session: edit!.session,
        turn: edit!.turn,
      })) ?? [];
    expect(results.length === 2 && results.every((r) => r.kind === 'reverted'), `both files reverted: ${JSON.stringify(results)}`);
    expect(
      editor.document.getText().includes('(reviewed by the user)') && editor.document.getText().includes('`Hello, '),
      "the user's line kept, the agent's change out",
    );

    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    await vscode.commands.executeCommand('editGuard.showAgentEdits');
    await vscode.commands.executeCommand('workbench.files.action.collapseExplorerFolders');
    await vscode.window.showTextDocument(editor.document, { viewColumn: vscode.ViewColumn.One });
    editor.selection = new vscode.Selection(5, 0, 5, 0);
    await waitFor(
      async () => /reverted/.test(await visibleText(AGENT_EDITS_VIEW_SELECTOR)),
      'the view to show the turn reverted',
      5000,
      200,
    );
    // room for the view's rows: the editor (focused) gives up width to the side bar
    await vscode.window.showTextDocument(editor.document, { viewColumn: vscode.ViewColumn.One });
    for (let i = 0; i < 8; i++) await vscode.commands.executeCommand('workbench.action.decreaseViewWidth');
    await vscode.commands.executeCommand('notifications.clearAll');
    await sleep(800);
    await shot('agent-edits-revert');
  } finally {
    await cleanUp();
  }
}

/** The Guarded agent in the chat's agent picker. */
async function agentPicker(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.chat.open', { mode: 'agent' });
  await sleep(500);
  const opened = await ui({ action: 'click', selector: '.interactive-input-part .chat-mode-picker-item a.action-label >> visible=true' });
  expect(opened.ok, `the agent picker opened: ${JSON.stringify(opened)}`);
  await waitFor(
    async () => /Guarded/.test(await visibleText('.monaco-menu, .action-widget, .context-view')),
    'the agent picker to list Guarded',
    5000,
    200,
  );
  await shot('agent-picker', '.part.auxiliarybar');
  await ui({ action: 'press', key: 'Escape' });
}

/** The three guarded tools in agent mode's tool picker, their group expanded (as contributions.test.ts opens it). */
async function toolPicker(): Promise<void> {
  const { text, last } = await openToolPickerAtOurGroup();
  if (text === undefined)
    throw new Error(`the three guarded tools never showed in the tool picker (3 attempts); it last showed: ${last.slice(0, 1500)}`);
  await shot('tool-picker', '.quick-input-widget');
  await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
}

export async function run(): Promise<void> {
  if (!process.env.EDITGUARD_ACK_DIR)
    throw new Error('needs the Playwright driver of the code-server host: run it with npm run screenshots');
  await activateExtension();
  await activateScriptedAgent();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  // the pickers first, in a window that has shown no chat yet (as the suite once took them)
  await agentPicker();
  await toolPicker();
  await ui({ action: 'press', key: 'Escape' });
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await blockedWrite();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await agentEditsRevert();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  log(`done: ${process.env.EDITGUARD_SHOTS_DIR}`);
}
