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
import { type HookClients, isOurCommand } from '../../../hooks/command';
import { type CreatedFolders, makeFolderOf, readIfThere, tidy, writeByRename } from '../../../hooks/filesOnDisk';
import {
  claudeHookEntries,
  type ClaudeHookEntries,
  LOCAL_SETTINGS_PATH,
  USER_SETTINGS_PATH,
  withOurHooks,
  withoutOurHooks,
} from './settings';

/** Claude Code's user settings: the same for every window and project of this OS user. */
export const userClaudeSettingsFile = (home = os.homedir()) => path.join(home, ...USER_SETTINGS_PATH.split('/'));
/** `~/.claude` is there: Claude Code has run on this machine (or something made its folder). */
export const claudeFolderExists = (home = os.homedir()) => fs.existsSync(path.dirname(userClaudeSettingsFile(home)));
/** A workspace folder's personal (uncommitted) Claude Code settings. */
export const localClaudeSettingsFile = (folder: string) => path.join(folder, ...LOCAL_SETTINGS_PATH.split('/'));

/** The `.claude` folders we made, so that we remove only those (and only when empty); kept by the caller across windows and restarts. */
export type { CreatedFolders };

/** A settings file left as it was, and why (the caller shows it; the log has it already). */
export interface ClaudeSettingsProblem {
  file: string;
  reason: string;
}

export interface ClaudeSyncOptions {
  /** only a trusted workspace writes our entries (removing them is always allowed) */
  trusted: boolean;
  created?: CreatedFolders;
  /** the OS home (tests) */
  home?: string;
}

/**
 * Brings the files in line with the setting: our entries where it says (`user`: the user settings;
 * `workspace`: each folder's local settings), and removed from every other of these files. In an
 * untrusted window nothing is written, and the user-level entries are left for the other windows.
 * Returns the files left alone.
 */
export function syncClaudeHooks(
  placement: HooksPlacement,
  clients: HookClients,
  workspaceFolders: readonly string[],
  log: Logger,
  options: ClaudeSyncOptions,
): ClaudeSettingsProblem[] {
  const entries = claudeHookEntries(clients);
  const problems: ClaudeSettingsProblem[] = [];
  const note = (p: ClaudeSettingsProblem | undefined) => p && problems.push(p);
  const userFile = userClaudeSettingsFile(options.home);
  if (placement !== 'user') note(removeOurClaudeHooks(userFile, log, options.created));
  else if (options.trusted) note(addOurClaudeHooks(userFile, entries, log, options.created));
  for (const folder of workspaceFolders) {
    const file = localClaudeSettingsFile(folder);
    note(
      placement === 'workspace' && options.trusted
        ? addOurClaudeHooks(file, entries, log, options.created)
        : removeOurClaudeHooks(file, log, options.created),
    );
  }
  return problems;
}

/** Merges our entries into the file (made, with its folder, if missing); a file we cannot read as settings is left alone. */
export function addOurClaudeHooks(
  file: string,
  entries: ClaudeHookEntries,
  log: Logger,
  created?: CreatedFolders,
): ClaudeSettingsProblem | undefined {
  return guarded(file, log, () => {
    const existing = readIfThere(file);
    const edit = withOurHooks(existing, entries);
    if (!edit.ok) return leftAlone(file, edit.reason, log);
    if (edit.text === existing || edit.text === undefined) return undefined;
    makeFolderOf(file, created);
    writeByRename(file, edit.text);
    log.info(`Claude Code hooks: ${existing === undefined ? 'wrote' : 'added our entries to'} ${file}`);
    return undefined;
  });
}

/**
 * Takes our entries out of the file, keeping the user's; deletes the file if nothing else is left,
 * and its folder if we made it and it is empty then. Also run by the uninstall script (no `created`:
 * there it removes the folder only if empty). A file we cannot read as settings is left alone, with a
 * warning only when it names our client (else it holds nothing of ours).
 */
export function removeOurClaudeHooks(file: string, log: Logger, created?: CreatedFolders): ClaudeSettingsProblem | undefined {
  return guarded(file, log, () => {
    const existing = readIfThere(file);
    if (existing === undefined) {
      // gone already (the user deleted it): a folder we made may be left empty
      if (created) tidy(path.dirname(file), created);
      return undefined;
    }
    const edit = withoutOurHooks(existing);
    if (!edit.ok) return isOurCommand(existing) ? leftAlone(file, edit.reason, log) : undefined;
    if (edit.text === existing) return undefined;
    if (edit.text !== undefined) {
      writeByRename(file, edit.text);
      log.info(`Claude Code hooks: removed our entries from ${file}, kept the rest`);
    } else if (fs.lstatSync(file).isSymbolicLink()) {
      // the link is the user's (a dotfiles repository, say): keep it, leave the file it names empty settings
      writeByRename(file, '{}\n');
      log.info(`Claude Code hooks: removed our entries from ${file} (a link, kept)`);
    } else {
      fs.rmSync(file);
      log.info(`Claude Code hooks: removed ${file}, which held only our entries`);
      tidy(path.dirname(file), created);
    }
    return undefined;
  });
}

/** Runs one file's change; an error of the file system leaves that file alone and is reported, never thrown. */
function guarded(file: string, log: Logger, change: () => ClaudeSettingsProblem | undefined): ClaudeSettingsProblem | undefined {
  try {
    return change();
  } catch (e) {
    return leftAlone(file, e instanceof Error ? e.message : String(e), log);
  }
}

function leftAlone(file: string, reason: string, log: Logger): ClaudeSettingsProblem {
  log.warn(`Claude Code hooks: left ${file} as it was: ${reason}`);
  return { file, reason };
}

/** The uninstall script's part for Claude Code: our entries leave its user settings, the user's own stay. */
export function removeUserLevelClaudeEntries(log: Logger, home?: string): void {
  removeOurClaudeHooks(userClaudeSettingsFile(home), log);
}
