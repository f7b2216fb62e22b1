// `editGuard.guardPi` on disk: our extension file in pi's user folder (`~/.pi/agent/extensions/`, `user`) or in
// each workspace folder's `.pi/extensions/` (`workspace`), and nowhere else (src/hooks/filesOnDisk.ts
// `ownFiles`). No `vscode`: the uninstall script runs this.
import { ownFiles } from '../../../hooks/filesOnDisk';
import { FOLDER_EXTENSION_PATH, piExtensionLoader, userExtensionFile } from './extensionFile';

export const piExtensionFiles = ownFiles({
  who: 'pi extension',
  userFile: userExtensionFile,
  folderPath: FOLDER_EXTENSION_PATH,
  ...piExtensionLoader,
});
