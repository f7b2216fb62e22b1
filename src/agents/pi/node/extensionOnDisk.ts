// `editGuard.guardPi` on disk: our extension file in pi's user folder (`~/.pi/agent/extensions/`, `user`) or in
// each workspace folder's `.pi/extensions/` (`workspace`), and nowhere else (src/hooks/filesOnDisk.ts
// `ownFiles`). No `vscode`: the uninstall script runs this.
import { ownFiles } from '../../../hooks/filesOnDisk';
import { piExtensionLoader } from './extensionFile';

export const piExtensionFiles = ownFiles({ who: 'pi extension', ...piExtensionLoader });
