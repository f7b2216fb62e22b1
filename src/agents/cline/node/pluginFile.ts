// The file of ours Cline loads as a plugin (Cline loads every `*.js` and `*.ts` under `~/.cline/plugins/` and
// under the `.cline/plugins/` of its workspace — the root of the Git repository it starts in, else the folder
// itself — CommonJS included): src/hooks/pluginLoader.ts, handing Cline our plugin (plugin.ts). Where our files
// are gone it hands over a plugin with no hooks. Pure: unit-tested.
import * as os from 'node:os';
import * as path from 'node:path';
import { pluginLoader } from '../../../hooks/pluginLoader';

/** Cline's own folder (`$CLINE_DIR`, else `~/.cline`), as Cline finds it. */
export function clineFolder(home = os.homedir(), env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.CLINE_DIR?.trim();
  return dir ? dir : path.join(home, '.cline');
}

/** Our file, in Cline's user plugins or its project plugins: Cline takes the plugin object it exports. */
export const clinePluginLoader = pluginLoader({
  agentName: 'Cline',
  setting: 'guardCline',
  agentFolder: 'cline',
  folders: { user: (home) => path.join(clineFolder(home), 'plugins'), workspace: '.cline/plugins' },
  exports: `module.exports = guard
  ? guard.clinePlugin()
  : { name: 'agent-edit-guard', manifest: { capabilities: ['hooks'] }, hooks: {} };
`,
});

/** Our user-level file. */
export const userPluginFile = clinePluginLoader.userFile;
