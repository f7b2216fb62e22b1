// Cline as the shared suites drive it (test/shared/testAgent.ts): our plugin in its plugins folder, its tools as its
// model calls them (test/cline/FACTS.md), against the scripted Chat Completions API.
import { startFakeChatCompletions } from '../copilotCli/fakeChatCompletions';
import { KEEPS_BY, type TestAgentFacts, unwrapError } from '../shared/testAgent';
import { describeClineRun, makeClineHome, runCline } from './cline';
import { eventsTest } from './events';

export const testAgent: TestAgentFacts = {
  cliPackage: 'cline',
  guardedBy: 'our plugin',
  failed: /^Error|could not find|not found|operation failed/i,
  create: (file, content) => ({ tool: 'editor', args: { path: file, new_text: content } }),
  // `[{"query": <path>, "result": "1 | line\n2 | line", "success": true}]`: numbered lines, the final line break not shown
  readText: (result) => {
    const [first] = JSON.parse(result) as Array<{ result?: string }>;
    return `${(first?.result ?? '').replace(/^\d+ \| /gm, '')}\n`;
  },
  read: (file) => ({ tool: 'read_files', args: { files: [{ path: file }] } }),
  replace: (file, old, replacement) => ({ tool: 'editor', args: { path: file, old_text: old, new_text: replacement } }),
  shell: (command) => ({ tool: 'run_commands', args: { commands: [command] } }),
  readsBeforeOverwrite: false,
  makeHome: makeClineHome,
  // a skipped call's result is `{"error": <reason>}`
  startFake: (answer) => startFakeChatCompletions((request) => answer(request.calls.map(unwrapError))),
  run: runCline,
  describe: describeClineRun,
  events: eventsTest,
  bench: {
    id: 'cline',
    plugin: {
      name: "Cline's plugin",
      load(file) {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const plugin = require(file) as { setup(api: unknown, ctx: unknown): void; hooks: Record<string, (e: object) => Promise<unknown>> };
        // no session of Cline's: each chat is named by its snapshot's conversation
        plugin.setup({}, {});
        const snapshot = (chat: string) => ({ agentId: 'bench', conversationId: chat });
        const read = (chat: string, file: string, call: string) => ({
          snapshot: snapshot(chat),
          toolCall: { toolCallId: call, toolName: 'read_files' },
          input: { files: [{ path: file }] },
          result: { output: [{ success: true }] },
        });
        const edit = (chat: string, file: string, call: string) => ({
          snapshot: snapshot(chat),
          toolCall: { toolCallId: call, toolName: 'editor' },
          input: { path: file, old_text: 'x', new_text: 'y' },
        });
        const skipped = (r: unknown) => (r as { skip?: boolean } | undefined)?.skip === true;
        return {
          prompt: (chat) => plugin.hooks.beforeRun({ snapshot: { ...snapshot(chat), messages: [{ role: 'user', content: 'bench' }] } }),
          beforeRead: async (chat, file, call) => skipped(await plugin.hooks.beforeTool(read(chat, file, call))),
          afterRead: (chat, file, call) => plugin.hooks.afterTool(read(chat, file, call)),
          beforeEdit: async (chat, file, call) => skipped(await plugin.hooks.beforeTool(edit(chat, file, call))),
          afterEdit: (chat, file, call) => plugin.hooks.afterTool({ ...edit(chat, file, call), result: { output: [{ success: true }] } }),
        };
      },
    },
  },
  outcomes: {
    keeps: {
      'between-requests': KEEPS_BY.exactMatch,
      formatter: KEEPS_BY.exactMatch,
      parallel: KEEPS_BY.exactMatch,
      'never-read': 'its editor refuses to write a file that exists without a quote; the model reads it, then edits',
    },
  },
};
