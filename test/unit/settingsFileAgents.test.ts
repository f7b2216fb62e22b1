// Gemini CLI's hook entries and where they go (src/agents/geminiCli/node/settings.ts, settingsOnDisk.ts):
// the entries as Gemini CLI reads them (its event names, a regex matcher of its file tools, milliseconds),
// the three placements of editGuard.guardGeminiCli around a settings file of the user's, an untrusted
// window, a folder that left the workspace, and the uninstall script's part. The merge itself is every
// such agent's and is tested with Claude Code's files (claudeSettingsOnDisk.test.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { HookClients } from '../../src/hooks/command';
import { FILE_TOOLS, GEMINI_CLI } from '../../src/agents/geminiCli/node/events';
import { GEMINI_TOOL_MATCHER, geminiHookEntries, HOOK_NAME } from '../../src/agents/geminiCli/node/settings';
import {
  projectGeminiSettingsFile,
  removeUserLevelEntries,
  syncGeminiHooks,
  userGeminiSettingsFile,
} from '../../src/agents/geminiCli/node/settingsOnDisk';
import { MemoryLog } from './memoryDocuments';

const clients: HookClients = {
  runtime: '/opt/code/code',
  nodeClient: '/ext/dist/hook-bridge.js',
  bash: '/bin/bash',
  bashClient: '/ext/dist/hook-client.sh',
};
/** A settings file of the user's, as Gemini CLI writes it: auth, a theme, a hook of their own. */
const USERS = `${JSON.stringify(
  {
    security: { auth: { selectedType: 'gemini-api-key' } },
    ui: { theme: 'GitHub' },
    hooks: {
      BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ name: 'no-rm', type: 'command', command: 'npx block-rm', timeout: 5000 }] }],
    },
  },
  null,
  2,
)}\n`;
const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined);
const ours = (text: string | undefined) => (text ?? '').includes('hook-client.sh');

suite("Gemini CLI's hook entries (editGuard.guardGeminiCli)", () => {
  let root: string;
  let home: string;
  let folders: string[];
  let log: MemoryLog;
  setup(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'aeg-gemini-'));
    home = path.join(root, 'home');
    folders = [path.join(root, 'ws-a'), path.join(root, 'ws-b')];
    for (const d of [home, ...folders]) fs.mkdirSync(d);
    log = new MemoryLog();
  });
  teardown(() => fs.rmSync(root, { recursive: true, force: true }));
  const sync = (placement: 'off' | 'user' | 'workspace', trusted = true, leftFolders: string[] = []) =>
    syncGeminiHooks(placement, clients, folders, log, { trusted, home, leftFolders });

  test("the entries: a group per event Gemini CLI names (BeforeAgent, BeforeTool, AfterTool; not PreCompress, fired before every model request), the tool events' matcher a regex of exactly its file tools, a named command of Gemini CLI's with a timeout in milliseconds", () => {
    const entries = geminiHookEntries(clients);
    assert.deepEqual(Object.keys(entries).sort(), ['AfterTool', 'BeforeAgent', 'BeforeTool']);
    const matcher = new RegExp(GEMINI_TOOL_MATCHER);
    for (const tool of FILE_TOOLS) assert.ok(matcher.test(tool), tool);
    for (const tool of ['read_many_files', 'run_shell_command', 'write_file_2', 'xreplace']) assert.ok(!matcher.test(tool), tool);
    assert.equal(entries.BeforeAgent.matcher, undefined, 'a lifecycle event has no tool to match');
    const [hook] = entries.BeforeTool.hooks;
    assert.equal(hook.name, HOOK_NAME);
    assert.equal(hook.timeout, 15000);
    assert.match(hook.command, new RegExp(`'${GEMINI_CLI}' 'BeforeTool' 'read_file' 'replace' 'write_file'$`));
    assert.match(entries.BeforeAgent.hooks[0].command, new RegExp(`'${GEMINI_CLI}' 'BeforeAgent'$`));
  });

  test("user: our groups join the user's settings, theirs kept where they were; off: the file is the user's again, byte for byte", () => {
    const file = userGeminiSettingsFile(home);
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, USERS);
    assert.deepEqual(sync('user'), []);
    const merged = JSON.parse(read(file)!);
    assert.deepEqual(merged.ui, { theme: 'GitHub' });
    assert.equal(merged.hooks.BeforeTool.length, 2, "the user's own group and ours");
    assert.equal(merged.hooks.BeforeTool[0].hooks[0].name, 'no-rm', "the user's group first, where it was");
    for (const f of folders) assert.equal(read(projectGeminiSettingsFile(f)), undefined, 'nothing in the workspace');
    assert.deepEqual(sync('off'), []);
    assert.equal(read(file), USERS);
  });

  test("workspace: each folder's .gemini/settings.json, the user-level file left without ours; a folder that left the workspace loses ours; an untrusted window writes nothing", () => {
    assert.deepEqual(sync('workspace', false), []);
    for (const f of folders) assert.equal(read(projectGeminiSettingsFile(f)), undefined, 'untrusted: nothing written');
    sync('workspace');
    for (const f of folders) assert.ok(ours(read(projectGeminiSettingsFile(f))), f);
    assert.equal(read(userGeminiSettingsFile(home)), undefined);
    const [gone, stays] = folders;
    folders = [stays];
    sync('workspace', true, [gone]);
    assert.equal(read(projectGeminiSettingsFile(gone)), undefined, 'the file held only ours: it goes');
    assert.ok(!fs.existsSync(path.dirname(projectGeminiSettingsFile(gone))), 'and its .gemini folder, left empty');
    assert.ok(ours(read(projectGeminiSettingsFile(stays))));
  });

  test('a settings file that is not plain JSON (Gemini CLI allows comments) is left as it was, and named', () => {
    const file = userGeminiSettingsFile(home);
    fs.mkdirSync(path.dirname(file));
    const withComment = '{\n  // mine\n  "ui": { "theme": "GitHub" }\n}\n';
    fs.writeFileSync(file, withComment);
    const left = sync('user');
    assert.equal(left.length, 1);
    assert.equal(left[0].file, file);
    assert.equal(read(file), withComment);
  });

  test("the uninstall script's part: our entries leave the user settings, the user's stay", () => {
    const file = userGeminiSettingsFile(home);
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, USERS);
    sync('user');
    assert.ok(ours(read(file)));
    removeUserLevelEntries(log, home);
    assert.equal(read(file), USERS);
  });
});
