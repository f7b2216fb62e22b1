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
import { type CliRun, describeCliRun, type HomeCliOptions, makeHomeWithSettings, packageFile, runHomeCli } from '../shared/cliProcess';

export type GeminiCliOptions = HomeCliOptions;

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

export const runGeminiCli = (options: GeminiCliOptions): Promise<CliRun> =>
  runHomeCli(options, {
    env: { GEMINI_API_KEY: 'fake-key', GOOGLE_GEMINI_BASE_URL: options.baseUrl },
    args: [packageFile('@google/gemini-cli', 'bundle/gemini.js'), '--approval-mode', 'yolo', '-p', options.prompt],
  });

export const describeGeminiRun = (run: CliRun): string => describeCliRun('gemini', run);
