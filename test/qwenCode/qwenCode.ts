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
import { type CliRun, describeCliRun, type HomeCliOptions, makeHomeWithSettings, packageFile, runHomeCli } from '../shared/cliProcess';

export type QwenCodeOptions = HomeCliOptions;

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

export const runQwenCode = (options: QwenCodeOptions): Promise<CliRun> =>
  runHomeCli(options, {
    env: { OPENAI_API_KEY: 'fake-key', OPENAI_BASE_URL: options.baseUrl, OPENAI_MODEL: FAKE_MODEL },
    args: [packageFile('@qwen-code/qwen-code', 'cli-entry.js'), '--approval-mode', 'yolo', '-p', options.prompt],
  });

export const describeQwenRun = (run: CliRun): string => describeCliRun('qwen', run);
