// Runs the real Qwen Code CLI (the dev dependency @qwen-code/qwen-code) headless and offline against a
// model server the test serves: OpenAI Chat Completions (test/copilotCli/fakeChatCompletions.ts, which
// answers its non-streamed requests too), at `OPENAI_BASE_URL`. A private HOME keeps it away from the
// user's ~/.qwen; its settings (OpenAI auth, no telemetry, no update check, no memory or follow-up
// requests of its own, every folder trusted) are written there, and the hooks it runs are the ones the test
// puts in: its settings file, or a project's `.qwen/settings.json`. Only Node's own modules.
//
//   makeQwenHome({ hooks })      a private HOME with Qwen Code's settings (and `hooks`, when given)
//   runQwenCode({ cwd, prompt, … }) one `qwen -p … --approval-mode yolo` run
//
// The CLI is JavaScript (cli-entry.js): it runs in this process's Node, nothing is downloaded.
import { baseEnvironment, type CliRun, makeHomeWithSettings, packageFile, runCli } from '../shared/cliProcess';

export interface QwenCodeOptions {
  cwd: string;
  prompt: string;
  /** the fake's base URL, e.g. http://127.0.0.1:40123/v1 */
  baseUrl: string;
  /** HOME (made by `makeQwenHome`): its ~/.qwen, and where the hook client finds the windows' records */
  home: string;
  /** more environment variables (they win over the defaults), e.g. this window's bridge address */
  env?: Record<string, string>;
  /** default 120 s; the run is killed (its process group) after it */
  timeoutMs?: number;
}

export const FAKE_MODEL = 'fake-model';

/**
 * Qwen Code's settings for an offline run. Without the memory and follow-up switches it sends requests of
 * its own after a turn, with tools, which a scripted model would take for the conversation's next step.
 */
export function offlineSettings(): Record<string, unknown> {
  return {
    security: { auth: { selectedType: 'openai' }, folderTrust: { enabled: false } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    model: { name: FAKE_MODEL },
    memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false, enableAutoSkill: false },
    ui: { enableFollowupSuggestions: false },
  };
}

/** A new private HOME with Qwen Code's offline settings; `settings`: more keys (its `hooks`, say). */
export const makeQwenHome = (settings: Record<string, unknown> = {}): string =>
  makeHomeWithSettings('qwen', '.qwen/settings.json', { ...offlineSettings(), ...settings });

export function runQwenCode(options: QwenCodeOptions): Promise<CliRun> {
  const env = {
    ...baseEnvironment(),
    HOME: options.home,
    OPENAI_API_KEY: 'fake-key',
    OPENAI_BASE_URL: options.baseUrl,
    OPENAI_MODEL: FAKE_MODEL,
    NO_COLOR: '1',
    TERM: 'dumb',
    ...options.env,
  };
  const args = [packageFile('@qwen-code/qwen-code', 'cli-entry.js'), '--approval-mode', 'yolo', '-p', options.prompt];
  return runCli({ exe: process.execPath, args, cwd: options.cwd, env, timeoutMs: options.timeoutMs ?? 120_000 });
}

/** A one-line account of a run for an assertion message: exit, time, the end of its output. */
export function describeQwenRun(run: CliRun): string {
  return `qwen exited ${run.code ?? run.signal}${run.timedOut ? ' (timed out)' : ''} in ${run.ms} ms; stdout: ${run.stdout.slice(-300)}; stderr: ${run.stderr.slice(-500)}`;
}
