// Runs the real Claude Code CLI (the dev dependency @anthropic-ai/claude-code) headless against a model
// server the test serves (test/claudeCode/fakeAnthropic.ts), offline, with a private home and config directory
// so nothing reads or writes the user's ~/.claude. Only Node's own modules.
//
//   runClaude({ cwd, prompt, baseUrl, … })   one `claude -p` run; resolves with the stream-json events
//   claudeSession({ cwd, baseUrl, … })       prompts that continue one session (--resume <session_id>),
//                                            `/compact` included
//
// The binary: the wrapper package's optional dependency for this platform
// (@anthropic-ai/claude-code-linux-x64 etc.) holds the native executable. We start that file directly, so
// neither the wrapper's postinstall (which copies it over bin/claude.exe) nor any download has to run.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { baseEnvironment, type JsonCliRun, runJsonCli } from '../shared/cliProcess';

/** One line of `--output-format stream-json`, parsed (system/init, assistant, user, result, …). */
export interface StreamEvent {
  type: string;
  subtype?: string;
  session_id?: string;
  [key: string]: unknown;
}

export interface ClaudeRun extends JsonCliRun<StreamEvent> {
  /** the session id (from the system/init or result event) */
  sessionId?: string;
  /** the final `result` event, if the CLI printed one */
  result?: StreamEvent;
  /** the private home the run used (pass it on to continue the session) */
  home: string;
}

export interface ClaudeOptions {
  /** the working directory: the project Claude Code works in */
  cwd: string;
  prompt: string;
  /** ANTHROPIC_BASE_URL, e.g. the fake's url */
  baseUrl?: string;
  /** more environment variables (they win over the defaults) */
  env?: Record<string, string>;
  /** a settings file (or JSON text) passed as --settings: where a test's hooks go */
  settingsFile?: string;
  /** the private home (HOME; CLAUDE_CONFIG_DIR is <home>/.claude); a new temporary one when absent */
  home?: string;
  /** continue this session (--resume <id>) */
  resume?: string;
  /** default acceptEdits: Read, Edit and Write run without a prompt (root may not bypass permissions) */
  permissionMode?: string;
  extraArgs?: string[];
  /** default 60 s; the run is killed (its process group) after it */
  timeoutMs?: number;
}

/** The platform package's name suffix, as the wrapper's install.cjs picks it. */
function platformKey(): string {
  if (process.platform === 'linux') {
    const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
    const musl = report !== undefined && report.header?.glibcVersionRuntime === undefined;
    return `linux-${process.arch}${musl ? '-musl' : ''}`;
  }
  return `${process.platform}-${process.arch}`;
}

let binary: string | undefined;

/** The native Claude Code executable in node_modules (throws, saying what to install, when it is absent). */
export function claudeBinary(): string {
  if (binary) return binary;
  const pkg = `@anthropic-ai/claude-code-${platformKey()}`;
  let dir: string;
  try {
    // a computed name: a bundler must leave this lookup to run time
    dir = path.dirname(require.resolve(`${pkg}/package.json`, { paths: [process.cwd(), __dirname] }));
  } catch {
    throw new Error(`${pkg} is not installed: run npm ci (it is an optional dependency of the dev dependency @anthropic-ai/claude-code)`);
  }
  const exe = path.join(dir, process.platform === 'win32' ? 'claude.exe' : 'claude');
  if (!fs.existsSync(exe)) throw new Error(`${exe} is missing`);
  binary = exe;
  return exe;
}

/** A new private home for Claude Code: its config dir (.claude) and its temporary dir (tmp) inside. */
export function makeClaudeHome(): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'editguard-claude-home-'));
  fs.mkdirSync(path.join(home, '.claude'));
  fs.mkdirSync(path.join(home, 'tmp'), { mode: 0o700 });
  return home;
}

/**
 * The environment of a run: not the caller's (it may carry ANTHROPIC_* keys, or CLAUDECODE when the tests
 * run inside Claude Code), only PATH and locale, then offline switches, then `extra`.
 */
export function claudeEnv(home: string, baseUrl: string | undefined, extra: Record<string, string> = {}): Record<string, string> {
  const env = baseEnvironment();
  Object.assign(env, {
    HOME: home,
    USERPROFILE: home,
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
    // else it keeps per-session notes in /tmp/claude-<uid> and its messaging socket in /tmp/cc-socks
    CLAUDE_CODE_TMPDIR: path.join(home, 'tmp'),
    XDG_RUNTIME_DIR: path.join(home, 'tmp'),
    ANTHROPIC_API_KEY: 'sk-ant-fake-key-for-tests',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  });
  if (baseUrl) env.ANTHROPIC_BASE_URL = baseUrl;
  return Object.assign(env, extra);
}

/** One headless run: `claude -p <prompt> --output-format stream-json --verbose --permission-mode acceptEdits …`. */
export async function runClaude(options: ClaudeOptions): Promise<ClaudeRun> {
  // first, so a missing binary leaves no temporary home behind
  const exe = claudeBinary();
  const home = options.home ?? makeClaudeHome();
  for (const dir of ['.claude', 'tmp']) fs.mkdirSync(path.join(home, dir), { recursive: true, mode: 0o700 });
  const args = [
    '-p',
    options.prompt,
    '--output-format',
    'stream-json',
    '--verbose',
    '--permission-mode',
    options.permissionMode ?? 'acceptEdits',
  ];
  if (options.settingsFile) args.push('--settings', options.settingsFile);
  if (options.resume) args.push('--resume', options.resume);
  args.push(...(options.extraArgs ?? []));
  const env = claudeEnv(home, options.baseUrl, options.env);
  const run = await runJsonCli<StreamEvent>({ exe, args, cwd: options.cwd, env, timeoutMs: options.timeoutMs ?? 60000 });
  const result = run.events.filter((e) => e.type === 'result').at(-1);
  const sessionId = run.events.find((e) => typeof e.session_id === 'string')?.session_id;
  return { ...run, sessionId, result, home };
}

export interface ClaudeSession {
  /** the session id, once the first prompt ran */
  readonly id: string | undefined;
  readonly home: string;
  readonly runs: ClaudeRun[];
  /** the next prompt of the session (the first starts it, later ones --resume it) */
  prompt(text: string, extraArgs?: string[]): Promise<ClaudeRun>;
  /** `/compact` in the session (headless: `-p /compact --resume <id>`); fires PreCompact with trigger "manual" */
  compact(instructions?: string): Promise<ClaudeRun>;
}

/** A conversation of several headless runs in one session and one private home. */
export function claudeSession(options: Omit<ClaudeOptions, 'prompt' | 'resume'>): ClaudeSession {
  const home = options.home ?? makeClaudeHome();
  const runs: ClaudeRun[] = [];
  let id: string | undefined;
  const prompt = async (text: string, extraArgs: string[] = []) => {
    const run = await runClaude({ ...options, home, prompt: text, resume: id, extraArgs: [...(options.extraArgs ?? []), ...extraArgs] });
    runs.push(run);
    id ??= run.sessionId;
    return run;
  };
  return {
    get id() {
      return id;
    },
    home,
    runs,
    prompt,
    compact: (instructions) => {
      if (!id) throw new Error('compact() needs a session: run a prompt first');
      return prompt(instructions ? `/compact ${instructions}` : '/compact');
    },
  };
}

/** The tool_use blocks of the run's assistant events, in order: { id, name, input }. */
export function toolUses(run: ClaudeRun): Array<{ id: string; name: string; input: Record<string, unknown> }> {
  const out: Array<{ id: string; name: string; input: Record<string, unknown> }> = [];
  for (const e of run.events) {
    if (e.type !== 'assistant') continue;
    const content = (e.message as { content?: Array<Record<string, unknown>> } | undefined)?.content ?? [];
    for (const b of content)
      if (b.type === 'tool_use') out.push({ id: String(b.id), name: String(b.name), input: b.input as Record<string, unknown> });
  }
  return out;
}

/** A one-line account of a run for an assertion message: exit, time, result, the end of stderr. */
export function describeRun(run: ClaudeRun): string {
  const res = run.result
    ? ` result=${JSON.stringify({ subtype: run.result.subtype, is_error: run.result.is_error, result: run.result.result })}`
    : ' no result event';
  return `claude exited ${run.code ?? run.signal}${run.timedOut ? ' (timed out)' : ''} in ${run.ms} ms;${res}; stderr: ${run.stderr.slice(-500)}`;
}
