// pi as the shared suites drive it (test/shared/testAgent.ts): our extension of it in its extensions folder, its
// tools as its model calls them (test/pi/FACTS.md), against the scripted Chat Completions API.
import { startFakeChatCompletions } from '../copilotCli/fakeChatCompletions';
import { KEEPS_BY, type TestAgent } from '../shared/testAgent';
import { describePiRun, makePiHome, runPi } from './pi';
import { eventsTest } from './events';

export const testAgent: TestAgent = {
  name: 'pi',
  cliPackage: '@mariozechner/pi-coding-agent',
  guardedBy: 'our extension of it',
  failed: /^Error|could not find|must be unique/i,
  setting: 'guardPi',
  folderEntries: '.pi/extensions/agent-edit-guard.js',
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
  outcomes: { keeps: { 'between-requests': KEEPS_BY.exactMatch, formatter: KEEPS_BY.exactMatch, parallel: KEEPS_BY.exactMatch } },
};
