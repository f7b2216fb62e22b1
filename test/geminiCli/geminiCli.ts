// Runs the real Gemini CLI (the dev dependency @google/gemini-cli) headless and offline against a model
// server the test serves (test/geminiCli/fakeGemini.ts): `GOOGLE_GEMINI_BASE_URL` points its model requests
// there, `GEMINI_API_KEY` is any string. A private HOME keeps it away from the user's ~/.gemini; its
// settings (auth, no telemetry, no update check) are written there, and the hooks it runs are the ones
// the test puts in: its settings file, or a project's `.gemini/settings.json`. Only Node's own modules.
//
//   makeGeminiHome({ hooks })     a private HOME with Gemini CLI's settings (and `hooks`, when given)
//   runGeminiCli({ cwd, prompt, … }) one `gemini -p … --approval-mode yolo` run
//
// The CLI is JavaScript (bundle/gemini.js): it runs in this process's Node, nothing is downloaded.
import { baseEnvironment, type CliRun, makeHomeWithSettings, packageFile, runCli } from '../shared/cliProcess';

export interface GeminiCliOptions {
  cwd: string;
  prompt: string;
  /** the fake's base URL, e.g. http://127.0.0.1:40123 */
  baseUrl: string;
  /** HOME (made by `makeGeminiHome`): its ~/.gemini, and where the hook client finds the windows' records */
  home: string;
  /** more environment variables (they win over the defaults), e.g. this window's bridge address */
  env?: Record<string, string>;
  /** default 120 s; the run is killed (its process group) after it */
  timeoutMs?: number;
}

/** The model the settings name; the fake answers for any. */
export const FAKE_MODEL = 'gemini-2.5-flash';

/** Gemini CLI's settings for an offline run: an API key's auth, no telemetry, statistics or update check, every folder trusted. */
export function offlineSettings(): Record<string, unknown> {
  return {
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    model: { name: FAKE_MODEL },
  };
}

/** A new private HOME with Gemini CLI's offline settings; `settings`: more keys (its `hooks`, say). */
export const makeGeminiHome = (settings: Record<string, unknown> = {}): string =>
  makeHomeWithSettings('gemini', '.gemini/settings.json', { ...offlineSettings(), ...settings });

export function runGeminiCli(options: GeminiCliOptions): Promise<CliRun> {
  const env = {
    ...baseEnvironment(),
    HOME: options.home,
    GEMINI_API_KEY: 'fake-key',
    GOOGLE_GEMINI_BASE_URL: options.baseUrl,
    NO_COLOR: '1',
    TERM: 'dumb',
    ...options.env,
  };
  const args = [packageFile('@google/gemini-cli', 'bundle/gemini.js'), '--approval-mode', 'yolo', '-p', options.prompt];
  return runCli({ exe: process.execPath, args, cwd: options.cwd, env, timeoutMs: options.timeoutMs ?? 120_000 });
}

/** A one-line account of a run for an assertion message: exit, time, the end of its output. */
export function describeGeminiRun(run: CliRun): string {
  return `gemini exited ${run.code ?? run.signal}${run.timedOut ? ' (timed out)' : ''} in ${run.ms} ms; stdout: ${run.stdout.slice(-300)}; stderr: ${run.stderr.slice(-500)}`;
}
