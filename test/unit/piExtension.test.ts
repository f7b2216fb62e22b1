// pi's side of the gate in plain Node (src/agents/pi/node/): where pi's folder is, and our extension in an agent's
// process answering pi's events through the bridge's real server (the file pi loads, and where it goes: the table
// of pluginFiles.test.ts). The real pi running it against a window is test/integration/settingsFileAgents.test.ts.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { piAgentFolder, userExtensionFile } from '../../src/agents/pi/node/extensionFile';
import type { PiContext, PiExtensionApi } from '../../src/agents/pi/node/plugin';
import { ENV } from '../../src/hooks/protocol';
import { refusingWindow } from './pluginWindow';
import { tempFolder } from './tempFolder';

const DIST = path.resolve('dist');
suite("pi's folder", () => {
  test("pi's folder is $PI_CODING_AGENT_DIR (with ~ expanded) or ~/.pi/agent, as pi finds it", () => {
    assert.equal(piAgentFolder('/h', {}), '/h/.pi/agent');
    assert.equal(piAgentFolder('/h', { PI_CODING_AGENT_DIR: '~/pi-config' }), '/h/pi-config');
    assert.equal(piAgentFolder('/h', { PI_CODING_AGENT_DIR: '/etc/pi' }), '/etc/pi');
    assert.equal(userExtensionFile('/h'), '/h/.pi/agent/extensions/agent-edit-guard.js');
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
    const { seen, server } = await refusingWindow('edit');
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
      // its shell's commands may write files (rule 16): sent before and after they run
      const shell = { toolName: 'bash', toolCallId: 'call_3', input: { command: 'ls' } };
      assert.equal(await pi.fire('tool_call', shell), undefined);
      assert.equal(await pi.fire('tool_result', { ...shell, isError: false }), undefined);
      const grep = { toolName: 'grep', toolCallId: 'call_4', input: { pattern: 'greet', path: 'src' } };
      assert.equal(await pi.fire('tool_call', grep), undefined);
      assert.equal(await pi.fire('tool_result', { ...grep, isError: false }), undefined);
      assert.deepEqual(
        seen.map((p) => [
          p.agent,
          p.hook_event_name,
          p.tool_name,
          (p.tool_input as { path?: string } | undefined)?.path ?? (p.tool_input as { command?: string } | undefined)?.command,
          p.tool_use_id,
          p.session_id,
        ]),
        [
          ['pi', 'PreToolUse', 'edit', '/ws/src/a.ts', 'call_1', 'session-1'],
          ['pi', 'PreToolUse', 'read', '/ws/b.ts', 'call_2', 'session-1'],
          ['pi', 'PreToolUse', 'bash', 'ls', 'call_3', 'session-1'],
          ['pi', 'PostToolUse', 'bash', 'ls', 'call_3', 'session-1'],
        ],
        "pi's grep is not sent: it writes no file",
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
