// Runs the real GitHub Copilot CLI (the dev dependency @github/copilot) headless and offline against a
// model server the test serves (test/copilotCli/fakeChatCompletions.ts): `COPILOT_OFFLINE=true` turns off
// every GitHub call, and `COPILOT_PROVIDER_BASE_URL` points its model requests (OpenAI Chat Completions)
// at the fake. A private COPILOT_HOME keeps it away from the user's ~/.copilot; the hooks it runs are
// the ones a test links or writes into `<home>/hooks`. Only Node's own modules.
//
//   makeCopilotHome({ hooksFrom })   a private COPILOT_HOME, its hooks folder linked to the one given
//   runCopilotCli({ cwd, prompt, … }) one `copilot -p … --output-format json` run; resolves with its events
//
// The binary: the wrapper's optional dependency for this platform (@github/copilot-linux-x64, …) holds
// the native executable; we start that file directly, so nothing is downloaded at run time.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { baseEnvironment, type JsonCliRun, runJsonCli } from '../shared/cliProcess';

/** One line of `--output-format json`: session.*, user.message, assistant.*, tool.execution_start/complete, … */
export interface CopilotCliEvent {
  type: string;
  data?: Record<string, unknown>;
  [key: string]: unknown;
}

export type CopilotCliRun = JsonCliRun<CopilotCliEvent>;

export interface CopilotCliOptions {
  cwd: string;
  prompt: string;
  /** the fake's base URL, e.g. http://127.0.0.1:40123/v1 */
  baseUrl: string;
  /** COPILOT_HOME (made by `makeCopilotHome`) */
  home: string;
  /** HOME: where the hook client finds the windows' entries; default `home` */
  osHome?: string;
  /** more environment variables (they win over the defaults), e.g. this window's bridge address */
  env?: Record<string, string>;
  /** default 120 s; the run is killed (its process group) after it */
  timeoutMs?: number;
}

/** The model name the runs ask the fake for. */
export const FAKE_MODEL = 'fake-model';

let binary: string | undefined;

/** The native Copilot CLI in node_modules (throws, saying what to install, when it is absent). */
export function copilotCliBinary(): string {
  if (binary) return binary;
  const pkg = `@github/copilot-${process.platform}-${process.arch}`;
  let exe: string;
  try {
    // the platform package exports its executable; a computed name: a bundler must leave this lookup to run time
    exe = require.resolve(pkg, { paths: [process.cwd(), __dirname] });
  } catch {
    throw new Error(`${pkg} is not installed: run npm ci (it is an optional dependency of the dev dependency @github/copilot)`);
  }
  if (!fs.existsSync(exe)) throw new Error(`${exe} is missing`);
  binary = exe;
  return exe;
}

/** A new private COPILOT_HOME; `hooksFrom`: a hooks folder (the one the extension writes at user level) linked in as its own. */
export function makeCopilotHome(hooksFrom?: string): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'editguard-copilot-cli-home-'));
  if (hooksFrom) {
    fs.mkdirSync(hooksFrom, { recursive: true });
    fs.symlinkSync(hooksFrom, path.join(home, 'hooks'), 'dir');
  }
  return home;
}

export async function runCopilotCli(options: CopilotCliOptions): Promise<CopilotCliRun> {
  const exe = copilotCliBinary();
  const env = {
    ...baseEnvironment(),
    HOME: options.osHome ?? options.home,
    COPILOT_HOME: options.home,
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: options.baseUrl,
    COPILOT_MODEL: FAKE_MODEL,
    COPILOT_AUTO_UPDATE: 'false',
    NO_COLOR: '1',
    TERM: 'dumb',
    ...options.env,
  };
  const args = ['-p', options.prompt, '--allow-all-tools', '--no-auto-update', '--no-ask-user', '--output-format', 'json'];
  return runJsonCli<CopilotCliEvent>({ exe, args, cwd: options.cwd, env, timeoutMs: options.timeoutMs ?? 120_000 });
}

/** The tool calls the run finished, in order: the tool, its arguments, and whether it succeeded (and the error). */
export function toolCalls(run: CopilotCliRun): Array<{ tool: string; args: unknown; ok: boolean; error?: string }> {
  const started = new Map<string, { tool: string; args: unknown }>();
  const out: Array<{ tool: string; args: unknown; ok: boolean; error?: string }> = [];
  for (const e of run.events) {
    const id = String(e.data?.toolCallId ?? '');
    if (e.type === 'tool.execution_start') started.set(id, { tool: String(e.data?.toolName), args: e.data?.arguments });
    if (e.type === 'tool.execution_complete') {
      const call = started.get(id) ?? { tool: '?', args: undefined };
      const error = (e.data?.error as { message?: string } | undefined)?.message;
      out.push({ ...call, ok: e.data?.success === true, ...(error !== undefined ? { error } : {}) });
    }
  }
  return out;
}

/** A one-line account of a run for an assertion message: exit, time, the end of stderr. */
export function describeCopilotRun(run: CopilotCliRun): string {
  return `copilot exited ${run.code ?? run.signal}${run.timedOut ? ' (timed out)' : ''} in ${run.ms} ms; stderr: ${run.stderr.slice(-500)}`;
}
