// Claude Code as the shared suites drive it (test/shared/testAgent.ts), against the scripted Messages API
// (fakeAnthropic.ts); what its hooks receive is in test/claudeCode/FACTS.md.
import { CLAUDE_HOOK_PROTOCOL, KEEPS_BY, linkWindowsRecords, type TestAgentFacts } from '../shared/testAgent';
import { type ClaudeRun, describeRun, makeClaudeHome, runClaude } from './claudeCli';
import { type RecordedRequest, type StepAnswer, startFakeAnthropic } from './fakeAnthropic';
import { eventsTest } from './events';

/** A numbered line of Claude Code's Read, as its model sees it (`N<tab>text`). */
const CLAUDE_NUMBERED = /^ *\d+\t(.*)$/;

/**
 * Claude Code: its hook entries go into a folder's `.claude/settings.local.json`; its private home links in the
 * windows' entries, as a terminal outside the editor would have them. A Read shows `N<tab>line` lines, the empty
 * line after the final line break numbered too.
 */
export const testAgent: TestAgentFacts = {
  cliPackage: '@anthropic-ai/claude-code',
  guardedBy: 'its hooks',
  failed: /tool_use_error|not found|has been modified|has not been read/i,
  hostSuite: 'test/integration/claudeCode.test.ts',
  read: (file) => ({ tool: 'Read', args: { file_path: file } }),
  replace: (file, old, replacement) => ({ tool: 'Edit', args: { file_path: file, old_string: old, new_string: replacement } }),
  write: (file, content) => ({ tool: 'Write', args: { file_path: file, content } }),
  shell: (command) => ({ tool: 'Bash', args: { command, description: 'as asked' } }),
  readText: (result) => {
    const lines = result.split('\n').flatMap((l) => CLAUDE_NUMBERED.exec(l)?.slice(1, 2) ?? []);
    if (lines.at(-1) === '') lines.pop();
    return `${lines.join('\n')}\n`;
  },
  readsBeforeOverwrite: true,
  makeHome: () => linkWindowsRecords(makeClaudeHome()),
  async startFake(answer) {
    const fake = await startFakeAnthropic();
    const step = async (request: RecordedRequest): Promise<StepAnswer> => {
      const seen = request.toolResults.map((r) => ({ tool: r.name ?? '?', args: r.input ?? {}, result: r.text }));
      const a = await answer(seen);
      if ('text' in a) return { text: a.text };
      if ('calls' in a) return { calls: a.calls.map((c) => ({ tool: c.tool, input: c.args })) };
      return { tool: a.tool, input: a.args };
    };
    // one turn: each of its model requests takes the next step
    fake.script(Array.from({ length: 100 }, () => step));
    return { url: fake.url, close: () => fake.close() };
  },
  // Bash allowed, as many users run it: `acceptEdits` alone asks before a command it does not know (`sh script.sh`)
  run: ({ cwd, prompt, baseUrl, home, env }) => runClaude({ cwd, prompt, baseUrl, home, env, extraArgs: ['--allowedTools', 'Bash'] }),
  describe: (run) => describeRun(run as ClaudeRun),
  shellWrites: { hookTool: 'Bash' },
  events: eventsTest,
  bench: {
    id: 'claude',
    hooks: {
      ...CLAUDE_HOOK_PROTOCOL,
      // Node's `spawn(command, { shell: true })`, as its hook runner does: /bin/sh -c
      shell: { program: '/bin/sh', args: ['-c'], label: 'sh -c' },
      env: (ws) => ({ CLAUDE_PROJECT_DIR: ws, CLAUDECODE: '1' }),
    },
  },
  outcomes: {
    keeps: { 'between-requests': KEEPS_BY.modifiedSinceRead, formatter: KEEPS_BY.modifiedSinceRead, parallel: KEEPS_BY.exactMatch },
  },
};
