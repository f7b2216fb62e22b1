// Gemini CLI as the shared suites drive it (test/shared/testAgent.ts): its hook entries merged into its settings
// file, its tools as its model calls them (test/geminiCli/FACTS.md), against the scripted Gemini API (fakeGemini.ts).
import { hooksOf, type TestAgentFacts } from '../shared/testAgent';
import { startFakeGemini } from './fakeGemini';
import { describeGeminiRun, makeGeminiHome, offlineSettings, runGeminiCli } from './geminiCli';
import { eventsTest } from './events';

export const testAgent: TestAgentFacts = {
  cliPackage: '@google/gemini-cli',
  guardedBy: 'its hooks',
  failed: /^Error|Failed to edit|could not find/i,
  read: (file) => ({ tool: 'read_file', args: { file_path: file } }),
  replace: (file, old, replacement) => ({
    tool: 'replace',
    args: { file_path: file, old_string: old, new_string: replacement, instruction: 'as asked' },
  }),
  write: (file, content) => ({ tool: 'write_file', args: { file_path: file, content } }),
  shell: (command) => ({ tool: 'run_shell_command', args: { command, description: 'as asked' } }),
  readsBeforeOverwrite: false,
  makeHome: (ours) => makeGeminiHome(hooksOf(ours)),
  settings: { path: '.gemini/settings.json', offline: offlineSettings },
  startFake: (answer) => startFakeGemini((request) => answer(request.calls)),
  run: runGeminiCli,
  describe: describeGeminiRun,
  events: eventsTest,
  bench: {
    id: 'gemini',
    hooks: {
      events: { pre: 'BeforeTool', post: 'AfterTool' },
      shell: { program: 'bash', args: ['-c'], label: 'bash -c' },
      env: (ws) => ({ GEMINI_PROJECT_DIR: ws, GEMINI_CWD: ws, CLAUDE_PROJECT_DIR: ws }),
      denies: (out) => /"decision"\s*:\s*"deny"/.test(out),
    },
  },
};
