// One headless run of an agent's CLI as the tests drive them: a private environment (only what the
// caller gives, never the test process's own keys), its own process group so a timeout ends the CLI
// and everything it started (hook commands, shells), and stdout and stderr kept whole. Only Node's own
// modules: the plain-Node helpers (test/claudeCode, test/codex, test/copilotCli, …) and the host suites use it.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface CliRun {
  /** the exit code (null when killed) */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** true when the run outlived its timeout and was killed */
  timedOut: boolean;
  stdout: string;
  stderr: string;
  ms: number;
  args: string[];
}

export interface CliStart {
  exe: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** the run is killed (its process group) after this */
  timeoutMs: number;
}

/** The variables a CLI needs from the caller's environment to run at all (and nothing that carries a key). */
export function baseEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of ['PATH', 'LANG', 'LC_ALL', 'TMPDIR', 'SYSTEMROOT']) {
    const v = process.env[k];
    if (v !== undefined) env[k] = v;
  }
  return env;
}

export function runCli(start: CliStart): Promise<CliRun> {
  const started = Date.now();
  const child = spawn(start.exe, start.args, {
    cwd: start.cwd,
    env: start.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
      else child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }, start.timeoutMs);
  return new Promise((resolve, reject) => {
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, timedOut, stdout, stderr, ms: Date.now() - started, args: start.args });
    });
  });
}

/** A run of a CLI that prints one JSON event per line: the events, and the lines that were not JSON. */
export interface JsonCliRun<T> extends CliRun {
  events: T[];
  otherStdout: string[];
}

/** One headless run of a CLI whose stdout is JSONL, parsed. */
export async function runJsonCli<T>(start: CliStart): Promise<JsonCliRun<T>> {
  const run = await runCli(start);
  const events: T[] = [];
  const otherStdout: string[] = [];
  for (const line of run.stdout.split('\n')) {
    if (!line.trim()) continue;
    try {
      events.push(JSON.parse(line) as T);
    } catch {
      otherStdout.push(line);
    }
  }
  return { ...run, events, otherStdout };
}

/** A new private HOME whose `<settingsPath>` (an agent's settings file, e.g. `.gemini/settings.json`) holds `settings`. */
export function makeHomeWithSettings(prefix: string, settingsPath: string, settings: Record<string, unknown>): string {
  return makeHomeWithFile(prefix, settingsPath, `${JSON.stringify(settings, null, 2)}\n`);
}

/** A new private HOME; with `text`, its `<filePath>` (e.g. an agent's plugin file) holds it. */
export function makeHomeWithFile(prefix: string, filePath: string, text: string | undefined): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), `editguard-${prefix}-home-`));
  if (text !== undefined) {
    const file = path.join(home, ...filePath.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return home;
}

/**
 * A file of an installed dev dependency, e.g. its entry point (throws, saying what to install, when it is absent).
 * Found by its folder in node_modules, not by `require.resolve`: a package whose `exports` omits package.json
 * (pi's) cannot be resolved that way.
 */
export function packageFile(pkg: string, file: string): string {
  const roots = [process.cwd(), __dirname].flatMap((from) => {
    const found: string[] = [];
    for (let dir = from; ; dir = path.dirname(dir)) {
      found.push(path.join(dir, 'node_modules'));
      if (path.dirname(dir) === dir) return found;
    }
  });
  const root = roots.map((r) => path.join(r, ...pkg.split('/'))).find((dir) => fs.existsSync(path.join(dir, 'package.json')));
  if (!root) throw new Error(`${pkg} is not installed: run npm ci (it is a dev dependency)`);
  return path.join(root, file);
}

/** One headless run of an agent's CLI that keeps its settings under a private HOME (runHomeCli). */
export interface HomeCliOptions {
  cwd: string;
  prompt: string;
  /** the fake model API's base URL */
  baseUrl: string;
  /** HOME: the agent's settings folder, and where the hook client finds the windows' entries */
  home: string;
  /** more environment variables (they win over the defaults), e.g. this window's bridge address */
  env?: Record<string, string>;
  /** default 120 s; the run is killed (its process group) after it */
  timeoutMs?: number;
}

/**
 * One headless run of an agent's CLI under a private HOME: `cli.env`, the agent's own variables, over the base
 * environment with no colours and a dumb terminal, and the caller's `options.env` over all. `cli.exe` defaults to
 * this process's Node, `cli.args[0]` its script: a CLI that is JavaScript runs here, nothing is downloaded.
 */
export function runHomeCli(options: HomeCliOptions, cli: { args: string[]; env?: Record<string, string>; exe?: string }): Promise<CliRun> {
  const env = { ...baseEnvironment(), HOME: options.home, ...cli.env, NO_COLOR: '1', TERM: 'dumb', ...options.env };
  return runCli({ exe: cli.exe ?? process.execPath, args: cli.args, cwd: options.cwd, env, timeoutMs: options.timeoutMs ?? 120_000 });
}

/** A one-line account of a run for an assertion message: exit, time, the end of its output. */
export function describeCliRun(name: string, run: CliRun): string {
  return `${name} exited ${run.code ?? run.signal}${run.timedOut ? ' (timed out)' : ''} in ${run.ms} ms; stdout: ${run.stdout.slice(-300)}; stderr: ${run.stderr.slice(-500)}`;
}
