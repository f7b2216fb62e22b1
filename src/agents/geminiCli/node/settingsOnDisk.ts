// `editGuard.guardGeminiCli` on disk: our hook entries in Gemini CLI's user settings (`~/.gemini/settings.json`,
// `user`) or in each workspace folder's project settings (`.gemini/settings.json`, `workspace`), and nowhere
// else (src/hooks/filesOnDisk.ts `syncEntryFiles`: only our groups, a file we cannot read left as it was, a
// file written by rename, a file and folder we leave empty removed). No `vscode`: the uninstall script runs this.
import * as os from 'node:os';
import * as path from 'node:path';
import type { Logger } from '../../../core/ports';
import type { HooksPlacement } from '../../../core/settings';
import type { FileLeft } from '../../../hooks/agentDescriptor';
import type { HookClients } from '../../../hooks/command';
import { type EntryFiles, type EntryFilesSync, removeEntries, syncEntryFiles } from '../../../hooks/filesOnDisk';
import { geminiHookEntries, SETTINGS_PATH, withOurHooks } from './settings';

/** Gemini CLI's user settings: the same for every window and project of this OS user. */
export const userGeminiSettingsFile = (home = os.homedir()) => path.join(home, ...SETTINGS_PATH.split('/'));
/** A workspace folder's Gemini CLI settings. */
export const projectGeminiSettingsFile = (folder: string) => path.join(folder, ...SETTINGS_PATH.split('/'));

/** How the log names these files. */
const WHO = 'Gemini CLI hooks';

/** Brings the files in line with the setting; returns the files left as they were. `home`: the OS home (tests). */
export function syncGeminiHooks(
  placement: HooksPlacement,
  clients: HookClients,
  workspaceFolders: readonly string[],
  log: Logger,
  options: EntryFilesSync & { home?: string },
): FileLeft[] {
  const entries = geminiHookEntries(clients);
  const files: EntryFiles = {
    who: WHO,
    userFile: userGeminiSettingsFile(options.home),
    folderFile: projectGeminiSettingsFile,
    withOurs: (existing) => withOurHooks(existing, entries),
  };
  return syncEntryFiles(placement, files, workspaceFolders, log, options);
}

/** The uninstall script's part for Gemini CLI: our entries leave its user settings, the user's own stay. */
export function removeUserLevelEntries(log: Logger, home?: string): void {
  removeEntries(userGeminiSettingsFile(home), WHO, log);
}
