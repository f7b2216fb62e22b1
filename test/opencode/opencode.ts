// Runs the real opencode (the dev dependency `opencode-ai`) headless and offline against a model server the test
// serves: OpenAI Chat Completions (test/copilotCli/fakeChatCompletions.ts), named in opencode's config
// (`~/.config/opencode/opencode.json`) as a provider of its own. A private HOME keeps it away from the user's
// ~/.config/opencode. The plugins it loads are the ones the test puts in: its config folder's
// (`~/.config/opencode/plugin/`) or the project's (`.opencode/plugin/` of the folder it starts in).
//
//   makeOpencodeHome(plugin?)        a private HOME; `plugin`: a file's text for its config folder's plugins
//   runOpencode({ cwd, prompt, … })  one `opencode run …` run (its config written for `baseUrl` first)
//
// When any plugin is there, opencode npm-installs its plugin package into every folder that holds one before
// it loads them, and waits ~70 s for a registry it cannot reach. It skips the install where a folder already
// has `node_modules/` and a lock naming the package (test/opencode/FACTS.md), so each run lays those down
// first: nothing is downloaded. The CLI is the platform package's compiled binary (Bun inside).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type CliRun, describeCliRun, type HomeCliOptions, makeHomeWithFile, packageFile, runHomeCli } from '../shared/cliProcess';

export type OpencodeOptions = HomeCliOptions;

const PROVIDER = 'fake';
export const FAKE_MODEL = 'fake-model';
/** The package opencode installs into a folder that holds plugins, and its version (opencode's own). */
const PLUGIN_PACKAGE = '@opencode-ai/plugin';

/**
 * Where opencode's config folder is for a HOME: `$XDG_CONFIG_HOME/opencode` of this process when the HOME is its own
 * (a run as the user, whose settings the extension writes into), else `.config/opencode` in the private HOME.
 */
const configHome = (home: string) =>
  home === os.homedir() && process.env.XDG_CONFIG_HOME ? process.env.XDG_CONFIG_HOME : path.join(home, '.config');
export const configFolder = (home: string) => path.join(configHome(home), 'opencode');

/** A new private HOME for opencode; `plugin`: the text of `~/.config/opencode/plugin/agent-edit-guard.js`. */
export const makeOpencodeHome = (plugin?: string): string =>
  makeHomeWithFile('opencode', '.config/opencode/plugin/agent-edit-guard.js', plugin);

/** What makes opencode skip its install in `folder`: an empty node_modules and a lock naming the package. */
function markInstalled(folder: string, version: string): void {
  fs.mkdirSync(path.join(folder, 'node_modules'), { recursive: true });
  const lock = { packages: { '': { dependencies: { [PLUGIN_PACKAGE]: version } } } };
  fs.writeFileSync(path.join(folder, 'package-lock.json'), `${JSON.stringify(lock)}\n`);
}

/** opencode's config: one OpenAI-compatible provider at `baseUrl` with one model, every tool allowed. */
function writeConfig(home: string, baseUrl: string): void {
  const config = {
    autoupdate: false,
    share: 'disabled',
    model: `${PROVIDER}/${FAKE_MODEL}`,
    small_model: `${PROVIDER}/${FAKE_MODEL}`,
    provider: {
      [PROVIDER]: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Fake',
        options: { baseURL: baseUrl, apiKey: 'fake-key' },
        models: { [FAKE_MODEL]: { name: 'Fake Model', tool_call: true, limit: { context: 128000, output: 4096 } } },
      },
    },
    permission: { edit: 'allow', bash: 'allow' },
  };
  fs.mkdirSync(configFolder(home), { recursive: true });
  fs.writeFileSync(path.join(configFolder(home), 'opencode.json'), `${JSON.stringify(config, null, 2)}\n`);
}

/** The binary of this platform's package (the `-baseline` build where the CPU lacks AVX2, as opencode's own installer picks). */
function opencodeBinary(): string {
  const base = `opencode-${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  const exe = process.platform === 'win32' ? 'bin/opencode.exe' : 'bin/opencode';
  const avx2 = process.platform !== 'linux' || /(^|\s)avx2(\s|$)/i.test(fs.readFileSync('/proc/cpuinfo', 'utf8'));
  return packageFile(avx2 ? base : `${base}-baseline`, exe);
}

export function runOpencode(options: OpencodeOptions): Promise<CliRun> {
  writeConfig(options.home, options.baseUrl);
  const version = JSON.parse(fs.readFileSync(packageFile('opencode-ai', 'package.json'), 'utf8')).version as string;
  for (const folder of [configFolder(options.home), path.join(options.cwd, '.opencode')])
    if (fs.existsSync(folder)) markInstalled(folder, version);
  return runHomeCli(options, {
    exe: opencodeBinary(),
    env: {
      XDG_CONFIG_HOME: configHome(options.home),
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_SHARE: '1',
      npm_config_offline: 'true',
    },
    // one word per argument: opencode wraps an argument that holds a space in quote marks before the model sees it
    args: ['run', '--model', `${PROVIDER}/${FAKE_MODEL}`, ...options.prompt.split(' ')],
  });
}

export const describeOpencodeRun = (run: CliRun): string => describeCliRun('opencode', run);
