// Claude Code's hook events as the hooks router reads them, from payloads as its hooks send them: one test of the unit
// suite of agents' events (test/unit/agentEvents.test.ts), which runs each agent's from its testAgent.ts.
import * as assert from 'node:assert/strict';
import { parseClaudeCodeEvent } from '../../src/agents/claudeCode/node/events';
import type { EventsTest } from '../shared/testAgent';

export const eventsTest: EventsTest = {
  title: "Claude Code's hooks (test/claudeCode/FACTS.md): Read marks, Edit changes, Write creates or overwrites; other tools are ignored",
  run() {
    const claude = (event: string, fields: Record<string, unknown> = {}) => ({
      session_id: 'c1a2',
      transcript_path: '/h/.claude/projects/-ws/c1a2.jsonl',
      cwd: '/ws',
      hook_event_name: event,
      prompt_id: 'p1',
      permission_mode: 'acceptEdits',
      ...fields,
    });
    assert.deepEqual(
      parseClaudeCodeEvent(claude('PreToolUse', { tool_name: 'Read', tool_input: { file_path: '/ws/a.ts', offset: 2, limit: 2 } })),
      { kind: 'before-read', chat: 'c1a2', tool: 'Read', files: ['/ws/a.ts'] },
    );
    assert.deepEqual(
      parseClaudeCodeEvent(
        claude('PreToolUse', {
          tool_name: 'Edit',
          tool_input: { file_path: '/ws/a.ts', old_string: 'a', new_string: 'b', replace_all: false },
        }),
      ),
      { kind: 'before-edit', chat: 'c1a2', tool: 'Edit', files: [{ path: '/ws/a.ts', intent: 'change' }] },
    );
    assert.deepEqual(
      parseClaudeCodeEvent(
        claude('PostToolUse', {
          tool_name: 'Write',
          tool_input: { file_path: '/ws/n.ts', content: 'x' },
          tool_response: { type: 'create' },
        }),
      ),
      { kind: 'after-edit', chat: 'c1a2', tool: 'Write', files: [{ path: '/ws/n.ts', intent: 'create' }] },
    );
    assert.deepEqual(
      parseClaudeCodeEvent(claude('PreToolUse', { tool_name: 'NotebookEdit', tool_input: { notebook_path: '/ws/n.ipynb' } })),
      {
        kind: 'before-edit',
        chat: 'c1a2',
        tool: 'NotebookEdit',
        files: [{ path: '/ws/n.ipynb', intent: 'change' }],
      },
    );
    assert.deepEqual(parseClaudeCodeEvent(claude('UserPromptSubmit', { prompt: 'Fix it' })), {
      kind: 'turn',
      chat: 'c1a2',
      prompt: 'Fix it',
    });
    assert.deepEqual(parseClaudeCodeEvent(claude('PreCompact', { trigger: 'manual', custom_instructions: null })), {
      kind: 'compact',
      chat: 'c1a2',
    });
    assert.deepEqual(parseClaudeCodeEvent(claude('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } })), {
      kind: 'before-shell',
      chat: 'c1a2',
      tool: 'Bash',
      command: 'ls',
    });
    for (const p of [
      claude('PreToolUse', { tool_name: 'Grep', tool_input: { pattern: 'x' } }),
      claude('PreToolUse', { tool_name: 'Glob', tool_input: { pattern: '*.ts' } }),
      claude('PreToolUse', { tool_name: 'Edit', tool_input: {} }),
      claude('PreToolUse', { tool_name: 'read_file', tool_input: { filePath: '/ws/a.ts' } }),
    ]) {
      assert.equal(parseClaudeCodeEvent(p).kind, 'ignore', JSON.stringify(p));
    }
  },
};
