// Our hook entries for Claude Code's file tools, in the real host (docs/design.md §Surfaces, Claude
// Code's hook entries): editGuard.guardClaudeCode `user` merges them into Claude Code's user settings under the OS
// home (the runner's HOME is the run folder), `workspace` into the folder's .claude/settings.local.json,
// `off` takes them out — the user's own settings in those files kept byte for byte; a file that is not
// valid JSON is left as it was, with a warning; the choice from the status bar's quick pick and the
// one-time offer. Claude Code is not running here: this is the file side.
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CLAUDE_HOOK_EVENTS } from '../../src/agents/claudeCode/node/settings';
import { activateExtension, cleanUp, EXTENSION_ID, workspaceRoot } from './helpers';
import { agentWithSetting, choiceFromReadMarks, chooseThroughCommand, offerShown, pick, turnOnInOffer } from './agentChoice';
import { malformedLeftAsItWas, ourGroups, readIfThere, turnedOff, until, writeWithFolder } from './hookFiles';
import { driverAvailable } from './ui';

const config = () => vscode.workspace.getConfiguration('editGuard', null);
const SETTING = 'guardClaudeCode';
const AGENT = agentWithSetting(SETTING);
const claudeHome = () => path.join(os.homedir(), '.claude');
const userFile = () => path.join(claudeHome(), 'settings.json');
const folderClaude = () => path.join(workspaceRoot(), '.claude');
const localFile = () => path.join(folderClaude(), 'settings.local.json');

/** Settings of the user's own, as Claude Code writes them (two spaces, a final newline). */
const USERS = `${JSON.stringify(
  {
    permissions: { allow: ['Bash(npm run test:*)'], deny: ['Read(./.env)'] },
    model: 'opus',
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'npx block-rm', timeout: 5 }] }] },
  },
  null,
  2,
)}\n`;
const LOCAL = '{\n  "permissions": {\n    "allow": [\n      "Bash(ls)"\n    ]\n  }\n}\n';

/** every event of ours (src/agents/claudeCode/node/settings.ts) has its group */
const holdsOurs = (file: string) => Object.keys(ourGroups(file) ?? {}).length === CLAUDE_HOOK_EVENTS.length;

const reset = () => turnedOff(SETTING, () => !holdsOurs(userFile()) && !holdsOurs(localFile()));

suite("surfaces: our hook entries in Claude Code's settings (editGuard.guardClaudeCode)", () => {
  suiteSetup(async () => {
    await activateExtension();
    await reset();
    // a fresh run folder: nothing of Claude Code's yet
    assert.ok(!fs.existsSync(claudeHome()) && !fs.existsSync(folderClaude()), 'no .claude folders before this suite');
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('notifications.clearAll');
    await reset();
    fs.rmSync(claudeHome(), { recursive: true, force: true });
    fs.rmSync(folderClaude(), { recursive: true, force: true });
    await cleanUp();
  });

  test("user: our entries join the user's own in ~/.claude/settings.json, nothing in the workspace; workspace: in the folder's settings.local.json and out of the user's; off: only the user's, byte for byte", async () => {
    writeWithFolder(userFile(), USERS);
    await config().update(SETTING, 'user', vscode.ConfigurationTarget.Global);
    await until('our entries in the user settings', () => holdsOurs(userFile()));
    const merged = JSON.parse(readIfThere(userFile())!);
    assert.deepEqual(Object.keys(merged), ['permissions', 'model', 'hooks'], 'key order kept');
    assert.deepEqual([merged.permissions, merged.model], [JSON.parse(USERS).permissions, 'opus']);
    assert.deepEqual(merged.hooks.PreToolUse[0], JSON.parse(USERS).hooks.PreToolUse[0], "the user's own PreToolUse group first, as it was");
    const mine = ourGroups(userFile())!;
    assert.deepEqual(Object.keys(mine), ['PreToolUse', 'UserPromptSubmit', 'PostToolUse', 'PreCompact', 'PostToolUseFailure']);
    assert.deepEqual(
      [mine.PreToolUse[0].matcher, mine.PostToolUse[0].matcher, mine.PostToolUseFailure[0].matcher, mine.UserPromptSubmit[0].matcher],
      [
        'Read|Edit|Write|MultiEdit|NotebookEdit|Bash',
        'Read|Edit|Write|MultiEdit|NotebookEdit|Bash',
        'Read|Edit|Write|MultiEdit|NotebookEdit|Bash',
        undefined,
      ],
    );
    const dist = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist');
    assert.ok(mine.PreToolUse[0].hooks[0].command.includes(dist), 'its commands run the clients shipped with this extension');
    assert.match(
      mine.PreToolUse[0].hooks[0].command,
      /^\[ -f '[^']+' \] && \{ \[ -n "\$AGENT_EDIT_GUARD_SOCKET" \] \|\| .*windows\/"\*\.window; .*\|\| exec cat >\/dev\/null; /,
      "where no window's extension may be listening (no address, no window's entry), the command exits at once",
    );
    assert.ok(!fs.existsSync(folderClaude()), 'nothing in the workspace');

    writeWithFolder(localFile(), LOCAL);
    await config().update(SETTING, 'workspace', vscode.ConfigurationTarget.Workspace);
    await until("our entries in the folder's local settings", () => holdsOurs(localFile()));
    await until('the user settings as they were', () => readIfThere(userFile()) === USERS);
    assert.deepEqual(JSON.parse(readIfThere(localFile())!).permissions, JSON.parse(LOCAL).permissions);

    await config().update(SETTING, 'off', vscode.ConfigurationTarget.Workspace);
    await until("the folder's local settings as they were", () => readIfThere(localFile()) === LOCAL);
    assert.strictEqual(readIfThere(userFile()), USERS);
  });

  test('a settings file that is not valid JSON is left as it was, and a warning names it in the log and on screen', async () => {
    await malformedLeftAsItWas({
      setting: SETTING,
      file: userFile(),
      malformed: '{\n  "model": "opus",\n  // a comment Claude Code would not accept either\n}\n',
      notice: "so Claude Code's file tools are not guarded through it",
      // the other places still follow the setting: none of ours in the workspace
      meanwhile: () => assert.ok(!fs.existsSync(folderClaude())),
    });
  });

  test("the status bar's quick pick leads to the choice; Turn on in this workspace only, then Turn off: the .claude folder we made goes with our entries", async function () {
    if (!driverAvailable()) this.skip();
    const choice = await choiceFromReadMarks(AGENT);
    assert.match(choice, /our entries at user level, in .*\.claude\/settings\.json/s, choice);
    assert.match(choice, /Turn off.*removes our hook entries, keeps yours · current/s, choice);
    await pick('workspace only');
    await until("our entries in the folder's local settings", () => holdsOurs(localFile()));
    assert.strictEqual(config().inspect(SETTING)?.workspaceValue, 'workspace');
    assert.ok(!fs.existsSync(userFile()));

    await chooseThroughCommand(AGENT, 'Turn off');
    await until('the .claude folder we made to be gone', () => !fs.existsSync(folderClaude()));
    assert.strictEqual(config().inspect(SETTING)?.globalValue, 'off', 'off is the user’s choice, in the user settings');
    assert.strictEqual(config().inspect(SETTING)?.workspaceValue, undefined, 'the workspace value that would hide it is cleared');
  });

  test('the one-time offer, where Claude Code has been used (~/.claude): nothing is written before the click; Turn on chooses the user level', async function () {
    if (!driverAvailable()) this.skip();
    fs.mkdirSync(claudeHome());
    const text = await offerShown(AGENT);
    assert.match(text, /entries to .*\.claude\/settings\.json, next to your own; nothing goes into your workspace/, text);
    assert.ok(!fs.existsSync(userFile()), 'nothing is written before the click');
    await turnOnInOffer(AGENT);
    await until('our entries in the user settings', () => holdsOurs(userFile()));
    assert.strictEqual(config().inspect(SETTING)?.globalValue, 'user', 'the click chose the user level, in the user settings');
    assert.ok(!fs.existsSync(folderClaude()), 'nothing in the workspace');
    await config().update(SETTING, undefined, vscode.ConfigurationTarget.Global);
    await until('our file to go, the folder that was there to stay', () => !fs.existsSync(userFile()));
    assert.ok(fs.existsSync(claudeHome()), '~/.claude was there before us: it stays');
  });
});
