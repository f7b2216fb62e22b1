// Cline's hook events as the hooks router reads them, from payloads as its hooks send them: one test of the unit
// suite of agents' events (test/unit/agentEvents.test.ts), which runs each agent's from its testAgent.ts.
import * as assert from 'node:assert/strict';
import { parseClineEvent } from '../../src/agents/cline/node/events';
import { MODEL_REQUEST } from '../../src/hooks/event';
import { filesOfPatch } from '../../src/hooks/patch';
import { type EventsTest, pluginPayload } from '../shared/testAgent';

export const eventsTest: EventsTest = {
  title:
    "Cline's events as our plugin sends them (test/cline/FACTS.md): read_files marks each file, editor quotes its old_text, inserts into a file that must exist or makes a new one, apply_patch touches every file its patch names; each tool event names its call",
  run() {
    const chat = '1796530823490_tqbae';
    const cline = pluginPayload(chat);
    const tool = (event: string, name: string, input: Record<string, unknown>) =>
      parseClineEvent(cline(event, { tool_name: name, tool_input: input, tool_use_id: 'call_0_1_0' }));
    assert.deepEqual(tool('PreToolUse', 'read_files', { files: [{ path: '/ws/a.ts', start_line: 2 }, { path: '/ws/b.ts' }] }), {
      kind: 'before-read',
      chat,
      tool: 'read_files',
      files: ['/ws/a.ts', '/ws/b.ts'],
      call: 'call_0_1_0',
    });
    const edited = (input: Record<string, unknown>) => {
      const e = tool('PostToolUse', 'editor', input);
      return e.kind === 'after-edit' ? e.files : e;
    };
    assert.deepEqual(edited({ path: '/ws/a.ts', old_text: 'a', new_text: 'b' }), [{ path: '/ws/a.ts', intent: 'change', quotes: ['a'] }]);
    assert.deepEqual(edited({ path: '/ws/a.ts', old_text: null, new_text: 'b', insert_line: 3 }), [{ path: '/ws/a.ts', intent: 'change' }]);
    assert.deepEqual(edited({ path: '/ws/n.ts', new_text: 'x' }), [{ path: '/ws/n.ts', intent: 'create' }]);
    const patch = '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-a\n+b\n*** Add File: src/n.ts\n+x\n*** End Patch';
    assert.deepEqual(tool('PreToolUse', 'apply_patch', { input: patch }), {
      kind: 'before-edit',
      chat,
      tool: 'apply_patch',
      files: filesOfPatch(patch),
      call: 'call_0_1_0',
    });
    assert.deepEqual(parseClineEvent(cline('UserPromptSubmit', { prompt: 'Fix it' })), { kind: 'turn', chat, prompt: 'Fix it' });
    assert.deepEqual(parseClineEvent(cline('PreCompact')), { kind: 'compact', chat });
    assert.equal(parseClineEvent(cline(MODEL_REQUEST)).kind, 'ignore');
    assert.deepEqual(tool('PreToolUse', 'run_commands', { commands: ['ls'] }), {
      kind: 'before-shell',
      chat,
      tool: 'run_commands',
      command: 'ls',
      call: 'call_0_1_0',
    });
    assert.deepEqual(
      tool('PostToolUse', 'run_commands', { commands: ['npm test', 'git status'] }),
      { kind: 'after-shell', chat, tool: 'run_commands', command: 'npm test\ngit status', call: 'call_0_1_0' },
      'its commands run one after the other: one command of their lines',
    );
    for (const p of [
      null,
      cline('PreToolUse', { tool_name: 'search_codebase', tool_input: { query: 'x' } }),
      cline('PreToolUse', { tool_name: 'editor', tool_input: { new_text: 'x' } }),
      cline('PreToolUse', { tool_name: 'read_files', tool_input: { files: [] } }),
      cline('PreToolUse', { tool_name: 'apply_patch', tool_input: { input: 'not a patch' } }),
    ]) {
      assert.equal(parseClineEvent(p).kind, 'ignore', JSON.stringify(p));
    }
  },
};
