// Qwen Code's hook events as the hooks router reads them, from payloads as its hooks send them: one test of the unit
// suite of agents' events (test/unit/agentEvents.test.ts), which runs each agent's from its testAgent.ts.
import * as assert from 'node:assert/strict';
import { parseQwenCodeEvent } from '../../src/agents/qwenCode/node/events';
import type { EventsTest } from '../shared/testAgent';

export const eventsTest: EventsTest = {
  title:
    "Qwen Code's hooks (test/qwenCode/FACTS.md): read_file marks, edit quotes its old_string, write_file creates or overwrites, each of its prompt_id's turn; its empty re-sent prompt is no new message",
  run() {
    const turn = '9daa9bcb-f98e-4c52-bf34-a77ca0e5ec23########0';
    const chat = '9daa9bcb-f98e-4c52-bf34-a77ca0e5ec23';
    const qwen = (event: string, fields: Record<string, unknown> = {}) => ({
      session_id: chat,
      transcript_path: '/h/.qwen/projects/-ws/chats/9daa9bcb.jsonl',
      cwd: '/ws',
      hook_event_name: event,
      timestamp: '2026-12-05T21:35:41.642Z',
      permission_mode: 'yolo',
      prompt_id: turn,
      ...fields,
    });
    assert.deepEqual(
      parseQwenCodeEvent(
        qwen('PreToolUse', { tool_name: 'read_file', tool_input: { file_path: '/ws/a.ts', offset: 2, limit: 2 }, tool_use_id: 'toolu_1' }),
      ),
      { kind: 'before-read', chat, tool: 'read_file', files: ['/ws/a.ts'], turn },
    );
    assert.deepEqual(
      parseQwenCodeEvent(
        qwen('PreToolUse', { tool_name: 'edit', tool_input: { file_path: '/ws/a.ts', old_string: 'a', new_string: 'b' } }),
      ),
      { kind: 'before-edit', chat, tool: 'edit', files: [{ path: '/ws/a.ts', intent: 'change', quotes: ['a'] }], turn },
    );
    assert.deepEqual(
      parseQwenCodeEvent(qwen('PostToolUse', { tool_name: 'write_file', tool_input: { file_path: '/ws/n.ts', content: 'x' } })),
      { kind: 'after-edit', chat, tool: 'write_file', files: [{ path: '/ws/n.ts', intent: 'create' }], turn },
    );
    assert.deepEqual(parseQwenCodeEvent(qwen('UserPromptSubmit', { prompt: 'Fix it' })), { kind: 'turn', chat, prompt: 'Fix it', turn });
    assert.deepEqual(
      parseQwenCodeEvent(qwen('UserPromptSubmit', { prompt: '' })),
      { kind: 'turn', chat, turn },
      'the same turn, no new prompt',
    );
    assert.deepEqual(parseQwenCodeEvent(qwen('PreCompact', { trigger: 'auto' })), { kind: 'compact', chat });
    assert.deepEqual(parseQwenCodeEvent(qwen('PreToolUse', { tool_name: 'run_shell_command', tool_input: { command: 'ls' } })), {
      kind: 'before-shell',
      chat,
      tool: 'run_shell_command',
      command: 'ls',
      turn,
    });
    for (const p of [
      null,
      'not an object',
      qwen('PreToolUse', { tool_name: 'grep_search', tool_input: { pattern: 'x' } }),
      qwen('PreToolUse', { tool_name: 'edit', tool_input: {} }),
    ]) {
      assert.equal(parseQwenCodeEvent(p).kind, 'ignore', JSON.stringify(p));
    }
  },
};
