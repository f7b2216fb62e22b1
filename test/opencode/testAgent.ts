// opencode as the shared suites drive it (test/shared/testAgent.ts): our plugin in its plugin folder, its tools as
// its model calls them (test/opencode/FACTS.md), against the scripted Chat Completions API.
import { startFakeChatCompletions } from '../copilotCli/fakeChatCompletions';
import type { TestAgent } from '../shared/testAgent';
import { describeOpencodeRun, makeOpencodeHome, runOpencode } from './opencode';
import { eventsTest } from './events';

export const testAgent: TestAgent = {
  name: 'opencode',
  cliPackage: 'opencode-ai',
  guardedBy: 'our plugin',
  failed: /^Error|could not find|not found|Found multiple matches/i,
  // `<path>…</path><type>file</type><content>` then `1: line` lines, then `(End of file - total N lines)`
  readText: (result) => {
    const content = /<content>\n([\s\S]*?)\n<\/content>/.exec(result)?.[1] ?? '';
    return `${content
      .split('\n')
      .flatMap((l) => /^\d+: ?(.*)$/.exec(l)?.slice(1, 2) ?? [])
      .join('\n')}\n`;
  },
  setting: 'guardOpencode',
  folderEntries: '.opencode/plugin/agent-edit-guard.js',
  read: (file) => ({ tool: 'read', args: { filePath: file } }),
  replace: (file, old, replacement) => ({ tool: 'edit', args: { filePath: file, oldString: old, newString: replacement } }),
  write: (file, content) => ({ tool: 'write', args: { filePath: file, content } }),
  shell: (command) => ({ tool: 'bash', args: { command, description: 'as asked' } }),
  readsBeforeOverwrite: false,
  makeHome: makeOpencodeHome,
  startFake: (answer) => startFakeChatCompletions((request) => answer(request.calls)),
  run: runOpencode,
  describe: describeOpencodeRun,
  events: eventsTest,
  leavesInFolder: '.opencode',
};
