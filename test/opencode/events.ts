// opencode's hook events as the hooks router reads them, from payloads as its hooks send them: one test of the unit
// suite of agents' events (test/unit/agentEvents.test.ts), which runs each agent's from its testAgent.ts.
import * as assert from 'node:assert/strict';
import { parseOpencodeEvent } from '../../src/agents/opencode/node/events';
import { filesOfPatch } from '../../src/hooks/patch';
import { type EventsTest, pluginPayload } from '../shared/testAgent';

export const eventsTest: EventsTest = {
  title:
    "opencode's events as our plugin sends them (test/opencode/FACTS.md): read marks, edit quotes its oldString (none: it makes the file), write makes or overwrites, apply_patch touches every file its patch names; each tool event names its call",
  run() {
    const chat = 'ses_db6463a00ffeTRKoAa5952gy56';
    const oc = pluginPayload(chat);
    const tool = (event: string, name: string, input: Record<string, unknown>) =>
      parseOpencodeEvent(oc(event, { tool_name: name, tool_input: input, tool_use_id: 'call_0_2' }));
    assert.deepEqual(tool('PreToolUse', 'read', { filePath: '/ws/a.ts', offset: 3 }), {
      kind: 'before-read',
      chat,
      tool: 'read',
      files: ['/ws/a.ts'],
      call: 'call_0_2',
    });
    const touched = (name: string, input: Record<string, unknown>) => {
      const e = tool('PostToolUse', name, input);
      return e.kind === 'after-edit' ? e.files : e;
    };
    assert.deepEqual(touched('edit', { filePath: '/ws/a.ts', oldString: 'a', newString: 'b' }), [
      { path: '/ws/a.ts', intent: 'change', quotes: ['a'] },
    ]);
    assert.deepEqual(touched('edit', { filePath: '/ws/n.ts', oldString: '', newString: 'x' }), [{ path: '/ws/n.ts', intent: 'create' }]);
    assert.deepEqual(touched('write', { filePath: '/ws/n.ts', content: 'x' }), [{ path: '/ws/n.ts', intent: 'create' }]);
    const patch = '*** Begin Patch\n*** Delete File: old.ts\n*** Update File: a.ts\n*** Move to: b.ts\n@@\n-a\n+b\n*** End Patch';
    assert.deepEqual(touched('apply_patch', { patchText: patch }), filesOfPatch(patch));
    assert.deepEqual(parseOpencodeEvent(oc('UserPromptSubmit', { prompt: 'Fix it' })), { kind: 'turn', chat, prompt: 'Fix it' });
    assert.deepEqual(parseOpencodeEvent(oc('PreCompact')), { kind: 'compact', chat });
    assert.deepEqual(tool('PreToolUse', 'bash', { command: 'ls', workdir: '/ws/sub', description: 'List files' }), {
      kind: 'before-shell',
      chat,
      tool: 'bash',
      command: 'ls',
      dir: '/ws/sub',
      call: 'call_0_2',
    });
    for (const p of [
      null,
      oc('PreToolUse', { tool_name: 'glob', tool_input: { pattern: '*.ts' } }),
      oc('PreToolUse', { tool_name: 'grep', tool_input: { pattern: 'x' } }),
      oc('PreToolUse', { tool_name: 'edit', tool_input: { oldString: 'a' } }),
      oc('PreToolUse', { tool_name: 'apply_patch', tool_input: { patchText: 'nothing' } }),
    ]) {
      assert.equal(parseOpencodeEvent(p).kind, 'ignore', JSON.stringify(p));
    }
  },
};
