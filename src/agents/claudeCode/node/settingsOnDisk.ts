// `editGuard.guardClaudeCode` on disk: our hook entries in Claude Code's user settings
// (`~/.claude/settings.json`, `user`) or in each workspace folder's personal project settings
// (`.claude/settings.local.json`, `workspace`), and nowhere else. Both files are the user's too, so
// only our groups are added or removed (settings.ts); a file we cannot read as settings is left
// as it was, with a warning naming it; a file written is replaced by rename, never half-written; a file
// we leave empty goes, and so does a `.claude` folder we made and left empty (docs/design.md §Surfaces,
// Claude Code's hook entries). No `vscode`: the uninstall script (src/uninstall.ts) runs this in plain Node.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Logger } from '../../../core/ports';
import type { HooksPlacement } from '../../../core/settings';
import type { CreatedFolders, FileLeft } from '../../../hooks/agentDescriptor';
import type { HookClients } from '../../../hooks/command';
import { addEntries, type EntryFilesSync, removeEntries, syncEntryFiles } from '../../../hooks/filesOnDisk';
import { claudeHookEntries, type ClaudeHookEntries, LOCAL_SETTINGS_PATH, USER_SETTINGS_PATH, withOurHooks } from './settings';

/** Claude Code's user settings: the same for every window and project of this OS user. */
export const userClaudeSettingsFile = (home = os.homedir()) => path.join(home, ...USER_SETTINGS_PATH.split('/'));
/** `~/.claude` is there: Claude Code has run on this machine (or something made its folder). */
export const claudeFolderExists = (home = os.homedir()) => fs.existsSync(path.dirname(userClaudeSettingsFile(home)));
/** A workspace folder's personal (uncommitted) Claude Code settings. */
export const localClaudeSettingsFile = (folder: string) => path.join(folder, ...LOCAL_SETTINGS_PATH.split('/'));

/** How the log names these files. */
const WHO = 'Claude Code hooks';

export interface ClaudeSyncOptions extends EntryFilesSync {
  /** the OS home (tests) */
  home?: string;
}

/**
 * Brings the files in line with the setting (src/hooks/filesOnDisk.ts `syncEntryFiles`): `user`, the
 * user settings; `workspace`, each folder's local settings. Returns the files left as they were.
 */
export function syncClaudeHooks(
  placement: HooksPlacement,
  clients: HookClients,
  workspaceFolders: readonly string[],
  log: Logger,
  options: ClaudeSyncOptions,
): FileLeft[] {
  const entries = claudeHookEntries(clients);
  const files = {
    who: WHO,
    userFile: userClaudeSettingsFile(options.home),
    folderFile: localClaudeSettingsFile,
    withOurs: (existing: string | undefined) => withOurHooks(existing, entries),
  };
  return syncEntryFiles(placement, files, workspaceFolders, log, options);
}

/** Merges our entries into the file (made, with its folder, if missing); a file we cannot read as settings is left alone. */
export const addOurClaudeHooks = (file: string, entries: ClaudeHookEntries, log: Logger, created?: CreatedFolders): FileLeft | undefined =>
  addEntries(file, WHO, (existing) => withOurHooks(existing, entries), log, created);

/**
 * Takes our entries out of the file, keeping the user's (src/hooks/filesOnDisk.ts `removeEntries`). Also
 * run by the uninstall script (no `created`: there it removes the folder only if empty).
 */
export const removeOurClaudeHooks = (file: string, log: Logger, created?: CreatedFolders): FileLeft | undefined =>
  removeEntries(file, WHO, log, created);

/** The uninstall script's part for Claude Code: our entries leave its user settings, the user's own stay. */
export function removeUserLevelEntries(log: Logger, home?: string): void {
  removeOurClaudeHooks(userClaudeSettingsFile(home), log);
}
