// The agents that run in a terminal and read and write the disk themselves, as the host suites drive them:
// each one's real CLI (a dev dependency) headless against a scripted fake model API served here, its file
// tools as the model calls them, and what its tools' results look like. Shared by the suite of their file
// tools through the gate (settingsFileAgents.test.ts) and the outcomes suite (test/outcomes): a new such
// agent is one entry of TERMINAL_AGENTS.
import { startFakeChatCompletions } from '../copilotCli/fakeChatCompletions';
import { startFakeGemini } from '../geminiCli/fakeGemini';
import { type RecordedRequest, type StepAnswer, startFakeAnthropic } from '../claudeCode/fakeAnthropic';
import { type ClaudeRun, describeRun as describeClaudeRun, makeClaudeHome, runClaude } from '../claudeCode/claudeCli';
import { linkWindowsRecords } from './helpers';
import { type RecordedRequest as CodexRequest, type StepAnswer as CodexStep, startFakeResponses } from '../codex/fakeResponses';
import { type CodexRun, codexConfig, describeRun as describeCodexRun, runCodex } from '../codex/codexCli';
import * as gemini from '../geminiCli/geminiCli';
import * as cline from '../cline/cline';
import * as opencode from '../opencode/opencode';
import * as pi from '../pi/pi';
import * as qwen from '../qwenCode/qwenCode';
import { type CopilotCliRun, describeCopilotRun, makeCopilotHome, runCopilotCli } from '../copilotCli/copilotCli';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { CliRun } from '../shared/cliProcess';

/** A call the model made, and what it was told of it (undefined while it is the last thing in the request). */
export interface Call {
  tool: string;
  args: Record<string, unknown>;
  result?: string;
}
/** One call of the model. */
export interface ToolCall {
  tool: string;
  args: Record<string, unknown>;
}
/** The model's answer: a call, several in one response (a parallel batch), or a closing text. */
export type Answer = ToolCall | { calls: ToolCall[] } | { text: string };

/** One step of a scripted run: an answer, or a function of the calls so far (it may wait, or check what came back). */
export type Step = Answer | ((calls: Call[]) => Answer | Promise<Answer>);

/** A refusal of ours, however the agent passes it to the model. */
export const REFUSED = /nothing was (written|applied)/;
/** Was this call refused by the gate? */
export const refused = (c: Call | undefined) => c?.result !== undefined && REFUSED.test(c.result);

/** One such agent as these tests drive it. */
export interface TerminalAgent {
  name: string;
  setting: string;
  /** where `workspace` puts our entries, under a folder (with `guardAt: 'user'`, under the OS home) */
  folderEntries: string;
  /** an agent that takes our entries only from its home (the Copilot CLI): its setting is `user` */
  guardAt?: 'user';
  /** its CLI's npm package (the version that ran) */
  cliPackage: string;
  /** how the extension stands in front of its tools, as the outcomes tables say it */
  guardedBy: string;
  /** its tools: a read, a replace of `old` by `new`, a whole-file write (none: it never overwrites a file, as Cline) */
  read: (file: string) => ToolCall;
  replace: (file: string, old: string, replacement: string) => ToolCall;
  write?: (file: string, content: string) => ToolCall;
  /** a new file, where it has no whole-file write */
  create?: (file: string, content: string) => ToolCall;
  /** a command of its shell tool, run in the folder it runs in (docs/design.md rule 16) */
  shell: (command: string) => ToolCall;
  /**
   * A call its own tool refuses by itself, though the gate lets it through (the outcomes' `own-tool-fails`), where that
   * is not a replace of a quote that stands twice in the file (`replace`, the default, which every other one refuses).
   */
  slip?: (file: string, copy: string, quote: string, replacement: string) => ToolCall;
  /** the file's text a read's result shows (default: the result as it is) */
  readText?: (result: string) => string;
  /** its read passes the file's bytes on as they are (Codex's `cat`): the model is shown a byte order mark as a character */
  readsBytes?: boolean;
  /** an edit's result that says it did not apply (the tool's own error) */
  failed: RegExp;
  /** it overwrites only a file it has read in the session itself, whatever the gate says (Qwen Code) */
  readsBeforeOverwrite: boolean;
  /** a private HOME for an offline run; `ours`: the text of our folder entries, there at user level (a terminal outside any window) */
  makeHome: (ours?: string) => string;
  /** an agent whose entries are merged into its settings file: that file under the home, and its settings for an offline run */
  settings?: { path: string; offline: () => Record<string, unknown> };
  /** its fake model API, answering each request that offers tools with `answer` of the calls so far */
  startFake: (answer: (calls: Call[]) => Promise<Answer>) => Promise<{ url: string; close(): Promise<void> }>;
  run: (o: { cwd: string; prompt: string; baseUrl: string; home: string; env?: Record<string, string> }) => Promise<CliRun>;
  describe: (run: CliRun) => string;
  /** one call of several of its edits (a patch over several files), where it has one */
  together?: (calls: ToolCall[]) => ToolCall;
  /** a folder it leaves in a folder it ran in beside ours (opencode installs its plugin package into `.opencode`) */
  leavesInFolder?: string;
}

/**
 * A change to a file whose text was `before`, to `after`, without reading it: a whole-file write where the agent
 * has one, else a replace of all of it.
 */
export const blindEdit = (agent: TerminalAgent, file: string, before: string, after: string): ToolCall =>
  agent.write ? agent.write(file, after) : agent.replace(file, before.trimEnd(), after.trimEnd());

/** Our hook entries in a settings file's text, as the user level of a private HOME holds them. */
const hooksOf = (ours: string | undefined) => (ours === undefined ? {} : { hooks: JSON.parse(ours).hooks });

export const TERMINAL_AGENTS: TerminalAgent[] = [
  {
    name: 'Gemini CLI',
    cliPackage: '@google/gemini-cli',
    guardedBy: 'its hooks',
    failed: /^Error|Failed to edit|could not find/i,
    setting: 'guardGeminiCli',
    folderEntries: '.gemini/settings.json',
    read: (file) => ({ tool: 'read_file', args: { file_path: file } }),
    replace: (file, old, replacement) => ({
      tool: 'replace',
      args: { file_path: file, old_string: old, new_string: replacement, instruction: 'as asked' },
    }),
    write: (file, content) => ({ tool: 'write_file', args: { file_path: file, content } }),
    shell: (command) => ({ tool: 'run_shell_command', args: { command, description: 'as asked' } }),
    readsBeforeOverwrite: false,
    makeHome: (ours) => gemini.makeGeminiHome(hooksOf(ours)),
    settings: { path: '.gemini/settings.json', offline: gemini.offlineSettings },
    startFake: (answer) => startFakeGemini((request) => answer(request.calls)),
    run: gemini.runGeminiCli,
    describe: gemini.describeGeminiRun,
  },
  {
    name: 'Qwen Code',
    cliPackage: '@qwen-code/qwen-code',
    guardedBy: 'its hooks',
    failed: /^Error|Failed to edit|could not find|has been modified since you last read|has not been read in this session/i,
    setting: 'guardQwenCode',
    folderEntries: '.qwen/settings.json',
    read: (file) => ({ tool: 'read_file', args: { file_path: file } }),
    replace: (file, old, replacement) => ({ tool: 'edit', args: { file_path: file, old_string: old, new_string: replacement } }),
    write: (file, content) => ({ tool: 'write_file', args: { file_path: file, content } }),
    shell: (command) => ({ tool: 'run_shell_command', args: { command, description: 'as asked', is_background: false } }),
    readsBeforeOverwrite: true,
    makeHome: (ours) => qwen.makeQwenHome(hooksOf(ours)),
    settings: { path: '.qwen/settings.json', offline: qwen.offlineSettings },
    startFake: (answer) => startFakeChatCompletions((request) => answer(request.calls)),
    run: qwen.runQwenCode,
    describe: qwen.describeQwenRun,
  },
  {
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
    makeHome: pi.makePiHome,
    startFake: (answer) => startFakeChatCompletions((request) => answer(request.calls)),
    run: pi.runPi,
    describe: pi.describePiRun,
  },
  {
    name: 'Cline',
    cliPackage: 'cline',
    guardedBy: 'our plugin',
    failed: /^Error|could not find|not found|operation failed/i,
    create: (file, content) => ({ tool: 'editor', args: { path: file, new_text: content } }),
    // `[{"query": <path>, "result": "1 | line\n2 | line", "success": true}]`: numbered lines, the final line break not shown
    readText: (result) => {
      const [first] = JSON.parse(result) as Array<{ result?: string }>;
      return `${(first?.result ?? '').replace(/^\d+ \| /gm, '')}\n`;
    },
    setting: 'guardCline',
    folderEntries: '.cline/plugins/agent-edit-guard.js',
    read: (file) => ({ tool: 'read_files', args: { files: [{ path: file }] } }),
    replace: (file, old, replacement) => ({ tool: 'editor', args: { path: file, old_text: old, new_text: replacement } }),
    shell: (command) => ({ tool: 'run_commands', args: { commands: [command] } }),
    readsBeforeOverwrite: false,
    makeHome: cline.makeClineHome,
    // a skipped call's result is `{"error": <reason>}`
    startFake: (answer) => startFakeChatCompletions((request) => answer(request.calls.map(unwrapError))),
    run: cline.runCline,
    describe: cline.describeClineRun,
  },
  {
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
    makeHome: opencode.makeOpencodeHome,
    startFake: (answer) => startFakeChatCompletions((request) => answer(request.calls)),
    run: opencode.runOpencode,
    describe: opencode.describeOpencodeRun,
    leavesInFolder: '.opencode',
  },
];

/**
 * The GitHub Copilot CLI: its hooks are the Copilot harness's, which the extension writes at user level
 * (`guardCopilotTools: user`, ~/.copilot/hooks) and its private home links in. It has no whole-file write.
 */
export const COPILOT_CLI: TerminalAgent = {
  name: 'Copilot CLI',
  cliPackage: '@github/copilot',
  guardedBy: 'its hooks',
  failed: /^Error|No match|not found|failed|already exists/i,
  setting: 'guardCopilotTools',
  folderEntries: '.copilot/hooks/agent-edit-guard.json',
  guardAt: 'user',
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
};

/** A numbered line of Claude Code's Read, as its model sees it (`N<tab>text`). */
const CLAUDE_NUMBERED = /^ *\d+\t(.*)$/;

/**
 * Claude Code: its hook entries go into a folder's `.claude/settings.local.json`; its private home links in the
 * windows' records, as a terminal outside the editor would have them. A Read shows `N<tab>line` lines, the empty
 * line after the final line break numbered too.
 */
export const CLAUDE_CODE: TerminalAgent = {
  name: 'Claude Code',
  cliPackage: '@anthropic-ai/claude-code',
  guardedBy: 'its hooks',
  failed: /tool_use_error|not found|has been modified|has not been read/i,
  setting: 'guardClaudeCode',
  folderEntries: '.claude/settings.local.json',
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
  describe: (run) => describeClaudeRun(run as ClaudeRun),
};

/** A patch of Codex's `apply_patch`: the file's lines `old` made `replacement` (each quote is whole lines), or a new file. */
function codexPatch(file: string, old: string | undefined, replacement: string): string {
  const lines = (text: string, sign: string) =>
    text
      .replace(/\n$/, '')
      .split('\n')
      .map((l) => `${sign}${l}`);
  const body =
    old === undefined
      ? [`*** Add File: ${file}`, ...lines(replacement, '+')]
      : [`*** Update File: ${file}`, '@@', ...lines(old, '-'), ...lines(replacement, '+')];
  return ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');
}

/** Several of those patches as one: their file sections between one Begin and End. */
const joinCodexPatches = (patches: string[]) =>
  [
    '*** Begin Patch',
    ...patches.flatMap((p) => p.split('\n').filter((l) => l !== '' && !/^\*\*\* (Begin|End) Patch$/.test(l))),
    '*** End Patch',
    '',
  ].join('\n');

/** Codex's home as the outcomes run it: ~/.codex of the run folder, where the extension writes its user-level hooks. */
const codexHome = () => path.join(os.homedir(), '.codex');

/**
 * Codex: it reads through its shell (`cat`) and changes files with `apply_patch`; its hooks are the ones the
 * extension merges into `~/.codex/hooks.json` (`guardCodex: user`), trusted in `config.toml`, next to the
 * provider settings written here as a user would. Its scripted model answers one call per response.
 */
export const CODEX: TerminalAgent = {
  name: 'Codex',
  cliPackage: '@openai/codex',
  guardedBy: 'its hooks',
  failed: /^Error|failed|verification|invalid patch/i,
  setting: 'guardCodex',
  folderEntries: '.codex/hooks.json',
  guardAt: 'user',
  readsBytes: true,
  read: (file) => ({ tool: 'shell', args: { cmd: `cat '${file}'` } }),
  replace: (file, old, replacement) => ({ tool: 'apply_patch', args: { patch: codexPatch(file, old, replacement) } }),
  create: (file, content) => ({ tool: 'apply_patch', args: { patch: codexPatch(file, undefined, content) } }),
  shell: (command) => ({ tool: 'shell', args: { cmd: command } }),
  // its patch applies a quote that stands twice at the first match: a line the file does not hold fails it ("Failed to find")
  slip: (file, _copy, quote, replacement) => ({
    tool: 'apply_patch',
    args: { patch: codexPatch(file, `${quote} # as remembered`, replacement) },
  }),
  // the shell's output follows its own header lines, after `Output:`
  readText: (result) => {
    const at = result.indexOf('Output:\n');
    return at < 0 ? result : result.slice(at + 'Output:\n'.length);
  },
  together: (calls) => ({
    tool: 'apply_patch',
    args: { patch: joinCodexPatches(calls.map((c) => String(c.args.patch))) },
  }),
  readsBeforeOverwrite: false,
  makeHome: codexHome,
  async startFake(answer) {
    const fake = await startFakeResponses();
    fs.mkdirSync(codexHome(), { recursive: true });
    fs.writeFileSync(path.join(codexHome(), 'config.toml'), codexConfig({ baseUrl: fake.baseUrl }));
    /** the calls answered so far, by the id given to each */
    const asked = new Map<string, ToolCall>();
    const step = async (request: CodexRequest): Promise<CodexStep> => {
      const seen = request.outputs.flatMap(({ callId, output }) => {
        const call = asked.get(callId);
        return call ? [{ ...call, result: output }] : [];
      });
      const a = await answer(seen);
      if ('text' in a) return { text: a.text };
      if ('calls' in a) throw new Error('the scripted Responses server answers one call per response');
      const id = `outcome_${asked.size + 1}`;
      asked.set(id, a);
      return a.tool === 'shell' ? { shell: String(a.args.cmd), id } : { patch: String(a.args.patch), id };
    };
    fake.script(Array.from({ length: 100 }, () => step));
    return {
      url: fake.baseUrl,
      async close() {
        await fake.close();
        fs.rmSync(codexHome(), { recursive: true, force: true });
      },
    };
  },
  run: ({ cwd, prompt, home, env }) => runCodex({ cwd, prompt, home, osHome: os.homedir(), env }),
  describe: (run) => describeCodexRun(run as CodexRun),
};

/** A call whose result is an agent's JSON error object, with the error's own text as its result. */
export function unwrapError(call: Call): Call {
  try {
    const error = (JSON.parse(call.result ?? '') as { error?: unknown }).error;
    return typeof error === 'string' ? { ...call, result: error } : call;
  } catch {
    return call;
  }
}
