// The file of ours opencode loads as a plugin (opencode imports every `*.js` and `*.ts` of `plugin/` and `plugins/`
// in its config folder, `~/.config/opencode`, and in each `.opencode/` from the folder it starts in up to its
// project's root; each export must be a plugin function): src/hooks/pluginLoader.ts, as an ES module handing
// opencode our plugin (plugin.ts). Where our files are gone its plugin adds no hooks. Pure: unit-tested.
import * as os from 'node:os';
import * as path from 'node:path';
import { pluginLoader } from '../../../hooks/pluginLoader';

/** opencode's config folder (`$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`), as opencode finds it. */
export function opencodeConfigFolder(home = os.homedir(), env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME?.trim();
  return path.join(xdg ? xdg : path.join(home, '.config'), 'opencode');
}

/** Our file, in opencode's config plugins or a project's: its one export is the plugin function opencode calls. */
export const opencodePluginLoader = pluginLoader({
  agentName: 'opencode',
  setting: 'guardOpencode',
  agentFolder: 'opencode',
  module: 'esm',
  folders: { user: (home) => path.join(opencodeConfigFolder(home), 'plugin'), workspace: '.opencode/plugin' },
  exports: `export const AgentEditGuard = async (ctx) => (guard ? guard.opencodeHooks(ctx) : {});
`,
});

/** Our user-level file. */
export const userPluginFile = opencodePluginLoader.userFile;
