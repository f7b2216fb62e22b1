// pi's side of the gate in plain Node (src/agents/pi/node/): the file of ours pi loads, where it goes and how it
// leaves (docs/design.md §Surfaces), and our extension in an agent's process answering pi's events through the
// bridge's real server. The real pi running it against a window is test/integration/settingsFileAgents.test.ts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { extensionFileText, isOurExtensionFile, piAgentFolder, userExtensionFile } from '../../src/agents/pi/node/extensionFile';
import { piExtensionFiles } from '../../src/agents/pi/node/extensionOnDisk';
import type { PiContext, PiExtensionApi } from '../../src/agents/pi/node/plugin';
import type { HookClients } from '../../src/hooks/command';
import type { CreatedFolders } from '../../src/hooks/filesOnDisk';
import { ENV } from '../../src/hooks/protocol';
import { BridgeServer } from '../../src/hooks/server';
import { MemoryLog } from './memoryDocuments';
import { tempFolder } from './tempFolder';

const DIST = path.resolve('dist');
const clients: HookClients = {
  runtime: process.execPath,
  nodeClient: path.join(DIST, 'hook-bridge.js'),
  bash: undefined,
  bashClient: path.join(DIST, 'hook-client.sh'),
};

suite("pi's extension file", () => {
  test("it requires this install's plugin (dist/plugins/pi.js) and is told from a file of the user's by its first line", () => {
    const text = extensionFileText(clients);
    assert.ok(text.includes(`require(${JSON.stringify(path.join(DIST, 'plugins', 'pi.js'))})`), text);
    assert.ok(isOurExtensionFile(text));
    assert.ok(!isOurExtensionFile('export default function (pi) {}\n'));
    assert.ok(!isOurExtensionFile(`// mine\n${text}`), 'our line anywhere but first is not ours');
  });

  test("pi's folder is $PI_CODING_AGENT_DIR (with ~ expanded) or ~/.pi/agent, as pi finds it", () => {
    assert.equal(piAgentFolder('/h', {}), '/h/.pi/agent');
    assert.equal(piAgentFolder('/h', { PI_CODING_AGENT_DIR: '~/pi-config' }), '/h/pi-config');
    assert.equal(piAgentFolder('/h', { PI_CODING_AGENT_DIR: '/etc/pi' }), '/etc/pi');
    assert.equal(userExtensionFile('/h'), '/h/.pi/agent/extensions/agent-edit-guard.js');
  });
});

suite("pi's extension file on disk, by placement", () => {
  let root = '';
  let home = '';
  let ws = '';
  let created: Set<string>;
  const log = new MemoryLog();
  const createdFolders = (): CreatedFolders => created;
  const sync = (placement: 'off' | 'user' | 'workspace', trusted = true) =>
    piExtensionFiles.sync(placement, clients, [ws], log, { trusted, created: createdFolders(), home });
  const userFile = () => userExtensionFile(home);
  const folderFile = () => path.join(ws, '.pi', 'extensions', 'agent-edit-guard.js');

  setup(() => {
    root = tempFolder('aeg-pi-');
    home = path.join(root, 'home');
    ws = path.join(root, 'ws');
    fs.mkdirSync(path.join(home, '.pi', 'agent'), { recursive: true });
    fs.mkdirSync(ws);
    created = new Set();
  });
  teardown(() => fs.rmSync(root, { recursive: true, force: true }));

  test("user: our file in pi's extensions folder; off: it goes, with the folder we made; pi's own folder stays", () => {
    assert.deepEqual(sync('user'), []);
    assert.ok(isOurExtensionFile(fs.readFileSync(userFile(), 'utf8')));
    assert.ok(!fs.existsSync(folderFile()), 'nothing in the workspace');
    assert.deepEqual(sync('off'), []);
    assert.ok(!fs.existsSync(path.dirname(userFile())), 'extensions/ was made for our file alone');
    assert.ok(fs.existsSync(path.join(home, '.pi', 'agent')), "pi's folder was there before us");
  });

  test("workspace: each folder's .pi/extensions; off takes out the file and both folders we made; an untrusted window writes nothing", () => {
    assert.deepEqual(sync('workspace', false), []);
    assert.ok(!fs.existsSync(path.join(ws, '.pi')));
    assert.deepEqual(sync('workspace'), []);
    assert.ok(isOurExtensionFile(fs.readFileSync(folderFile(), 'utf8')));
    assert.ok(!fs.existsSync(userFile()));
    assert.deepEqual(sync('off'), []);
    assert.deepEqual(fs.readdirSync(ws), [], '.pi/ and .pi/extensions/ were ours: both gone');
  });

  test('a file of that name that is not ours is never written over nor removed, and is named', () => {
    fs.mkdirSync(path.dirname(userFile()), { recursive: true });
    fs.writeFileSync(userFile(), 'export default function (pi) {}\n');
    const left = sync('user');
    assert.equal(left.length, 1);
    assert.equal(left[0].file, userFile());
    assert.match(left[0].reason, /not ours/);
    assert.deepEqual(sync('off'), []);
    assert.equal(fs.readFileSync(userFile(), 'utf8'), 'export default function (pi) {}\n');
  });

  test("the uninstall script's part: our user-level file goes; a user's own extension beside it stays", () => {
    sync('user');
    fs.writeFileSync(path.join(path.dirname(userFile()), 'theirs.ts'), 'export default () => {};\n');
    piExtensionFiles.removeUserLevel(log, home);
    assert.deepEqual(fs.readdirSync(path.dirname(userFile())), ['theirs.ts']);
  });
});

suite("our extension in pi's process, answering through the bridge", function () {
  this.timeout(20000);
  /** A pi that records the handlers an extension registers, and runs one as pi would. */
  function loadedPi(env: Record<string, string | undefined>) {
    const handlers = new Map<string, (event: Record<string, unknown>, ctx: PiContext) => Promise<unknown>>();
    const api: PiExtensionApi = { on: (event, handler) => handlers.set(event, handler) };
    // as pi loads it: the file of ours requires the bundled plugin; here attached with the test's environment
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const plugin = require(path.join(DIST, 'plugins', 'pi.js')) as { attach(pi: PiExtensionApi, env: object): void };
    plugin.attach(api, env);
    const ctx: PiContext = { cwd: '/ws', sessionManager: { getSessionId: () => 'session-1' } };
    const fire = (event: string, payload: Record<string, unknown>) => handlers.get(event)!(payload, ctx);
    return { handlers, fire };
  }

  test("it listens to the events the gate needs; a refused edit is blocked with the window's reason, its path as pi resolves it", async () => {
    const seen: Array<Record<string, unknown>> = [];
    const server = await BridgeServer.start(async (agent, payload) => {
      const p = JSON.parse(payload) as Record<string, unknown>;
      seen.push({ agent, ...p });
      return p.hook_event_name === 'PreToolUse' && p.tool_name === 'edit'
        ? JSON.stringify({
            hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'BLOCKED: stale' },
          })
        : '';
    }, new MemoryLog());
    try {
      const pi = loadedPi(server.environment);
      assert.deepEqual([...pi.handlers.keys()].sort(), [
        'before_agent_start',
        'session_before_compact',
        'tool_call',
        'tool_result',
        'turn_start',
      ]);
      const edit = { toolName: 'edit', toolCallId: 'call_1', input: { path: '@src/a.ts', edits: [{ oldText: 'a', newText: 'b' }] } };
      assert.deepEqual(await pi.fire('tool_call', edit), { block: true, reason: 'BLOCKED: stale' });
      assert.equal(await pi.fire('tool_call', { toolName: 'read', toolCallId: 'call_2', input: { path: 'b.ts' } }), undefined);
      assert.equal(await pi.fire('tool_call', { toolName: 'bash', toolCallId: 'call_3', input: { command: 'ls' } }), undefined);
      assert.deepEqual(
        seen.map((p) => [
          p.agent,
          p.hook_event_name,
          p.tool_name,
          (p.tool_input as { path?: string } | undefined)?.path,
          p.tool_use_id,
          p.session_id,
        ]),
        [
          ['pi', 'PreToolUse', 'edit', '/ws/src/a.ts', 'call_1', 'session-1'],
          ['pi', 'PreToolUse', 'read', '/ws/b.ts', 'call_2', 'session-1'],
        ],
        "pi's shell is not sent: it is no file tool",
      );
    } finally {
      server.dispose();
    }
  });

  test('with no window to ask, every call is let through', async () => {
    const pi = loadedPi({ HOME: tempFolder('aeg-home-') });
    assert.equal(await pi.fire('tool_call', { toolName: 'write', toolCallId: 'call_1', input: { path: 'a.ts', content: 'x' } }), undefined);
  });

  test('a window that never answers: let through at the bound, and its connection closed (an open one would keep pi from ending)', async () => {
    const net = await import('node:net');
    const sockets: import('node:net').Socket[] = [];
    // it reads what it is sent, and never answers
    const silent = net.createServer((s) => void sockets.push(s.resume()));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as import('node:net').AddressInfo;
      const pi = loadedPi({ [ENV.socket]: `127.0.0.1:${port}`, [ENV.secret]: 'x', [ENV.boundMs]: '300' });
      assert.equal(
        await pi.fire('tool_call', { toolName: 'write', toolCallId: 'call_1', input: { path: 'a.ts', content: 'x' } }),
        undefined,
      );
      await new Promise<void>((resolve) => (sockets[0].closed ? resolve() : sockets[0].once('close', () => resolve())));
    } finally {
      silent.close();
      for (const s of sockets) s.destroy();
    }
  });
});
