// `editGuard.guardCline` on disk: our plugin file in Cline's user folder (`~/.cline/plugins/`, `user`) or in each
// workspace folder's `.cline/plugins/` (`workspace`), and nowhere else (src/hooks/filesOnDisk.ts `ownFiles`).
// No `vscode`: the uninstall script runs this.
import { ownFiles } from '../../../hooks/filesOnDisk';
import { clinePluginLoader } from './pluginFile';

export const clinePluginFiles = ownFiles({ who: 'Cline plugin', ...clinePluginLoader });
