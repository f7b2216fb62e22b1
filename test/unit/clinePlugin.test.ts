// Cline's side of the gate in plain Node (src/agents/cline/node/): its folder, and our plugin in Cline's sandbox
// answering Cline's hooks through the bridge's real server (the file Cline loads, and where it goes: the table of
// pluginFiles.test.ts). The real Cline running it against a window is test/integration/settingsFileAgents.test.ts.
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import * as path from 'node:path';
import { CLINE_HOOK_MS } from '../../src/agents/cline/node/events';
import type { ClinePlugin } from '../../src/agents/cline/node/plugin';
import { clineFolder, userPluginFile } from '../../src/agents/cline/node/pluginFile';
import { ENV } from '../../src/hooks/protocol';
import { refusingWindow } from './pluginWindow';
import { tempFolder } from './tempFolder';

const DIST = path.resolve('dist');

suite("Cline's folder", () => {
  test("Cline's folder is $CLINE_DIR or ~/.cline, as Cline finds it", () => {
    assert.equal(clineFolder('/h', {}), '/h/.cline');
    assert.equal(clineFolder('/h', { CLINE_DIR: '/etc/cline' }), '/etc/cline');
    assert.equal(userPluginFile('/h'), '/h/.cline/plugins/agent-edit-guard.js');
  });
});

suite("our plugin in Cline's sandbox, answering through the bridge", function () {
  this.timeout(20000);
  /** The plugin as Cline loads it (the bundle our file requires), set up for session `s-1` in /ws. */
  function loadedPlugin(env: Record<string, string | undefined>): ClinePlugin {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const bundle = require(path.join(DIST, 'plugins', 'cline.js')) as {
      clinePlugin(env: object, cwd: () => string): ClinePlugin;
    };
    const plugin = bundle.clinePlugin(env, () => '/ws');
    plugin.setup({}, { session: { sessionId: 's-1' } });
    return plugin;
  }
  const snapshot = { agentId: 'agent_1', conversationId: 'conv_1' };
  const editor = (id: string, input: Record<string, unknown>) => ({ snapshot, toolCall: { toolCallId: id, toolName: 'editor' }, input });

  test("a refused editor call is skipped with the window's reason, its path resolved from the session's folder; its shell is sent, other tools are not", async () => {
    const { seen, server } = await refusingWindow('editor');
    try {
      const plugin = loadedPlugin(server.environment);
      assert.deepEqual(await plugin.hooks.beforeTool(editor('call_1', { path: 'src/a.ts', old_text: 'a', new_text: 'b' })), {
        skip: true,
        reason: 'BLOCKED: stale',
      });
      const read = { snapshot, toolCall: { toolCallId: 'call_2', toolName: 'read_files' }, input: { files: [{ path: 'b.ts' }] } };
      assert.equal(await plugin.hooks.beforeTool(read), undefined);
      // its commands may write files (rule 16): sent before and after they run
      const shell = { snapshot, toolCall: { toolCallId: 'call_3', toolName: 'run_commands' }, input: { commands: ['ls'] } };
      assert.equal(await plugin.hooks.beforeTool(shell), undefined);
      assert.equal(await plugin.hooks.afterTool({ ...shell, result: { output: { success: true } } }), undefined);
      const search = { snapshot, toolCall: { toolCallId: 'call_4', toolName: 'search_codebase' }, input: { query: 'greet' } };
      assert.equal(await plugin.hooks.beforeTool(search), undefined);
      assert.equal(await plugin.hooks.afterTool({ ...search, result: { output: { success: true } } }), undefined);
      assert.deepEqual(
        seen.map((p) => [p.agent, p.hook_event_name, p.tool_name, JSON.stringify(p.tool_input), p.tool_use_id, p.session_id, p.cwd]),
        [
          ['cline', 'PreToolUse', 'editor', '{"path":"/ws/src/a.ts","old_text":"a","new_text":"b"}', 'call_1', 's-1', '/ws'],
          ['cline', 'PreToolUse', 'read_files', '{"files":[{"path":"/ws/b.ts"}]}', 'call_2', 's-1', '/ws'],
          ['cline', 'PreToolUse', 'run_commands', '{"commands":["ls"]}', 'call_3', 's-1', '/ws'],
          ['cline', 'PostToolUse', 'run_commands', '{"commands":["ls"]}', 'call_3', 's-1', '/ws'],
        ],
        'search_codebase is not sent: it writes no file',
      );
    } finally {
      server.dispose();
    }
  });

  test("a run's prompt without Cline's wrapper, each model request, a call that ran, a skipped or failed one as a failure; a sub-agent's own chat; compaction", async () => {
    const { seen, server } = await refusingWindow('editor');
    try {
      const plugin = loadedPlugin(server.environment);
      const messages = [{ role: 'user', content: [{ type: 'text', text: '<user_input mode="act">Fix the bug.</user_input>' }] }];
      await plugin.hooks.beforeRun({ snapshot: { ...snapshot, messages } });
      await plugin.hooks.beforeModel({ snapshot });
      const ranEdit = { ...editor('call_1', { path: '/ws/a.ts', old_text: 'a', new_text: 'b' }), result: { output: { success: true } } };
      await plugin.hooks.afterTool(ranEdit);
      await plugin.hooks.afterTool({ ...ranEdit, result: { output: { error: 'BLOCKED: stale' }, isError: true } });
      await plugin.hooks.afterTool({ ...ranEdit, result: { output: { success: false, error: 'no match' } } });
      const child = { agentId: 'agent_2', parentAgentId: 'agent_1', conversationId: 'conv_2' };
      await plugin.hooks.beforeModel({ snapshot: child });
      await plugin.hooks.onEvent({ type: 'assistant-text-delta' });
      await plugin.hooks.onEvent({
        type: 'status-notice',
        message: 'auto-compacting',
        metadata: { kind: 'auto_compaction', phase: 'started' },
      });
      await plugin.hooks.onEvent({
        type: 'status-notice',
        message: 'auto-compacted',
        metadata: { kind: 'auto_compaction', phase: 'completed' },
      });
      assert.deepEqual(
        seen.map((p) => [p.hook_event_name, p.session_id, p.prompt ?? p.tool_use_id]),
        [
          ['UserPromptSubmit', 's-1', 'Fix the bug.'],
          ['ModelRequest', 's-1', undefined],
          ['PostToolUse', 's-1', 'call_1'],
          // nothing was read or written: the gate frees the file at once and marks nothing
          ['PostToolUseFailure', 's-1', 'call_1'],
          ['PostToolUseFailure', 's-1', 'call_1'],
          ['ModelRequest', 's-1/agent_2', undefined],
          ['PreCompact', 's-1', undefined],
        ],
      );
    } finally {
      server.dispose();
    }
  });

  test('with no window to ask, every call is let through', async () => {
    const plugin = loadedPlugin({ HOME: tempFolder('aeg-home-') });
    assert.equal(await plugin.hooks.beforeTool(editor('call_1', { path: 'a.ts', new_text: 'x' })), undefined);
  });

  test(`a window that never answers: let through within Cline's limit (asked for at most ${CLINE_HOOK_MS} ms, whatever the environment says), never a rejection`, async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((s) => void sockets.push(s.resume()));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as net.AddressInfo;
      const plugin = loadedPlugin({ [ENV.socket]: `127.0.0.1:${port}`, [ENV.secret]: 'x', [ENV.boundMs]: '60000' });
      const answer = plugin.hooks.beforeTool(editor('call_1', { path: 'a.ts', new_text: 'x' }));
      // the connection is dropped at the bound: the answer is due by then, and well before the 60 s asked for
      await new Promise<void>((resolve) => (sockets.length > 0 ? resolve() : silent.once('connection', () => resolve())));
      await new Promise<void>((resolve) => (sockets[0].closed ? resolve() : sockets[0].once('close', () => resolve())));
      assert.equal(await answer, undefined);
    } finally {
      silent.close();
      for (const s of sockets) s.destroy();
    }
  });
});
