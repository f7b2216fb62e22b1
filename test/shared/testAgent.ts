// The test side of an agent that runs in a terminal and reads and writes the disk itself, one shape for all:
// its real CLI (a dev dependency) headless against a scripted fake model API served by the test, its file tools
// as the model calls them, what its tools' results look like, and the facts the shared suites need of it. Each
// such agent's folder holds one, `test/<agent>/testAgent.ts` exporting `testAgent` (test/shared/testAgents.ts
// finds them); the host suites of their file tools (test/integration/settingsFileAgents.test.ts), the outcomes
// suite (test/outcomes) and the bench read them and name no agent. Plain Node: the agents' folders type-check
// without `vscode`.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CliRun } from './cliProcess';

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

/**
 * One such agent as the tests drive it. Its name, its setting and where `workspace` puts its entries are its
 * descriptor's (src/agents/<agent>/node/agent.ts), joined in by test/shared/testAgents.ts: written once.
 */
export interface TestAgent extends TestAgentFacts {
  name: string;
  setting: string;
  /** where `workspace` puts our entries, under a folder (with `guardAt: 'user'`, under the OS home) */
  folderEntries: string;
}

/** What an agent's test folder says of it (test/<agent>/testAgent.ts). */
export interface TestAgentFacts {
  /** where its entries are when not where its descriptor's `workspace` puts them (the Copilot CLI's, under the home) */
  folderEntries?: string;
  /** an agent that takes our entries only from its home (the Copilot CLI): its setting is `user` */
  guardAt?: 'user';
  /**
   * The host suite of its own, which covers what the shared one of terminal agents' file tools
   * (test/integration/settingsFileAgents.test.ts) would: that suite leaves it out.
   */
  hostSuite?: string;
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
  /** its test in the unit suite of agents' hook events (test/unit/agentEvents.test.ts): its payloads as the router reads them */
  events?: EventsTest;
  /**
   * How the suite of shell writes (test/integration/shellWrites.test.ts) drives its shell, where it runs over it: its
   * shell tool's name as its hooks report it (the tool of the record of a file the shell wrote), a command that
   * writes `text` over the whole of `rel`, a path relative to the folder it runs in (default: a quoted heredoc), and
   * what to wait for before its first run, beside our entries and the bridge.
   */
  shellWrites?: { hookTool: string; overwrite?: (rel: string, text: string) => string; ready?: () => boolean };
  /** the bench's facts of it (bench/host): the rows' id part, and how it runs our hook commands or loads our plugin */
  bench?: { id: string; hooks?: BenchHooks; plugin?: BenchPlugin };
  /** a folder it leaves in a folder it ran in beside ours (opencode installs its plugin package into `.opencode`) */
  leavesInFolder?: string;
  /**
   * The outcomes suite's facts of it, by scenario id: what its scripted run cannot express (`cannot`), and what it
   * keeps unguarded by a check of its own (`keeps`, seen in those runs), each with why.
   */
  outcomes?: { cannot?: Record<string, string>; keeps?: Record<string, string> };
}

/** An agent's test of its hook events: its title, and its assertions (plain Node, no host). */
export interface EventsTest {
  title: string;
  run(): void;
}

/**
 * A payload as our in-process plugins send an agent's events (pi, Cline, opencode: VS Code-format payloads,
 * src/hooks/windowClient.ts `askWindow`), of one chat started in `/ws`.
 */
export const pluginPayload =
  (chat: string) =>
  (event: string, fields: Record<string, unknown> = {}) => ({ session_id: chat, cwd: '/ws', hook_event_name: event, ...fields });

/**
 * How an agent whose hook entries sit in its settings file runs a hook command, as read in its installed package
 * (the bench's round trips, bench/host/hooks.ts; its read and edit payloads are its `read` and `replace` calls).
 */
export interface BenchHooks {
  events: { pre: string; post: string };
  /** the program and the arguments before the command */
  shell: { program: string; args: string[]; label: string };
  /** what it adds to the environment (its project folder variables) */
  env(ws: string): Record<string, string>;
  /** its hook's output says the call is denied */
  denies(stdout: string): boolean;
}

/** The hook protocol of Claude Code's settings, which Qwen Code's follow: its events before and after a tool, and its deny. */
export const CLAUDE_HOOK_PROTOCOL: Pick<BenchHooks, 'events' | 'denies'> = {
  events: { pre: 'PreToolUse', post: 'PostToolUse' },
  denies: (out) => /"permissionDecision"\s*:\s*"deny"/.test(out),
};

/** An agent's in-process plugin as the bench drives it (bench/host/plugins.ts): its hooks for a chat, each answering whether the call was refused. */
export interface BenchPlugin {
  /** how the labels name it ("pi's extension") */
  name: string;
  /** the plugin loaded from our file in its user folder, as the agent loads it */
  load(file: string): {
    prompt(chat: string): Promise<unknown>;
    beforeRead(chat: string, file: string, call: string): Promise<boolean>;
    afterRead(chat: string, file: string, call: string): Promise<unknown>;
    beforeEdit(chat: string, file: string, call: string): Promise<boolean>;
    /** the edit's result: it settles the call, so the file is free for the chat's next edit (rule 14) */
    afterEdit(chat: string, file: string, call: string): Promise<unknown>;
  };
}

/** What an agent keeps by a check of its own (TestAgent `outcomes.keeps`), as several agents' tools do it. */
export const KEEPS_BY = {
  exactMatch: 'its edit finds no exact match for the old copy and fails; the model reads again',
  modifiedSinceRead: 'its own check: the file changed since its read, so the edit fails and the model reads again',
} as const;

/**
 * A change to a file whose text was `before`, to `after`, without reading it: a whole-file write where the agent
 * has one, else a replace of all of it.
 */
export const blindEdit = (agent: TestAgent, file: string, before: string, after: string): ToolCall =>
  agent.write ? agent.write(file, after) : agent.replace(file, before.trimEnd(), after.trimEnd());

/** Our hook entries in a settings file's text, as the user level of a private HOME holds them. */
export const hooksOf = (ours: string | undefined) => (ours === undefined ? {} : { hooks: JSON.parse(ours).hooks });

/** A call whose result is an agent's JSON error object, with the error's own text as its result. */
export function unwrapError(call: Call): Call {
  try {
    const error = (JSON.parse(call.result ?? '') as { error?: unknown }).error;
    return typeof error === 'string' ? { ...call, result: error } : call;
  } catch {
    return call;
  }
}

/**
 * Makes `home` a home as from an external terminal: none of this window's environment, but the same OS
 * user's windows' entries (src/hooks/discovery.ts) as this window's home holds, linked in.
 */
export function linkWindowsRecords(home: string): string {
  const records = path.join(os.homedir(), '.cache', 'agent-edit-guard', 'windows');
  fs.mkdirSync(path.join(home, '.cache', 'agent-edit-guard'), { recursive: true });
  fs.symlinkSync(records, path.join(home, '.cache', 'agent-edit-guard', 'windows'), 'dir');
  return home;
}
