// opencode's side of the gate in plain Node (src/agents/opencode/node/): its config folder, and our plugin in
// opencode's process answering its hooks through the bridge's real server (the file opencode loads, and where it
// goes: the table of pluginFiles.test.ts). The real opencode running it against a window is
// test/integration/settingsFileAgents.test.ts.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { OpencodeHooks } from '../../src/agents/opencode/node/plugin';
import { opencodeConfigFolder, userPluginFile } from '../../src/agents/opencode/node/pluginFile';
import { refusingWindow } from './pluginWindow';
import { tempFolder } from './tempFolder';

const DIST = path.resolve('dist');

suite("opencode's config folder", () => {
  test('it is $XDG_CONFIG_HOME/opencode or ~/.config/opencode, as opencode finds it', () => {
    assert.equal(opencodeConfigFolder('/h', {}), '/h/.config/opencode');
    assert.equal(opencodeConfigFolder('/h', { XDG_CONFIG_HOME: '/x' }), '/x/opencode');
    assert.equal(userPluginFile('/h'), '/h/.config/opencode/plugin/agent-edit-guard.js');
  });
});

suite("our plugin in opencode's process, answering through the bridge", function () {
  this.timeout(20000);
  /** The hooks as opencode gets them (the bundle our file requires), for a session run in /ws. */
  function loadedHooks(env: Record<string, string | undefined>): OpencodeHooks {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const bundle = require(path.join(DIST, 'plugins', 'opencode.js')) as {
      opencodeHooks(ctx: { directory: string }, env: object): OpencodeHooks;
    };
    return bundle.opencodeHooks({ directory: '/ws' }, env);
  }
  const call = (tool: string, callID: string) => ({ tool, sessionID: 'ses_1', callID });

  test("a refused edit throws the window's reason (what opencode's model reads), its path resolved from opencode's folder; the rest is sent as the gate needs it", async () => {
    const { seen, server } = await refusingWindow('edit');
    try {
      const hooks = loadedHooks(server.environment);
      await hooks['chat.message']({ sessionID: 'ses_1' }, { parts: [{ type: 'text', text: 'Fix the bug.' }] });
      await hooks['chat.params']({ sessionID: 'ses_1', agent: 'title' }, {});
      await hooks['chat.params']({ sessionID: 'ses_1', agent: 'build' }, {});
      await assert.rejects(
        hooks['tool.execute.before'](call('edit', 'call_1'), { args: { filePath: 'src/a.ts', oldString: 'a', newString: 'b' } }),
        { message: 'BLOCKED: stale' },
      );
      await hooks['tool.execute.before'](call('read', 'call_2'), { args: { filePath: '/ws/b.ts' } });
      await hooks['tool.execute.after']({ ...call('read', 'call_2'), args: { filePath: 'b.ts' } }, {});
      // its shell's commands may write files (rule 16): sent before and after they run
      await hooks['tool.execute.before'](call('bash', 'call_3'), { args: { command: 'ls' } });
      await hooks['tool.execute.after']({ ...call('bash', 'call_3'), args: { command: 'ls' } }, {});
      await hooks['tool.execute.before'](call('grep', 'call_4'), { args: { pattern: 'greet' } });
      await hooks['tool.execute.after']({ ...call('grep', 'call_4'), args: { pattern: 'greet' } }, {});
      await hooks['experimental.session.compacting']({ sessionID: 'ses_1' }, {});
      assert.deepEqual(
        seen.map((p) => [
          p.agent,
          p.hook_event_name,
          p.tool_name,
          (p.tool_input as { filePath?: string } | undefined)?.filePath ??
            (p.tool_input as { command?: string } | undefined)?.command ??
            p.prompt,
          p.tool_use_id,
          p.session_id,
        ]),
        [
          ['opencode', 'UserPromptSubmit', undefined, 'Fix the bug.', undefined, 'ses_1'],
          ['opencode', 'ModelRequest', undefined, undefined, undefined, 'ses_1'],
          ['opencode', 'PreToolUse', 'edit', '/ws/src/a.ts', 'call_1', 'ses_1'],
          ['opencode', 'PreToolUse', 'read', '/ws/b.ts', 'call_2', 'ses_1'],
          ['opencode', 'PostToolUse', 'read', '/ws/b.ts', 'call_2', 'ses_1'],
          ['opencode', 'PreToolUse', 'bash', 'ls', 'call_3', 'ses_1'],
          ['opencode', 'PostToolUse', 'bash', 'ls', 'call_3', 'ses_1'],
          ['opencode', 'PreCompact', undefined, undefined, undefined, 'ses_1'],
        ],
        'the title request is no step of the chat, and grep writes no file',
      );
    } finally {
      server.dispose();
    }
  });

  test('with no window to ask, every call is let through', async () => {
    const hooks = loadedHooks({ HOME: tempFolder('aeg-home-') });
    await assert.doesNotReject(hooks['tool.execute.before'](call('write', 'call_1'), { args: { filePath: 'a.ts', content: 'x' } }));
  });
});
