// The GitHub Copilot CLI as the shared suites drive it (test/shared/testAgent.ts): its hooks are the Copilot
// harness's, which the extension writes at user level (`guardCopilotTools: user`, ~/.copilot/hooks) and its private
// home links in. It has no whole-file write. Its tools as its model calls them: test/copilotCli/FACTS.md.
import * as os from 'node:os';
import * as path from 'node:path';
import { KEEPS_BY, type TestAgentFacts } from '../shared/testAgent';
import { type CopilotCliRun, describeCopilotRun, makeCopilotHome, runCopilotCli } from './copilotCli';
import { startFakeChatCompletions } from './fakeChatCompletions';

export const testAgent: TestAgentFacts = {
  cliPackage: '@github/copilot',
  guardedBy: 'its hooks',
  failed: /^Error|No match|not found|failed|already exists/i,
  folderEntries: '.copilot/hooks/agent-edit-guard.json',
  guardAt: 'user',
  hostSuite: "test/integration/concurrentWriters.test.ts, and test/harness on the same runtime (the setting is Copilot's)",
  read: (file) => ({ tool: 'view', args: { path: file } }),
  replace: (file, old, replacement) => ({ tool: 'edit', args: { path: file, old_str: old, new_str: replacement } }),
  create: (file, content) => ({ tool: 'create', args: { path: file, file_text: content } }),
  shell: (command) => ({ tool: 'bash', args: { command, description: 'as asked' } }),
  // its create makes only new files ("Path already exists"): the call its runtime failed after the gate let it through
  slip: (file, copy, quote, replacement) => ({ tool: 'create', args: { path: file, file_text: copy.replace(quote, replacement) } }),
  readsBeforeOverwrite: false,
  makeHome: () => makeCopilotHome(path.join(os.homedir(), '.copilot', 'hooks')),
  startFake: (answer) => startFakeChatCompletions((request) => answer(request.calls)),
  run: ({ cwd, prompt, baseUrl, home, env }) => runCopilotCli({ cwd, prompt, baseUrl, home, env }),
  describe: (run) => describeCopilotRun(run as CopilotCliRun),
  outcomes: {
    keeps: {
      'between-requests': KEEPS_BY.exactMatch,
      formatter: "its edit matches the quote under the formatter's indentation and writes the new line in it",
      parallel: KEEPS_BY.exactMatch,
      'never-read': 'its create refuses a file that exists; the model reads it, then edits',
    },
  },
};
