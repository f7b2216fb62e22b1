// Where the hooks file that gates Copilot's own edit tools goes, in the real host (docs/design.md
// §Surfaces, hooks bridge): editGuard.guardCopilotTools `user` (one file under the OS home, none in
// the workspace), `workspace` (one per folder), `off` (none); the boolean it replaced moved over; the
// choice from the status bar's quick pick. Copilot is not running here: this is the file side; the
// Copilot suite (test/copilot/guardByDefault.test.ts) proves the hooks run through it.
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { activateExtension, cleanUp, waitFor, workspaceRoot } from './helpers';
import { agentWithSetting, choiceFromReadMarks, chooseThroughCommand, pick } from './agentChoice';
import { guardLogFile } from './reliabilityHelpers';

const config = () => vscode.workspace.getConfiguration('editGuard', null);
const guardLog = () => {
  const file = guardLogFile();
  return file ? fs.readFileSync(file, 'utf8') : '';
};
const SETTING = 'guardCopilotTools';
const LEGACY = 'guardBuiltinTools';
const AGENT = agentWithSetting(SETTING);
const userFile = () => path.join(os.homedir(), '.copilot', 'hooks', 'agent-edit-guard.json');
const folderFile = () => path.join(workspaceRoot(), '.github', 'hooks', 'agent-edit-guard.json');
const exists = (file: () => string, yes: boolean, what: string) =>
  waitFor(() => fs.existsSync(file()) === yes || undefined, `${what} to be ${yes ? 'written' : 'removed'}`, 10000, 50);

async function reset(): Promise<void> {
  for (const target of [vscode.ConfigurationTarget.Global, vscode.ConfigurationTarget.Workspace]) {
    await config().update(SETTING, undefined, target);
    await config().update(LEGACY, undefined, target);
  }
  await exists(userFile, false, 'the user-level file');
  await exists(folderFile, false, "the folder's file");
}

suite("surfaces: where the hooks file for Copilot's own edit tools goes", () => {
  suiteSetup(async () => {
    await activateExtension();
    await reset();
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await reset();
    await cleanUp();
  });

  test('user: one file under the home folder and none in the workspace; workspace: the reverse; off: neither', async () => {
    await config().update(SETTING, 'user', vscode.ConfigurationTarget.Global);
    await exists(userFile, true, 'the user-level file');
    assert.ok(!fs.existsSync(path.join(workspaceRoot(), '.github')), 'nothing in the workspace');
    assert.ok(process.env.AGENT_EDIT_GUARD_SOCKET, 'the bridge listens');

    await config().update(SETTING, 'workspace', vscode.ConfigurationTarget.Workspace);
    await exists(folderFile, true, "the folder's file");
    await exists(userFile, false, 'the user-level file');

    await config().update(SETTING, 'off', vscode.ConfigurationTarget.Workspace);
    await exists(folderFile, false, "the folder's file");
    assert.ok(!fs.existsSync(path.join(workspaceRoot(), '.github')), 'the folders it made are gone');
    await waitFor(() => process.env.AGENT_EDIT_GUARD_SOCKET === undefined || undefined, 'the bridge to stop', 5000, 50);
  });

  test('a hooks file that is not ours is never replaced nor removed', async () => {
    const theirs = '{"hooks":{"PreToolUse":[{"type":"command","command":"./lint.sh"}]}}\n';
    fs.mkdirSync(path.dirname(userFile()), { recursive: true });
    fs.writeFileSync(userFile(), theirs);
    try {
      await config().update(SETTING, 'user', vscode.ConfigurationTarget.Global);
      await waitFor(
        () => guardLog().includes(`left ${userFile()} as it was: it is not ours`),
        'the bridge to leave the file alone',
        10000,
        50,
      );
      assert.strictEqual(fs.readFileSync(userFile(), 'utf8'), theirs);
      await config().update(SETTING, undefined, vscode.ConfigurationTarget.Global);
      // the bridge stops, and in the same step removes the file if it were ours
      await waitFor(() => process.env.AGENT_EDIT_GUARD_SOCKET === undefined || undefined, 'the bridge to stop', 10000, 50);
      assert.strictEqual(fs.readFileSync(userFile(), 'utf8'), theirs);
    } finally {
      fs.rmSync(path.dirname(path.dirname(userFile())), { recursive: true, force: true });
    }
  });

  test('the deprecated boolean moves over where it was set: true → workspace, and the old key goes', async () => {
    await config().update(LEGACY, true, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => config().inspect(SETTING)?.workspaceValue === 'workspace' || undefined, 'the value to move', 5000, 50);
    await waitFor(() => config().inspect(LEGACY)?.workspaceValue === undefined || undefined, 'the old key to go', 5000, 50);
    await exists(folderFile, true, "the folder's file");
    assert.ok(!fs.existsSync(userFile()), 'it stays where the old setting put it');
  });

  test("the status bar's quick pick leads to the choice; Turn on in this workspace only, then Turn off", async () => {
    const choice = await choiceFromReadMarks(AGENT);
    assert.match(choice, /our entries at user level, in .*\.copilot\/hooks\/agent-edit-guard\.json/s, choice);
    assert.match(choice, /Turn off.*removes our hook entries, keeps yours · current/s, choice);
    await pick('workspace only');
    await exists(folderFile, true, "the folder's file");
    assert.strictEqual(config().inspect(SETTING)?.workspaceValue, 'workspace');
    assert.ok(!fs.existsSync(userFile()));

    await chooseThroughCommand(AGENT, 'Turn off');
    await exists(folderFile, false, "the folder's file");
    assert.strictEqual(config().inspect(SETTING)?.globalValue, 'off', 'off is the user’s choice, in the user settings');
    assert.strictEqual(config().inspect(SETTING)?.workspaceValue, undefined, 'the workspace value that would hide it is cleared');
  });
});
