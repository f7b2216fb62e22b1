// The file of ours Cline loads as a plugin (Cline loads every `*.js` and `*.ts` under `~/.cline/plugins/` and
// under the `.cline/plugins/` of its workspace — the root of the Git repository it starts in, else the folder
// itself — CommonJS included): src/hooks/pluginLoader.ts, handing
// Cline our plugin (plugin.ts). Where our files are gone it hands over a plugin with no hooks. Pure: unit-tested.
import * as os from 'node:os';
import * as path from 'node:path';
import { pluginLoader } from '../../../hooks/pluginLoader';

/** Its name in Cline's plugin folders. */
export const PLUGIN_FILE_NAME = 'agent-edit-guard.js';
/** Under a workspace folder: Cline's project plugins. */
export const FOLDER_PLUGIN_PATH = `.cline/plugins/${PLUGIN_FILE_NAME}`;

/** Our file: the first line marks it ours; Cline takes the plugin object it exports. */
export const clinePluginLoader = pluginLoader({
  firstLine: "// Agent Edit Guard: Cline's file tools through the gate of the VS Code window on this folder.",
  setting: 'guardCline',
  agentFolder: 'cline',
  module: 'commonjs',
  exports: `module.exports = guard
  ? guard.clinePlugin()
  : { name: 'agent-edit-guard', manifest: { capabilities: ['hooks'] }, hooks: {} };
`,
});

/** Cline's own folder (`$CLINE_DIR`, else `~/.cline`), as Cline finds it. */
export function clineFolder(home = os.homedir(), env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.CLINE_DIR?.trim();
  return dir ? dir : path.join(home, '.cline');
}

/** Our user-level file. */
export const userPluginFile = (home?: string) => path.join(clineFolder(home), 'plugins', PLUGIN_FILE_NAME);
