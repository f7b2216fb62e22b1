// Gemini CLI's hook events as the hooks router reads them, from payloads as its hooks send them: one test of the unit
// suite of agents' events (test/unit/agentEvents.test.ts), which runs each agent's from its testAgent.ts.
import * as assert from 'node:assert/strict';
import { geminiCliAgent, parseGeminiCliEvent } from '../../src/agents/geminiCli/node/events';
import type { EventsTest } from '../shared/testAgent';

export const eventsTest: EventsTest = {
  title:
    "Gemini CLI's hooks (test/geminiCli/FACTS.md): read_file marks, replace changes and quotes its old_string (or makes a file), write_file creates or overwrites; PreCompress and other tools are ignored",
  run() {
    const gemini = (event: string, fields: Record<string, unknown> = {}) => ({
      session_id: '50e15f4c-1e3c-4e85-b8f6-050ded669161',
      transcript_path: '/h/.gemini/tmp/ws/chats/session-50e15f4c.jsonl',
      cwd: '/ws',
      hook_event_name: event,
      timestamp: '2026-12-05T21:14:31.444Z',
      ...fields,
    });
    const chat = '50e15f4c-1e3c-4e85-b8f6-050ded669161';
    assert.deepEqual(
      parseGeminiCliEvent(
        gemini('BeforeTool', { tool_name: 'read_file', tool_input: { file_path: '/ws/a.ts', start_line: 2, end_line: 3 } }),
      ),
      { kind: 'before-read', chat, tool: 'read_file', files: ['/ws/a.ts'] },
    );
    assert.deepEqual(
      parseGeminiCliEvent(
        gemini('BeforeTool', {
          tool_name: 'replace',
          tool_input: { file_path: '/ws/a.ts', old_string: 'a', new_string: 'b', instruction: 'why' },
        }),
      ),
      { kind: 'before-edit', chat, tool: 'replace', files: [{ path: '/ws/a.ts', intent: 'change', quotes: ['a'] }] },
    );
    assert.deepEqual(
      parseGeminiCliEvent(
        gemini('BeforeTool', { tool_name: 'replace', tool_input: { file_path: '/ws/new.ts', old_string: '', new_string: 'x' } }),
      ),
      { kind: 'before-edit', chat, tool: 'replace', files: [{ path: '/ws/new.ts', intent: 'create' }] },
      'an empty old_string makes the file',
    );
    assert.deepEqual(
      parseGeminiCliEvent(
        gemini('AfterTool', {
          tool_name: 'write_file',
          tool_input: { file_path: '/ws/n.ts', content: 'x' },
          tool_response: { llmContent: 'Successfully created', returnDisplay: {} },
        }),
      ),
      { kind: 'after-edit', chat, tool: 'write_file', files: [{ path: '/ws/n.ts', intent: 'create' }] },
    );
    assert.deepEqual(parseGeminiCliEvent(gemini('BeforeAgent', { prompt: 'Fix it' })), { kind: 'turn', chat, prompt: 'Fix it' });
    assert.deepEqual(parseGeminiCliEvent(gemini('BeforeTool', { tool_name: 'run_shell_command', tool_input: { command: 'ls' } })), {
      kind: 'before-shell',
      chat,
      tool: 'run_shell_command',
      command: 'ls',
    });
    assert.deepEqual(
      parseGeminiCliEvent(gemini('AfterTool', { tool_name: 'run_shell_command', tool_input: { command: 'ls', dir_path: 'src' } })),
      { kind: 'after-shell', chat, tool: 'run_shell_command', command: 'ls', dir: 'src' },
      'the folder the call names',
    );
    for (const p of [
      // fired before every model request, compressing or not: it cannot say the model lost what it read
      gemini('PreCompress', { trigger: 'auto' }),
      gemini('BeforeTool', { tool_name: 'glob', tool_input: { pattern: '*.ts' } }),
      gemini('BeforeTool', { tool_name: 'list_directory', tool_input: { dir_path: '/ws' } }),
      gemini('BeforeTool', { tool_name: 'replace', tool_input: {} }),
      gemini('BeforeTool', { tool_name: 'Read', tool_input: { file_path: '/ws/a.ts' } }),
    ]) {
      assert.equal(parseGeminiCliEvent(p).kind, 'ignore', JSON.stringify(p));
    }
    assert.deepEqual(
      JSON.parse(geminiCliAgent.deny('why')),
      { decision: 'deny', reason: 'why' },
      'the model reads "Tool execution blocked: why"',
    );
  },
};
