// pi's hook events as the hooks router reads them, from payloads as its hooks send them: one test of the unit
// suite of agents' events (test/unit/agentEvents.test.ts), which runs each agent's from its testAgent.ts.
import * as assert from 'node:assert/strict';
import { parsePiEvent } from '../../src/agents/pi/node/events';
import { MODEL_REQUEST } from '../../src/hooks/event';
import { type EventsTest, pluginPayload } from '../shared/testAgent';

export const eventsTest: EventsTest = {
  title:
    "pi's events as our extension sends them (test/pi/FACTS.md): read marks, edit quotes each edits[].oldText (and an older model's one oldText), write creates or overwrites, each tool event names its call; a model request is nothing but the chat's next event",
  run() {
    const chat = '01a24906-09f6-74f7-a098-208e0d78fe28';
    const pi = pluginPayload(chat);
    assert.deepEqual(
      parsePiEvent(pi('PreToolUse', { tool_name: 'read', tool_input: { path: '/ws/a.ts', offset: 2 }, tool_use_id: 'call_0_1' })),
      { kind: 'before-read', chat, tool: 'read', files: ['/ws/a.ts'], call: 'call_0_1' },
    );
    const edits = [
      { oldText: 'a', newText: 'b' },
      { oldText: 'c', newText: 'd' },
    ];
    assert.deepEqual(
      parsePiEvent(
        pi('PreToolUse', {
          tool_name: 'edit',
          tool_input: { path: '/ws/a.ts', edits, oldText: 'e', newText: 'f' },
          tool_use_id: 'call_1_2',
        }),
      ),
      {
        kind: 'before-edit',
        chat,
        tool: 'edit',
        files: [{ path: '/ws/a.ts', intent: 'change', quotes: ['a', 'c', 'e'] }],
        call: 'call_1_2',
      },
    );
    assert.deepEqual(
      parsePiEvent(pi('PostToolUse', { tool_name: 'write', tool_input: { path: '/ws/n.ts', content: 'x' }, tool_use_id: 'call_2_3' })),
      { kind: 'after-edit', chat, tool: 'write', files: [{ path: '/ws/n.ts', intent: 'create' }], call: 'call_2_3' },
    );
    assert.deepEqual(parsePiEvent(pi('UserPromptSubmit', { prompt: 'Fix it' })), { kind: 'turn', chat, prompt: 'Fix it' });
    assert.deepEqual(parsePiEvent(pi('PreCompact')), { kind: 'compact', chat });
    assert.deepEqual(parsePiEvent(pi(MODEL_REQUEST)), { kind: 'ignore', why: `${MODEL_REQUEST} is not an event the gate uses`, chat });
    assert.deepEqual(parsePiEvent(pi('PreToolUse', { tool_name: 'bash', tool_input: { command: 'ls' }, tool_use_id: 'call_3_4' })), {
      kind: 'before-shell',
      chat,
      tool: 'bash',
      command: 'ls',
      call: 'call_3_4',
    });
    for (const p of [
      null,
      pi('PreToolUse', { tool_name: 'grep', tool_input: { pattern: 'x' } }),
      pi('PreToolUse', { tool_name: 'ls', tool_input: { path: '/ws' } }),
      pi('PreToolUse', { tool_name: 'edit', tool_input: { edits } }),
    ]) {
      assert.equal(parsePiEvent(p).kind, 'ignore', JSON.stringify(p));
    }
  },
};
