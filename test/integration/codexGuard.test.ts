// Our hook entries for Codex's file changes, in the real host (docs/design.md §Surfaces, Codex's hook
// entries): editGuard.guardCodex `user` merges them into Codex's user hooks under the OS home (the runner's
// HOME is the run folder, and no CODEX_HOME is set: ~/.codex) with their trust in ~/.codex/config.toml,
// `workspace` into the folder's .codex/hooks.json (trusted there too, while the project's own trust stays
// the user's to give), `off` takes them and their trust out — the user's own hooks and config kept byte for
// byte; a hooks.json that is not valid JSON is left as it was, with a warning; the choice from the status
// bar's quick pick and the one-time offer. Codex is not running here: this is the file side
// (codex.test.ts runs the real CLI on these entries).
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { activateExtension, cleanUp, EXTENSION_ID, workspaceRoot } from './helpers';
import {
  agentWithSetting,
  choiceFromReadMarks,
  chooseThroughCommand,
  offerShown,
  pick,
  quickInputShowing,
  turnOnInOffer,
} from './agentChoice';
import { malformedLeftAsItWas, ourGroups, readIfThere, turnedOff, until, writeWithFolder } from './hookFiles';
import { driverAvailable } from './ui';

const config = () => vscode.workspace.getConfiguration('editGuard', null);
const SETTING = 'guardCodex';
const AGENT = agentWithSetting(SETTING);
const codexHome = () => path.join(os.homedir(), '.codex');
const userFile = () => path.join(codexHome(), 'hooks.json');
const configFile = () => path.join(codexHome(), 'config.toml');
const folderCodex = () => path.join(workspaceRoot(), '.codex');
const projectFile = () => path.join(folderCodex(), 'hooks.json');

/** Hooks of the user's own, as they might write them (two spaces, a final newline). */
const USERS = `${JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'python3 ~/.codex/block-rm.py', timeout: 5 }] }] } }, null, 2)}\n`;
/** The user's config.toml: settings, their own hook's trust, a comment, no final line break. */
const CONFIG = `# mine
model = "gpt-5.5"

[hooks.state."${'/somewhere/hooks.json'}:pre_tool_use:0:0"]
trusted_hash = "sha256:1111111111111111111111111111111111111111111111111111111111111111"`;
const MARK = '# Agent Edit Guard';

const holdsOurs = (file: string) => Object.keys(ourGroups(file) ?? {}).length === 4;
/** How many of our trust lines config.toml holds for this hooks file. */
const trustLines = (hooksFile: string) =>
  (readIfThere(configFile()) ?? '')
    .split('\n')
    .filter((l, i, all) => l.includes(MARK) && (all[i - 1] ?? '').includes(JSON.stringify(hooksFile).slice(0, -1))).length;

const reset = () => turnedOff(SETTING, () => !holdsOurs(userFile()) && !holdsOurs(projectFile()));

suite("surfaces: our hook entries in Codex's hooks and their trust (editGuard.guardCodex)", () => {
  suiteSetup(async () => {
    await activateExtension();
    await reset();
    assert.ok(!fs.existsSync(codexHome()) && !fs.existsSync(folderCodex()), 'no .codex folders before this suite');
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('notifications.clearAll');
    await reset();
    fs.rmSync(codexHome(), { recursive: true, force: true });
    fs.rmSync(folderCodex(), { recursive: true, force: true });
    await cleanUp();
  });

  test("user: our entries join the user's own in ~/.codex/hooks.json and their trust the user's config.toml; workspace: in the folder's .codex/hooks.json, trusted, the project's trust left to the user; off: the user's files byte for byte", async () => {
    writeWithFolder(userFile(), USERS);
    writeWithFolder(configFile(), CONFIG);
    await config().update(SETTING, 'user', vscode.ConfigurationTarget.Global);
    await until('our entries in the user hooks, trusted', () => holdsOurs(userFile()) && trustLines(userFile()) === 4);
    const merged = JSON.parse(readIfThere(userFile())!);
    assert.deepEqual(merged.hooks.PreToolUse[0], JSON.parse(USERS).hooks.PreToolUse[0], "the user's own PreToolUse group first, as it was");
    const mine = ourGroups(userFile())!;
    assert.deepEqual(
      [mine.PreToolUse[0].matcher, mine.PostToolUse[0].matcher, mine.UserPromptSubmit[0].matcher],
      ['Bash|apply_patch', 'Bash|apply_patch', undefined],
    );
    const dist = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist');
    assert.ok(mine.PreToolUse[0].hooks[0].command.includes(dist), 'its commands run the clients shipped with this extension');
    assert.match(mine.PreToolUse[0].hooks[0].command, /^\/bin\/sh -c '/, 'run by sh, whatever the login shell Codex starts hooks in');
    assert.ok(readIfThere(configFile())!.startsWith(CONFIG), "the user's config.toml stays, in place");
    assert.ok(!fs.existsSync(folderCodex()), 'nothing in the workspace');

    await config().update(SETTING, 'workspace', vscode.ConfigurationTarget.Workspace);
    await until(
      "our entries in the folder's hooks, trusted",
      () => holdsOurs(projectFile()) && trustLines(fs.realpathSync(projectFile())) === 4,
    );
    await until('the user hooks as they were', () => readIfThere(userFile()) === USERS);
    assert.strictEqual(trustLines(userFile()), 0, 'the user-level trust went with the entries');
    assert.ok(!readIfThere(configFile())!.includes('[projects.'), "the project's own trust is never written for the user");

    await config().update(SETTING, 'off', vscode.ConfigurationTarget.Workspace);
    await until('the config as it was', () => readIfThere(configFile()) === CONFIG);
    await until('the .codex folder we made to be gone', () => !fs.existsSync(folderCodex()));
    assert.strictEqual(readIfThere(userFile()), USERS);
  });

  test('a hooks.json that is not valid JSON is left as it was, and a warning names it in the log and on screen', async () => {
    await malformedLeftAsItWas({
      setting: SETTING,
      file: userFile(),
      malformed: '{\n  "hooks": {\n    // a comment Codex would not accept either\n  }\n}\n',
      notice: "so Codex's file changes are not guarded through it",
      meanwhile: () => assert.ok(!fs.existsSync(configFile()), 'no trust written for entries that are not there'),
    });
  });

  test("the status bar's quick pick leads to the choice; in this workspace only, it says Codex does not trust the project; Turn off: the .codex folder we made goes with our entries", async function () {
    if (!driverAvailable()) this.skip();
    const choice = await choiceFromReadMarks(AGENT);
    assert.match(choice, /our entries at user level, in .*\.codex\/hooks\.json and .*\.codex\/config\.toml/s, choice);
    assert.match(choice, /Codex runs them only in a project you trust in Codex/, choice);
    assert.match(choice, /Turn off.*removes our hook entries, keeps yours · current/s, choice);
    await pick('workspace only');
    await until("our entries in the folder's hooks", () => holdsOurs(projectFile()));
    assert.strictEqual(config().inspect(SETTING)?.workspaceValue, 'workspace');
    assert.ok(!fs.existsSync(userFile()));

    void vscode.commands.executeCommand('editGuard.showReadMarks');
    const untrusted = await quickInputShowing(
      'Codex does not run the hook entries there',
      'the quick pick saying Codex skips the hooks of a project it does not trust',
    );
    assert.match(untrusted, /Codex's file changes are not guarded in .*: Codex does not run the hook entries there/, untrusted);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');

    await chooseThroughCommand(AGENT, 'Turn off');
    await until('the .codex folder we made to be gone', () => !fs.existsSync(folderCodex()));
    assert.strictEqual(config().inspect(SETTING)?.globalValue, 'off');
    assert.strictEqual(config().inspect(SETTING)?.workspaceValue, undefined, 'the workspace value that would hide it is cleared');
  });

  test('the one-time offer, where Codex has been used (~/.codex): nothing is written before the click; Turn on chooses the user level', async function () {
    if (!driverAvailable()) this.skip();
    fs.mkdirSync(codexHome());
    const text = await offerShown(AGENT);
    assert.match(text, /entries to .*\.codex\/hooks\.json and .*\.codex\/config\.toml, next to your own/, text);
    assert.ok(!fs.existsSync(userFile()), 'nothing is written before the click');
    await turnOnInOffer(AGENT);
    await until('our entries in the user hooks, trusted', () => holdsOurs(userFile()) && trustLines(userFile()) === 4);
    assert.strictEqual(config().inspect(SETTING)?.globalValue, 'user');
    await config().update(SETTING, undefined, vscode.ConfigurationTarget.Global);
    await until('our files to go, the folder that was there to stay', () => !fs.existsSync(userFile()) && !fs.existsSync(configFile()));
    assert.ok(fs.existsSync(codexHome()), '~/.codex was there before us: it stays');
  });
});
