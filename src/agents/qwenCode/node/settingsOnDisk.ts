// `editGuard.guardQwenCode` on disk: our hook entries in Qwen Code's user settings (`~/.qwen/settings.json`,
// `user`) or in each workspace folder's project settings (`.qwen/settings.json`, `workspace`), and nowhere
// else (src/hooks/filesOnDisk.ts `settingsFiles`). No `vscode`: the uninstall script runs this.
import { settingsFiles } from '../../../hooks/filesOnDisk';
import { qwenHookEntries, SETTINGS_PATH, withOurHooks } from './settings';

export const qwenSettingsFiles = settingsFiles('Qwen Code hooks', SETTINGS_PATH, (clients) => {
  const entries = qwenHookEntries(clients);
  return (existing) => withOurHooks(existing, entries);
});
