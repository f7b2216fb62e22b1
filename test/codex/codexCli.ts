// Runs the real OpenAI Codex CLI (the dev dependency @openai/codex) headless against a model server the
// test serves (test/codex/fakeResponses.ts), offline, with a private CODEX_HOME so nothing reads or writes
// the user's ~/.codex. Only Node's own modules.
//
//   makeCodexHome({ baseUrl })      a private CODEX_HOME with config.toml (a custom provider on 127.0.0.1)
//   codexConfig({ baseUrl })        that config.toml's text (a test may write it where it wants the home)
//   runCodex({ cwd, prompt, home }) one `codex exec --json --skip-git-repo-check` run; resolves with its JSONL events
//
// The binary: the wrapper's optional dependency for this platform (`@openai/codex-linux-x64` =
// `@openai/codex@<version>-linux-x64` from the npm registry) holds the native executable under
// vendor/<target triple>/bin. We start that file directly, so nothing is downloaded at run time.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { baseEnvironment, type JsonCliRun, runJsonCli } from '../shared/cliProcess';

/** One line of `codex exec --json`, parsed (thread.started, turn.started, item.started/completed, turn.completed, error). */
export interface CodexEvent {
  type: string;
  thread_id?: string;
  item?: { type: string; [key: string]: unknown };
  [key: string]: unknown;
}

export interface CodexRun extends JsonCliRun<CodexEvent> {
  /** the thread id (the hooks' `session_id`) */
  threadId?: string;
}

export interface CodexOptions {
  /** the working directory: the project Codex works in */
  cwd: string;
  prompt: string;
  /** CODEX_HOME: where its config.toml (and the hooks.json the extension writes) are */
  home: string;
  /** HOME (default: `home`); the hook client finds the windows' entries under it */
  osHome?: string;
  /** more environment variables (they win over the defaults) */
  env?: Record<string, string>;
  /** continue this thread (`codex exec resume <id>`) */
  resume?: string;
  extraArgs?: string[];
  /** default 90 s; the run is killed (its process group) after it */
  timeoutMs?: number;
}

const TRIPLES: Record<string, [string, string]> = {
  'linux-x64': ['@openai/codex-linux-x64', 'x86_64-unknown-linux-musl'],
  'linux-arm64': ['@openai/codex-linux-arm64', 'aarch64-unknown-linux-musl'],
  'darwin-x64': ['@openai/codex-darwin-x64', 'x86_64-apple-darwin'],
  'darwin-arm64': ['@openai/codex-darwin-arm64', 'aarch64-apple-darwin'],
  'win32-x64': ['@openai/codex-win32-x64', 'x86_64-pc-windows-msvc'],
};

let binary: string | undefined;

/** The native Codex executable in node_modules (throws, saying what to install, when it is absent). */
export function codexBinary(): string {
  if (binary) return binary;
  const entry = TRIPLES[`${process.platform}-${process.arch}`];
  if (!entry) throw new Error(`no Codex binary for ${process.platform}-${process.arch}`);
  const [pkg, triple] = entry;
  let dir: string;
  try {
    // a computed name: a bundler must leave this lookup to run time
    dir = path.dirname(require.resolve(`${pkg}/package.json`, { paths: [process.cwd(), __dirname] }));
  } catch {
    throw new Error(`${pkg} is not installed: run npm ci (it is an optional dependency of the dev dependency @openai/codex)`);
  }
  const exe = path.join(dir, 'vendor', triple, 'bin', process.platform === 'win32' ? 'codex.exe' : 'codex');
  if (!fs.existsSync(exe)) throw new Error(`${exe} is missing`);
  binary = exe;
  return exe;
}

/** The model: one in Codex's own catalog (a model it does not know gets no apply_patch tool). */
export const CODEX_MODEL = 'gpt-5.5';
/** The provider's key variable: any value; Codex sends it as the bearer token. */
export const KEY_VARIABLE = 'FAKE_CODEX_API_KEY';

/** config.toml for a custom provider pointed at the fake: no login, no approval, full access, no update check, no analytics. */
export function codexConfig({ baseUrl, extra = '' }: { baseUrl: string; extra?: string }): string {
  return `model = "${CODEX_MODEL}"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = "${baseUrl}"
wire_api = "responses"
env_key = "${KEY_VARIABLE}"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false
${extra}`;
}

/**
 * A new private CODEX_HOME with config.toml, under `parent` — never under the system's temporary folder:
 * there Codex refuses to create its helper aliases (the `apply_patch` on the shell's PATH).
 */
export function makeCodexHome(baseUrl: string, parent: string): string {
  fs.mkdirSync(parent, { recursive: true });
  const home = fs.mkdtempSync(path.join(parent, 'codex-home-'));
  if (path.resolve(home).startsWith(path.resolve(os.tmpdir()) + path.sep))
    throw new Error(`${home} is under ${os.tmpdir()}: Codex would not make its helper aliases there`);
  fs.writeFileSync(path.join(home, 'config.toml'), codexConfig({ baseUrl }));
  return home;
}

/** The environment of a run: not the caller's (it may carry OPENAI_* keys), only PATH and locale, then the private homes and the key, then `extra`. */
export function codexEnv(home: string, osHome: string, extra: Record<string, string> = {}): Record<string, string> {
  const env = baseEnvironment();
  Object.assign(env, { HOME: osHome, CODEX_HOME: home, SHELL: '/bin/bash', [KEY_VARIABLE]: 'sk-fake-key-for-tests' });
  return Object.assign(env, extra);
}

/** One headless run: `codex exec [resume <id>] --json --skip-git-repo-check … <prompt>`, stdin closed. */
export async function runCodex(options: CodexOptions): Promise<CodexRun> {
  const exe = codexBinary();
  const args = ['exec'];
  if (options.resume) args.push('resume', options.resume);
  args.push('--json', '--skip-git-repo-check', ...(options.extraArgs ?? []), options.prompt);
  const env = codexEnv(options.home, options.osHome ?? options.home, options.env);
  const run = await runJsonCli<CodexEvent>({ exe, args, cwd: options.cwd, env, timeoutMs: options.timeoutMs ?? 90000 });
  return { ...run, threadId: run.events.find((e) => e.type === 'thread.started')?.thread_id };
}

/** The file changes Codex reported applying in this run (`file_change` items): { path (absolute), kind }. */
export function fileChanges(run: CodexRun): Array<{ path: string; kind: string }> {
  return run.events
    .filter((e) => e.type === 'item.completed' && e.item?.type === 'file_change')
    .flatMap((e) => (e.item?.changes as Array<{ path: string; kind: string }>) ?? []);
}

/** A one-line account of a run for an assertion message: exit, time, the end of stderr. */
export function describeRun(run: CodexRun): string {
  return `codex exited ${run.code ?? run.signal}${run.timedOut ? ' (timed out)' : ''} in ${run.ms} ms; stderr: ${run.stderr.slice(-600)}`;
}
