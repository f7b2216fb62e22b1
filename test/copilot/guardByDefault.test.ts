// Guarding Copilot's own edit tools the way a user turns it on (issue: guard by default): the
// extension's offer on a fresh profile, one click on "Turn on", and then Copilot's plain Agent mode
// with its own replace_string_in_file — gated through one user-level hooks file, with nothing written
// into the workspace; "Turn off" and the uninstall script leave no file behind. The click, the
// hooks, the tools and the edits are the real workbench's, Copilot's and VS Code's; only the model is
// scripted.
import * as vscode from 'vscode';
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  agentTurn,
  driverAvailable,
  EXTENSION_ID,
  fakeModel,
  makeFileAt,
  newChat,
  revertAndCloseAll,
  startCopilotSuite,
  ui,
  waitFor,
  workspaceRoot,
} from './agent';
import { logMark } from './logs';
import { BLOCKED, builtinStaleReplaceTurn, GUARD_COPILOT_SETTING, waitUntilHooksAreLive } from './turns';

/** Where VS Code reads the user's own hook files (chat.hookFilesLocations' `~/.copilot/hooks`); the runner's HOME is the run folder. */
const userHooksFile = () => path.join(os.homedir(), '.copilot', 'hooks', 'agent-edit-guard.json');
const workspaceHooksFolder = () => path.join(workspaceRoot(), '.github', 'hooks');
const config = () => vscode.workspace.getConfiguration('editGuard', null);
/** the one-time offer shown again, as on a fresh profile (the test command forgets any earlier answer first) */
const OFFER = 'editGuard.test.offerAgain';
const CHOOSE = 'editGuard.guardCopilotTools';

suite("Guarding Copilot's own edit tools: one click, at user level", function () {
  suiteSetup(async function () {
    if (!driverAvailable()) this.skip();
    await startCopilotSuite();
    for (const target of [vscode.ConfigurationTarget.Global, vscode.ConfigurationTarget.Workspace])
      await config().update(GUARD_COPILOT_SETTING, undefined, target);
    assert.ok(!fs.existsSync(userHooksFile()), 'a fresh profile: no user-level hooks file yet');
  });

  teardown(async () => {
    await revertAndCloseAll();
  });

  suiteTeardown(async () => {
    await config().update(GUARD_COPILOT_SETTING, undefined, vscode.ConfigurationTarget.Global);
    await waitFor(() => !fs.existsSync(userHooksFile()), 'the user-level hooks file to be removed', 10000);
  });

  test("the offer's Turn on writes the user-level file and nothing in the workspace; a stale replace_string_in_file in plain Agent mode is denied with the user's change", async function () {
    // the offer as a fresh profile shows it (the test command forgets any earlier answer first)
    void vscode.commands.executeCommand(OFFER, 'copilot');
    // a toast, or — once toasts hid themselves (the window shows few at a time) — the notification centre's item
    const offer = `.notification-list-item:has-text("guard Copilot's own edit tools") >> visible=true`;
    const shown = async () => (await ui({ action: 'count', selector: offer })).count > 0;
    await waitFor(shown, 'the offer as a toast', 5000).catch(async () => {
      await vscode.commands.executeCommand('notifications.showList');
      await waitFor(shown, 'the offer in the notification centre', 10000);
    });
    const offerText = (await ui({ action: 'text', selector: offer })).text as string;
    assert.match(offerText, /\.copilot\/hooks\/agent-edit-guard\.json, next to your own; nothing goes into your workspace/, offerText);
    assert.ok(!fs.existsSync(userHooksFile()), 'nothing is written before the click');
    const click = await ui({ action: 'click', within: offer, role: 'button', name: 'Turn on', exact: true });
    assert.ok(click.ok, JSON.stringify(click));

    await waitFor(() => fs.existsSync(userHooksFile()), 'the user-level hooks file', 10000);
    assert.strictEqual(
      config().inspect(GUARD_COPILOT_SETTING)?.globalValue,
      'user',
      'the click chose the user level, in the user settings',
    );
    const text = fs.readFileSync(userHooksFile(), 'utf8');
    const dist = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist');
    assert.ok(text.includes(dist), 'its commands run the clients shipped with this extension');

    await waitUntilHooksAreLive();
    await newChat();
    const { denied } = await builtinStaleReplaceTurn();
    assert.ok(denied.includes(BLOCKED), denied);
    assert.match(denied, /changed since you last read it \(edited in the editor, not yet saved\)/);
    assert.match(denied, /^\+\s*return `Good morning, /m, "the model sees the user's change");
    assert.ok(!fs.existsSync(workspaceHooksFolder()), 'no hooks file appeared in the workspace');
  });

  test('a window where the extension does not listen, and no window of the user on its folder: the user-level file lets every call through at once, with no error in the chat', async function () {
    await config().update(GUARD_COPILOT_SETTING, 'user', vscode.ConfigurationTarget.Global);
    await waitFor(() => fs.existsSync(userHooksFile()), 'the user-level hooks file', 10000);
    await waitUntilHooksAreLive();
    // as a window whose extension is disabled, with no other window of the user's on the folder: Copilot
    // spawns the hooks with this host's environment, now without the address, and no window's entry is there
    const names = ['AGENT_EDIT_GUARD_SOCKET', 'AGENT_EDIT_GUARD_SECRET', 'AGENT_EDIT_GUARD_MISSED'];
    const saved = names.map((n) => process.env[n]);
    const records = path.join(os.homedir(), '.cache', 'agent-edit-guard', 'windows');
    const f = makeFileAt('builtin/no-extension.txt', 'never read\n');
    const mark = logMark();
    try {
      for (const n of names) delete process.env[n];
      fs.renameSync(records, `${records}.aside`);
      await newChat();
      const turn = await agentTurn(
        'no-extension',
        [{ tool: 'replace_string_in_file', input: { filePath: f.abs, oldString: 'never read', newString: 'edited' } }, { text: 'done' }],
        'Edit.',
        { model: fakeModel().MODELS.sonnet },
      );
      const result = turn.requests.at(-1)!.toolResults[0].text;
      assert.doesNotMatch(result, /denied|error|hook/i, result);
    } finally {
      names.forEach((n, i) => (process.env[n] = saved[i]));
      fs.rmSync(records, { recursive: true, force: true });
      fs.renameSync(`${records}.aside`, records);
    }
    assert.strictEqual((await vscode.workspace.openTextDocument(f.uri)).getText(), 'edited\n', 'the unchecked edit went through');
    const hooks = mark.since().hooks;
    const completed = hooks.split('\n').filter((l) => /Completed/.test(l));
    assert.ok(completed.length >= 3, `the hooks ran (UserPromptSubmit, PreToolUse, PostToolUse, …):\n${hooks}`);
    assert.ok(
      completed.every((l) => /Completed \(Success\).*no output/.test(l)),
      `each succeeded and printed nothing:\n${completed.join('\n')}`,
    );
    assert.doesNotMatch(mark.since().guard, /let through unchecked/, 'nothing to note: there was no extension to ask');
  });

  test('Turn off (the command, as a user picks it) removes the file; the uninstall script removes it too', async function () {
    await config().update(GUARD_COPILOT_SETTING, 'user', vscode.ConfigurationTarget.Global);
    await waitFor(() => fs.existsSync(userHooksFile()), 'the user-level hooks file', 10000);

    void vscode.commands.executeCommand(CHOOSE);
    await waitFor(
      async () => (await ui({ action: 'count', selector: '.quick-input-widget:has-text("Turn off") >> visible=true' })).count > 0,
      'the choice to show',
      10000,
    );
    await ui({ action: 'type', text: 'Turn off' });
    await ui({ action: 'press', key: 'Enter' });
    await waitFor(() => !fs.existsSync(userHooksFile()), 'Turn off to remove the user-level hooks file', 10000);
    assert.strictEqual(config().inspect(GUARD_COPILOT_SETTING)?.globalValue, 'off');
    assert.ok(!fs.existsSync(path.dirname(userHooksFile())), 'the folder it made is gone too');
    assert.ok(fs.existsSync(path.dirname(path.dirname(userHooksFile()))), "~/.copilot, Copilot's own folder, stays");

    // uninstall: VS Code runs `vscode:uninstall` (node ./dist/uninstall.js) once, at its next start, without the API
    await config().update(GUARD_COPILOT_SETTING, 'user', vscode.ConfigurationTarget.Global);
    await waitFor(() => fs.existsSync(userHooksFile()), 'the user-level hooks file', 10000);
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const script = /^node \.\/(\S+)$/.exec(ext.packageJSON.scripts['vscode:uninstall'])?.[1];
    assert.ok(script, ext.packageJSON.scripts['vscode:uninstall']);
    const run = spawnSync(process.execPath, [path.join(ext.extensionPath, script), '--type=extension-post-uninstall'], {
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      encoding: 'utf8',
      timeout: 5000,
    });
    assert.strictEqual(run.status, 0, run.stderr);
    assert.ok(!fs.existsSync(userHooksFile()), `the uninstall script removed it: ${run.stdout}`);
  });
});
