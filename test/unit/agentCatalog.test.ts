// "A new agent is a new folder and one line in the list of agents" (docs/design.md §Layers), proved on a
// scratch copy of src/: a made-up agent's folder and its line in src/agents/catalog.ts (with its import),
// nothing else. Built as the extension builds it (esbuild), the copy gives the agent a setting, a command
// and its global-state keys; its hook events are routed to its own reader and gated; the uninstall
// script takes its user-level entries out. The window side needs no file of the agent's: the same
// registration (src/agents/registration.ts) makes every agent's command, offer and quick-pick line.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSync } from 'esbuild';

const root = path.resolve(__dirname, '../../..');

/** The made-up agent: its hook events are `{event, chat, file}`, and its entries one JSON file in `~/.scratch`. */
const SCRATCH_AGENT = `import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AgentDescriptor } from '../../../hooks/agentDescriptor';
import { denyPreToolUse, type AgentHooks, type HookEvent, record, str } from '../../../hooks/event';

const userFile = (home = os.homedir()) => path.join(home, '.scratch', 'hooks.json');

const hooks: AgentHooks = {
  id: 'scratch',
  name: 'Scratch',
  writesDisk: true,
  ownChats: true,
  toolNames: ['edit'],
  parse(payload: unknown): HookEvent {
    const p = record(payload);
    const chat = str(p?.chat);
    const file = str(p?.file);
    if (!chat || !file) return { kind: 'ignore', why: 'not ours' };
    return p?.event === 'before-edit' ? { kind: 'before-edit', chat, tool: 'edit', files: [{ path: file, intent: 'change' }] } : { kind: 'ignore', why: 'other', chat };
  },
  verb: () => 'edit',
  deny: denyPreToolUse,
};

export const scratch: AgentDescriptor = {
  hooks,
  guarded: "Scratch's edits",
  setting: 'guardScratch',
  entries: {
    userFiles: () => [userFile()],
    folderFile: '.scratch/hooks.json',
    sync: async () => [],
    removeUserLevel: (log, home) => {
      fs.rmSync(userFile(home), { force: true });
      log.info('removed Scratch entries');
    },
  },
};
`;

/** What the test reads from the scratch build: the tables, a routed hook event, the script's path. */
const PROBE = `import { AGENTS, agentCommands, agentStateKeys, allSettings } from './src/agents/catalog';
import { ChatSessions } from './src/chat/session';
import { ExternalEdits } from './src/core/externalEdits';
import { Gate } from './src/core/gate';
import { MarkStore } from './src/core/marks';
import { HookRouter } from './src/hooks/hookRouter';
import { MemoryDocuments, MemoryLog } from './test/unit/memoryDocuments';
import { readyShellLevel } from './src/shell';

export async function probe() {
  const docs = new MemoryDocuments();
  docs.file('file:///ws/notes.txt', 'the user notes\\n');
  const log = new MemoryLog();
  const gate = new Gate(new MarkStore(), docs, () => ({ enabled: true, ownWriteKeepsMark: 'sameTurn', maxReadLines: 2000 }), log);
  const router = new HookRouter({
    shell: () => readyShellLevel(),
    edits: new ExternalEdits(gate),
    sessions: new ChatSessions((p) => p.path),
    log,
    agents: new Map(AGENTS.map((a) => [a.hooks.id, a.hooks])),
    active: () => true,
    onActivity: () => undefined,
    resolveFile: (p) => ({ uri: 'file:///ws/' + p, path: p }),
  });
  const answer = await router.handle('scratch', JSON.stringify({ event: 'before-edit', chat: 'c1', file: 'notes.txt' }));
  return { settings: Object.keys(allSettings()), commands: agentCommands(), stateKeys: agentStateKeys(), answer };
}
`;

suite('a new agent: its folder and its line in the list of agents, nothing else', function () {
  this.timeout(60_000);

  test('the scratch agent gets a setting, a command, state keys, a hook route through the gate, and its uninstall', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aeg-agent-'));
    try {
      fs.cpSync(path.join(root, 'src'), path.join(dir, 'src'), { recursive: true });
      fs.mkdirSync(path.join(dir, 'test', 'unit'), { recursive: true });
      for (const f of ['memoryDocuments.ts', 'memoryEditor.ts'])
        fs.copyFileSync(path.join(root, 'test', 'unit', f), path.join(dir, 'test', 'unit', f));
      fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
      // the agent: one folder …
      fs.mkdirSync(path.join(dir, 'src', 'agents', 'scratch', 'node'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'src', 'agents', 'scratch', 'node', 'agent.ts'), SCRATCH_AGENT);
      // … and its line in the list (with the import that names it)
      const catalogFile = path.join(dir, 'src', 'agents', 'catalog.ts');
      const catalog = fs.readFileSync(catalogFile, 'utf8');
      const listed = catalog
        .replace(/^(import \{ copilotHarness \} from .*)$/m, "$1\nimport { scratch } from './scratch/node/agent';")
        .replace(/^(export const AGENTS: readonly AgentDescriptor\[\] = \[)/m, '$1scratch, ');
      assert.notEqual(listed, catalog, 'the list of agents is where the test expects it');
      fs.writeFileSync(catalogFile, listed);

      fs.writeFileSync(path.join(dir, 'probe.ts'), PROBE);
      const common = {
        bundle: true,
        platform: 'node' as const,
        format: 'cjs' as const,
        target: 'node20',
        logLevel: 'silent' as const,
        absWorkingDir: dir,
      };
      buildSync({ ...common, entryPoints: ['probe.ts'], outfile: path.join(dir, 'out', 'probe.js') });
      buildSync({ ...common, entryPoints: ['src/uninstall.ts'], outfile: path.join(dir, 'out', 'uninstall.js') });
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { probe } = require(path.join(dir, 'out', 'probe.js')) as {
        probe(): Promise<{ settings: string[]; commands: string[]; stateKeys: string[]; answer: string }>;
      };
      const got = await probe();
      assert.ok(got.settings.includes('guardScratch'), `its setting: ${got.settings.join(', ')}`);
      assert.ok(got.commands.includes('editGuard.guardScratch'), `its command: ${got.commands.join(', ')}`);
      assert.ok(got.stateKeys.includes('editGuard.guardScratch.offer'), `its offer's state: ${got.stateKeys.join(', ')}`);
      // its hook events reach its reader and the gate: an edit of a file it never read is denied, with the file's text
      const reason = JSON.parse(got.answer).hookSpecificOutput.permissionDecisionReason as string;
      assert.match(reason, /BLOCKED: nothing was written\. You have not read notes\.txt/);
      assert.match(reason, /the user notes/);

      // the uninstall script takes its user-level entries out
      const home = path.join(dir, 'home');
      fs.mkdirSync(path.join(home, '.scratch'), { recursive: true });
      fs.writeFileSync(path.join(home, '.scratch', 'hooks.json'), '{}');
      const run = spawnSync(process.execPath, [path.join(dir, 'out', 'uninstall.js')], {
        env: { ...process.env, HOME: home, USERPROFILE: home },
        encoding: 'utf8',
      });
      assert.equal(run.status, 0, run.stderr);
      assert.ok(!fs.existsSync(path.join(home, '.scratch', 'hooks.json')), run.stdout);
      assert.match(run.stdout, /removed Scratch entries/);

      // and the window needs nothing of its own: no file outside the agent's folder names an agent by hand
      const registration =
        fs.readFileSync(path.join(dir, 'src', 'activation', 'agents.ts'), 'utf8') +
        fs.readFileSync(path.join(dir, 'src', 'extension.ts'), 'utf8');
      for (const agent of ['copilot', 'claudeCode', 'codex', 'scratch'])
        assert.doesNotMatch(registration, new RegExp(`agents/${agent}/`), `${agent} named outside the list`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
