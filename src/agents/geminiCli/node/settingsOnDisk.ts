// `editGuard.guardGeminiCli` on disk: our hook entries in Gemini CLI's user settings (`~/.gemini/settings.json`,
// `user`) or in each workspace folder's project settings (`.gemini/settings.json`, `workspace`), and nowhere
// else (src/hooks/filesOnDisk.ts `settingsFiles`: only our groups, a file we cannot read left as it was, a
// file written by rename, a file and folder we leave empty removed). No `vscode`: the uninstall script runs this.
import { settingsFiles } from '../../../hooks/filesOnDisk';
import { geminiHookEntries, SETTINGS_PATH, withOurHooks } from './settings';

export const geminiSettingsFiles = settingsFiles('Gemini CLI hooks', SETTINGS_PATH, (clients) => {
  const entries = geminiHookEntries(clients);
  return (existing) => withOurHooks(existing, entries);
});
