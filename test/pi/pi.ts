// Runs the real pi coding agent (the dev dependency @mariozechner/pi-coding-agent) headless and offline against a
// model server the test serves: OpenAI Chat Completions (test/copilotCli/fakeChatCompletions.ts), named in pi's
// `models.json` as a provider of its own. A private HOME keeps it away from the user's ~/.pi; `PI_OFFLINE` turns off
// its update check and telemetry. The extensions it loads are the ones the test puts in: its user folder's
// (`~/.pi/agent/extensions/`) or the project's (`.pi/extensions/` of the folder it starts in). Only Node's own modules.
//
//   makePiHome(extension?)      a private HOME; `extension`: a file's text for its user extensions folder
//   runPi({ cwd, prompt, … })   one `pi -p …` run (models.json written for `baseUrl` first)
//
// The CLI is JavaScript (dist/cli.js): it runs in this process's Node, nothing is downloaded.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type CliRun, describeCliRun, type HomeCliOptions, makeHomeWithFile, packageFile, runHomeCli } from '../shared/cliProcess';

export type PiOptions = HomeCliOptions;

const PROVIDER = 'fake';
export const FAKE_MODEL = 'fake-model';

/** pi's folder under a HOME. */
export const piFolder = (home: string) => path.join(home, '.pi', 'agent');

/** A new private HOME for pi; `extension`: the text of `~/.pi/agent/extensions/agent-edit-guard.js`. */
export const makePiHome = (extension?: string): string => makeHomeWithFile('pi', '.pi/agent/extensions/agent-edit-guard.js', extension);

/** pi's models.json: one OpenAI-compatible provider at `baseUrl` with one model, none of the options a fake does not answer. */
function writeModels(home: string, baseUrl: string): void {
  const models = {
    providers: {
      [PROVIDER]: {
        baseUrl,
        api: 'openai-completions',
        apiKey: 'fake-key',
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [{ id: FAKE_MODEL, name: 'Fake Model', reasoning: false, contextWindow: 128000, maxTokens: 4096 }],
      },
    },
  };
  fs.mkdirSync(piFolder(home), { recursive: true });
  fs.writeFileSync(path.join(piFolder(home), 'models.json'), `${JSON.stringify(models, null, 2)}\n`);
}

export function runPi(options: PiOptions): Promise<CliRun> {
  writeModels(options.home, options.baseUrl);
  return runHomeCli(options, {
    env: { PI_OFFLINE: '1' },
    args: [packageFile('@mariozechner/pi-coding-agent', 'dist/cli.js'), '--model', `${PROVIDER}/${FAKE_MODEL}`, '-p', options.prompt],
  });
}

export const describePiRun = (run: CliRun): string => describeCliRun('pi', run);
