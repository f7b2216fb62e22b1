// The hook entries of the agents that keep them in a JSON settings file of theirs, as Claude Code does
// (src/agents/geminiCli/node/, src/agents/qwenCode/node/): the entries as each agent reads them (its event
// names, its matcher of its file tools, its unit of time), and the three placements of its setting around a
// settings file of the user's, an untrusted window, a folder that left the workspace, a file that is not
// plain JSON, and the uninstall script's part. The merge itself is every such agent's and is tested with
// Claude Code's files (claudeSettingsOnDisk.test.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { HookClients } from '../../src/hooks/command';
import type { settingsFiles } from '../../src/hooks/filesOnDisk';
import type { MatcherGroup } from '../../src/hooks/hookEntries';
import * as geminiEvents from '../../src/agents/geminiCli/node/events';
import * as geminiSettings from '../../src/agents/geminiCli/node/settings';
import * as geminiOnDisk from '../../src/agents/geminiCli/node/settingsOnDisk';
import * as qwenEvents from '../../src/agents/qwenCode/node/events';
import * as qwenSettings from '../../src/agents/qwenCode/node/settings';
import * as qwenOnDisk from '../../src/agents/qwenCode/node/settingsOnDisk';
import { MemoryLog } from './memoryDocuments';

/** One such agent, as its folder exports it. */
interface SettingsFileAgent {
  name: string;
  id: string;
  /** the tools whose events the gate needs: its file tools and its shell (rule 16) */
  fileTools: readonly string[];
  /** its shell tool */
  shellTool: string;
  entries: (clients: HookClients) => Record<string, MatcherGroup>;
  /** its events: the tool events (with a matcher) and the others */
  toolEvents: string[];
  /** its event before a tool runs */
  beforeTool: string;
  otherEvents: string[];
  matcher: string;
  /** seconds or milliseconds, as the agent counts */
  timeout: number;
  /** tool names its matcher must not match */
  otherTools: string[];
  /** its files (src/hooks/filesOnDisk.ts `settingsFiles`) */
  files: ReturnType<typeof settingsFiles>;
}

const AGENTS: SettingsFileAgent[] = [
  {
    name: 'Gemini CLI',
    id: geminiEvents.GEMINI_CLI,
    fileTools: geminiEvents.GATED_TOOLS,
    shellTool: 'run_shell_command',
    entries: geminiSettings.geminiHookEntries,
    // not PreCompress: Gemini CLI fires it before every model request
    toolEvents: ['AfterTool', 'BeforeTool'],
    beforeTool: 'BeforeTool',
    otherEvents: ['BeforeAgent'],
    matcher: geminiSettings.GEMINI_TOOL_MATCHER,
    timeout: 15000,
    otherTools: ['read_many_files', 'glob', 'list_directory', 'grep_search', 'write_file_2', 'xreplace'],
    files: geminiOnDisk.geminiSettingsFiles,
  },
  {
    name: 'Qwen Code',
    id: qwenEvents.QWEN_CODE,
    fileTools: qwenEvents.GATED_TOOLS,
    shellTool: 'run_shell_command',
    entries: qwenSettings.qwenHookEntries,
    toolEvents: ['PostToolUse', 'PostToolUseFailure', 'PreToolUse'],
    beforeTool: 'PreToolUse',
    otherEvents: ['PreCompact', 'UserPromptSubmit'],
    matcher: qwenSettings.QWEN_TOOL_MATCHER,
    timeout: 15,
    otherTools: ['glob', 'list_directory', 'grep_search', 'notebook_edit', 'read_many_files'],
    files: qwenOnDisk.qwenSettingsFiles,
  },
];

/** Does a Qwen Code-style matcher (each `|` entry compared exactly; one starting with `^` or `(` a regex) match the tool? */
const matches = (matcher: string, tool: string) =>
  /^[\^(]/.test(matcher) ? new RegExp(matcher).test(tool) : matcher.split('|').some((entry) => entry.trim() === tool);

const clients: HookClients = {
  runtime: '/opt/code/code',
  nodeClient: '/ext/dist/hook-bridge.js',
  bash: '/bin/bash',
  bashClient: '/ext/dist/hook-client.sh',
};
/** A settings file of the user's: auth, a theme, a hook of their own. */
const usersFile = (agent: SettingsFileAgent) =>
  `${JSON.stringify(
    {
      security: { auth: { selectedType: 'openai' } },
      ui: { theme: 'GitHub' },
      hooks: {
        [agent.beforeTool]: [
          { matcher: 'run_shell_command', hooks: [{ name: 'no-rm', type: 'command', command: 'npx block-rm', timeout: 5000 }] },
        ],
      },
    },
    null,
    2,
  )}\n`;
const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined);
const ours = (text: string | undefined) => (text ?? '').includes('hook-client.sh');

for (const agent of AGENTS)
  suite(`${agent.name}'s hook entries in its settings files`, () => {
    let root: string;
    let home: string;
    let folders: string[];
    let log: MemoryLog;
    setup(() => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'aeg-settings-agent-'));
      home = path.join(root, 'home');
      folders = [path.join(root, 'ws-a'), path.join(root, 'ws-b')];
      for (const d of [home, ...folders]) fs.mkdirSync(d);
      log = new MemoryLog();
    });
    teardown(() => fs.rmSync(root, { recursive: true, force: true }));
    const sync = (placement: 'off' | 'user' | 'workspace', trusted = true, leftFolders: string[] = []) =>
      agent.files.sync(placement, clients, folders, log, { trusted, home, leftFolders });

    test("the entries: a group per event the gate needs, under the names the agent uses; the tool events' matcher of exactly its file tools and its shell; a named command of the agent's, its timeout in the agent's unit", () => {
      const entries = agent.entries(clients);
      assert.deepEqual(Object.keys(entries).sort(), [...agent.toolEvents, ...agent.otherEvents].sort());
      for (const tool of agent.fileTools) assert.ok(matches(agent.matcher, tool), tool);
      assert.ok(agent.fileTools.includes(agent.shellTool) && matches(agent.matcher, agent.shellTool), 'its shell is gated (rule 16)');
      for (const tool of agent.otherTools) assert.ok(!matches(agent.matcher, tool), tool);
      for (const event of agent.otherEvents) assert.equal(entries[event].matcher, undefined, 'a lifecycle event has no tool to match');
      for (const event of agent.toolEvents) {
        const [hook] = entries[event].hooks;
        assert.equal(entries[event].matcher, agent.matcher);
        assert.equal(hook.name, 'agent-edit-guard');
        assert.equal(hook.timeout, agent.timeout);
        assert.ok(hook.command.endsWith(`'${agent.id}' '${event}' ${agent.fileTools.map((t) => `'${t}'`).join(' ')}`), hook.command);
      }
      for (const event of agent.otherEvents) assert.ok(entries[event].hooks[0].command.endsWith(`'${agent.id}' '${event}'`));
    });

    test("user: our groups join the user's settings, theirs kept where they were; off: the file is the user's again, byte for byte", () => {
      const file = agent.files.userFile(home);
      fs.mkdirSync(path.dirname(file));
      fs.writeFileSync(file, usersFile(agent));
      assert.deepEqual(sync('user'), []);
      const merged = JSON.parse(read(file)!);
      assert.deepEqual(merged.ui, { theme: 'GitHub' });
      assert.equal(merged.hooks[agent.beforeTool].length, 2, "the user's own group and ours");
      assert.equal(merged.hooks[agent.beforeTool][0].hooks[0].name, 'no-rm', "the user's group first, where it was");
      for (const f of folders) assert.equal(read(agent.files.folderFile(f)), undefined, 'nothing in the workspace');
      assert.deepEqual(sync('off'), []);
      assert.equal(read(file), usersFile(agent));
    });

    test("workspace: each folder's settings file, the user-level file left without ours; a folder that left the workspace loses ours; an untrusted window writes nothing", () => {
      assert.deepEqual(sync('workspace', false), []);
      for (const f of folders) assert.equal(read(agent.files.folderFile(f)), undefined, 'untrusted: nothing written');
      sync('workspace');
      for (const f of folders) assert.ok(ours(read(agent.files.folderFile(f))), f);
      assert.equal(read(agent.files.userFile(home)), undefined);
      const [gone, stays] = folders;
      folders = [stays];
      sync('workspace', true, [gone]);
      assert.equal(read(agent.files.folderFile(gone)), undefined, 'the file held only ours: it goes');
      assert.ok(!fs.existsSync(path.dirname(agent.files.folderFile(gone))), 'and its folder, left empty');
      assert.ok(ours(read(agent.files.folderFile(stays))));
    });

    test('a settings file that is not plain JSON (these agents allow comments) is left as it was, and named', () => {
      const file = agent.files.userFile(home);
      fs.mkdirSync(path.dirname(file));
      const withComment = '{\n  // mine\n  "ui": { "theme": "GitHub" }\n}\n';
      fs.writeFileSync(file, withComment);
      const left = sync('user');
      assert.equal(left.length, 1);
      assert.equal(left[0].file, file);
      assert.equal(read(file), withComment);
    });

    test("the uninstall script's part: our entries leave the user settings, the user's stay", () => {
      const file = agent.files.userFile(home);
      fs.mkdirSync(path.dirname(file));
      fs.writeFileSync(file, usersFile(agent));
      sync('user');
      assert.ok(ours(read(file)));
      agent.files.removeUserLevel(log, home);
      assert.equal(read(file), usersFile(agent));
    });
  });
