// The file of ours pi loads as an extension (pi loads every `*.js` and `*.ts` of `~/.pi/agent/extensions/` and of
// the `.pi/extensions/` of the folder it starts in, CommonJS included): src/hooks/pluginLoader.ts, handing pi our
// plugin (plugin.ts). Pure: unit-tested.
import * as os from 'node:os';
import * as path from 'node:path';
import { pluginLoader } from '../../../hooks/pluginLoader';

/** pi's own folder (`$PI_CODING_AGENT_DIR`, `~` expanded, else `~/.pi/agent`), as pi finds it. */
export function piAgentFolder(home = os.homedir(), env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.PI_CODING_AGENT_DIR;
  if (!dir) return path.join(home, '.pi', 'agent');
  return dir === '~' ? home : dir.startsWith('~/') ? path.join(home, dir.slice(2)) : dir;
}

/** Our file, in pi's user extensions or a project's: pi calls what it exports with its extension API. */
export const piExtensionLoader = pluginLoader({
  agentName: 'pi',
  setting: 'guardPi',
  agentFolder: 'pi',
  folders: { user: (home) => path.join(piAgentFolder(home), 'extensions'), workspace: '.pi/extensions' },
  exports: `module.exports = function agentEditGuard(pi) {
  if (guard) guard.attach(pi);
};
`,
});

/** Our user-level file. */
export const userExtensionFile = piExtensionLoader.userFile;
