// The file of ours pi loads as an extension (pi loads every `*.js` and `*.ts` of `~/.pi/agent/extensions/` and of
// the `.pi/extensions/` of the folder it starts in, CommonJS included): src/hooks/pluginLoader.ts, handing pi our
// plugin (plugin.ts). Pure: unit-tested.
import * as os from 'node:os';
import * as path from 'node:path';
import { pluginLoader } from '../../../hooks/pluginLoader';

/** Its name in pi's extension folders. */
export const EXTENSION_FILE_NAME = 'agent-edit-guard.js';
/** Under a workspace folder: pi's project extensions. */
export const FOLDER_EXTENSION_PATH = `.pi/extensions/${EXTENSION_FILE_NAME}`;

/** Our file: the first line marks it ours; pi calls what it exports with its extension API. */
export const piExtensionLoader = pluginLoader({
  firstLine: "// Agent Edit Guard: pi's file tools through the gate of the VS Code window on this folder.",
  setting: 'guardPi',
  agentFolder: 'pi',
  module: 'commonjs',
  exports: `module.exports = function agentEditGuard(pi) {
  if (guard) guard.attach(pi);
};
`,
});

/** pi's own folder (`$PI_CODING_AGENT_DIR`, `~` expanded, else `~/.pi/agent`), as pi finds it. */
export function piAgentFolder(home = os.homedir(), env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.PI_CODING_AGENT_DIR;
  if (!dir) return path.join(home, '.pi', 'agent');
  return dir === '~' ? home : dir.startsWith('~/') ? path.join(home, dir.slice(2)) : dir;
}

/** Our user-level file. */
export const userExtensionFile = (home?: string) => path.join(piAgentFolder(home), 'extensions', EXTENSION_FILE_NAME);
