// pi as the shared suites drive it (test/shared/testAgent.ts): our extension of it in its extensions folder, its
// tools as its model calls them (test/pi/FACTS.md), against the scripted Chat Completions API.
import * as os from 'node:os';
import { startFakeChatCompletions } from '../copilotCli/fakeChatCompletions';
import { KEEPS_BY, type TestAgentFacts } from '../shared/testAgent';
import { describePiRun, makePiHome, runPi } from './pi';
import { eventsTest } from './events';

/** A handler of pi's events, as our extension registers it. */
type Hook = (...args: never[]) => Promise<unknown>;

export const testAgent: TestAgentFacts = {
  cliPackage: '@mariozechner/pi-coding-agent',
  guardedBy: 'our extension of it',
  failed: /^Error|could not find|must be unique/i,
  read: (file) => ({ tool: 'read', args: { path: file } }),
  replace: (file, old, replacement) => ({ tool: 'edit', args: { path: file, edits: [{ oldText: old, newText: replacement }] } }),
  write: (file, content) => ({ tool: 'write', args: { path: file, content } }),
  shell: (command) => ({ tool: 'bash', args: { command } }),
  readsBeforeOverwrite: false,
  makeHome: makePiHome,
  startFake: (answer) => startFakeChatCompletions((request) => answer(request.calls)),
  run: runPi,
  describe: describePiRun,
  shellWrites: { hookTool: 'bash' },
  events: eventsTest,
  bench: {
    id: 'pi',
    plugin: {
      name: "pi's extension",
      load(file) {
        const handlers = new Map<string, Hook>();
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        (require(file) as (pi: { on(event: string, handler: Hook): void }) => void)({ on: (event, h) => handlers.set(event, h) });
        const on = (event: string) => handlers.get(event) as (event: object, ctx: object) => Promise<unknown>;
        const ctx = (chat: string) => ({ cwd: os.homedir(), sessionManager: { getSessionId: () => chat } });
        const tool = (toolName: string, file: string, call: string) =>
          toolName === 'read'
            ? { toolName, toolCallId: call, input: { path: file } }
            : { toolName, toolCallId: call, input: { path: file, edits: [{ oldText: 'x', newText: 'y' }] } };
        const blocked = (r: unknown) => (r as { block?: boolean } | undefined)?.block === true;
        return {
          prompt: (chat) => on('before_agent_start')({ prompt: 'bench' }, ctx(chat)),
          beforeRead: async (chat, file, call) => blocked(await on('tool_call')(tool('read', file, call), ctx(chat))),
          afterRead: (chat, file, call) => on('tool_result')(tool('read', file, call), ctx(chat)),
          beforeEdit: async (chat, file, call) => blocked(await on('tool_call')(tool('edit', file, call), ctx(chat))),
          afterEdit: (chat, file, call) => on('tool_result')(tool('edit', file, call), ctx(chat)),
        };
      },
    },
  },
  outcomes: { keeps: { 'between-requests': KEEPS_BY.exactMatch, formatter: KEEPS_BY.exactMatch, parallel: KEEPS_BY.exactMatch } },
};
