// Runs the real Cline CLI (the dev dependency `cline`) headless and offline against a model server the test
// serves: OpenAI Chat Completions (test/copilotCli/fakeChatCompletions.ts), saved as Cline's OpenAI-compatible
// provider in `~/.cline/data/settings/providers.json`. A private HOME keeps it away from the user's ~/.cline. It
// runs in its default (act) mode, which ends on a plain answer, with its session in its own process
// (`CLINE_SESSION_BACKEND_MODE=local`): otherwise it starts a hub daemon that outlives the run and runs the next
// session inside itself, with the first one's environment. The plugins it loads are the ones the test puts in: its
// user folder's (`~/.cline/plugins/`) or the project's (`.cline/plugins/` at the root of the Git repository it
// starts in, else of the folder itself).
//
//   makeClineHome(plugin?)          a private HOME; `plugin`: a file's text for its user plugins folder
//   runCline({ cwd, prompt, … })    one `cline "<prompt>"` run (the provider saved for `baseUrl` first)
//
// `cline`'s entry is a Node script that runs the platform's compiled binary (Bun inside); nothing is downloaded.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type CliRun, describeCliRun, type HomeCliOptions, makeHomeWithFile, packageFile, runHomeCli } from '../shared/cliProcess';

export type ClineOptions = HomeCliOptions;

export const FAKE_MODEL = 'fake-model';

/** Cline's folder under a HOME. */
export const clineFolder = (home: string) => path.join(home, '.cline');

/** A new private HOME for Cline; `plugin`: the text of `~/.cline/plugins/agent-edit-guard.js`. */
export const makeClineHome = (plugin?: string): string => makeHomeWithFile('cline', '.cline/plugins/agent-edit-guard.js', plugin);

/** Cline's saved provider: OpenAI-compatible at `baseUrl`, as `cline auth -p openai -b <url>` saves it. */
function writeProvider(home: string, baseUrl: string): void {
  const settings = path.join(clineFolder(home), 'data', 'settings');
  const provider = { provider: 'openai-compatible', apiKey: 'fake-key', model: FAKE_MODEL, baseUrl };
  const providers = {
    version: 1,
    lastUsedProvider: 'openai-compatible',
    modes: {},
    providers: { 'openai-compatible': { settings: provider, updatedAt: new Date().toISOString(), tokenSource: 'manual' } },
  };
  fs.mkdirSync(settings, { recursive: true });
  fs.writeFileSync(path.join(settings, 'providers.json'), `${JSON.stringify(providers, null, 2)}\n`);
}

export function runCline(options: ClineOptions): Promise<CliRun> {
  writeProvider(options.home, options.baseUrl);
  return runHomeCli(options, {
    env: {
      CLINE_SESSION_BACKEND_MODE: 'local',
      // Cline's project plugins are those of the Git repository's root it starts in: the test's workspace sits in
      // this checkout, so Git stops looking above it, as for a workspace folder that is a repository of its own
      GIT_CEILING_DIRECTORIES: path.dirname(options.cwd),
    },
    args: [packageFile('cline', 'bin/cline'), options.prompt],
  });
}

export const describeClineRun = (run: CliRun): string => describeCliRun('Cline', run);
