// Qwen Code as the shared suites drive it (test/shared/testAgent.ts): its hook entries merged into its settings
// file, its tools as its model calls them (test/qwenCode/FACTS.md), against the scripted Chat Completions API.
import { startFakeChatCompletions } from '../copilotCli/fakeChatCompletions';
import { CLAUDE_HOOK_PROTOCOL, hooksOf, KEEPS_BY, type TestAgentFacts } from '../shared/testAgent';
import { describeQwenRun, makeQwenHome, offlineSettings, runQwenCode } from './qwenCode';
import { eventsTest } from './events';

export const testAgent: TestAgentFacts = {
  cliPackage: '@qwen-code/qwen-code',
  guardedBy: 'its hooks',
  failed: /^Error|Failed to edit|could not find|has been modified since you last read|has not been read in this session/i,
  read: (file) => ({ tool: 'read_file', args: { file_path: file } }),
  replace: (file, old, replacement) => ({ tool: 'edit', args: { file_path: file, old_string: old, new_string: replacement } }),
  write: (file, content) => ({ tool: 'write_file', args: { file_path: file, content } }),
  shell: (command) => ({ tool: 'run_shell_command', args: { command, description: 'as asked', is_background: false } }),
  readsBeforeOverwrite: true,
  makeHome: (ours) => makeQwenHome(hooksOf(ours)),
  settings: { path: '.qwen/settings.json', offline: offlineSettings },
  startFake: (answer) => startFakeChatCompletions((request) => answer(request.calls)),
  run: runQwenCode,
  describe: describeQwenRun,
  events: eventsTest,
  bench: {
    id: 'qwen',
    hooks: {
      ...CLAUDE_HOOK_PROTOCOL,
      shell: { program: 'bash', args: ['-c'], label: 'bash -c' },
      env: (ws) => ({ GEMINI_PROJECT_DIR: ws, CLAUDE_PROJECT_DIR: ws, QWEN_PROJECT_DIR: ws }),
    },
  },
  outcomes: {
    keeps: {
      'between-requests': KEEPS_BY.modifiedSinceRead,
      formatter: KEEPS_BY.modifiedSinceRead,
      parallel: KEEPS_BY.exactMatch,
      'never-read': 'its own check: it edits only a file it has read in the session; the model reads first',
    },
  },
};
