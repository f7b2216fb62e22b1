// `editGuard.guardOpencode` on disk: our plugin file in opencode's config folder (`~/.config/opencode/plugin/`,
// `user`) or in each workspace folder's `.opencode/plugin/` (`workspace`), and nowhere else
// (src/hooks/filesOnDisk.ts `ownFiles`). No `vscode`: the uninstall script runs this.
import { ownFiles } from '../../../hooks/filesOnDisk';
import { opencodePluginLoader } from './pluginFile';

export const opencodePluginFiles = ownFiles({ who: 'opencode plugin', ...opencodePluginLoader });
