// Writing an agent's files that are the user's too (Claude Code's settings, Codex's hooks.json and
// config.toml), or wholly ours beside the user's (pi's extension file): read one without taking an unreadable
// file for a missing one, replace one by rename so that the agent (or another window) never reads half of it,
// and remove a folder only when we made it and it is empty. Plain Node: the uninstall script runs it too.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Logger } from '../core/ports';
import type { HooksPlacement } from '../core/settings';
import type { AgentEntries, CreatedFolders, FileLeft } from './agentDescriptor';
import { type HookClients, isOurCommand } from './command';
import { type EntriesEdit, withoutOurGroups } from './hookEntries';

/** The file's text, `undefined` when there is none; any other error (no permission, a folder) is thrown, so the file is never taken for missing. */
export function readIfThere(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * Writes a temporary file beside the target and renames it over: the agent (or another window)
 * reading the file sees the old text or the new, never a part. The target of a symbolic link is
 * written, not the link replaced; its permissions are kept.
 */
export function writeByRename(file: string, text: string): void {
  const target = fs.existsSync(file) ? fs.realpathSync(file) : file;
  const mode = fs.existsSync(target) ? fs.statSync(target).mode & 0o7777 : undefined;
  const tmp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.agent-edit-guard-${process.pid}-${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    fs.writeFileSync(tmp, text, { flag: 'wx', ...(mode !== undefined && { mode }) });
    if (mode !== undefined) fs.chmodSync(tmp, mode);
    fs.renameSync(tmp, target);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/** Makes the file's folder if it is missing, noting it and each folder above it that it made as ours. */
export function makeFolderOf(file: string, created?: CreatedFolders): void {
  const missing: string[] = [];
  for (let dir = path.dirname(file); !fs.existsSync(dir); dir = path.dirname(dir)) missing.push(dir);
  if (missing.length === 0) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (const dir of missing) created?.add(dir);
}

/**
 * Removes the folder if it is empty and we made it, then each folder above it we made that is empty then
 * (without a record: the folder itself, if it is empty).
 */
export function tidy(dir: string, created: CreatedFolders | undefined): void {
  for (; ; dir = path.dirname(dir)) {
    if (created && !created.has(dir)) return;
    try {
      fs.rmdirSync(dir);
    } catch (e) {
      // not empty: the user's (or the agent's) files are in it; gone already: the one above may be empty now
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return;
    }
    created?.delete(dir);
    if (!created) return;
  }
}

/** `before` → `after`: what a change of one file of entries did to it (`undefined`: no file), for a caller that follows it (Codex's trust lines). */
export type EntriesChanged = (before: string | undefined, after: string | undefined) => void;

/**
 * Merges our entries into a file of the user's (`edit` makes the new text from the old; a missing file
 * is made, with its folder); a file we cannot read as one is left as it was. `who` names the agent in
 * the log ("Claude Code hooks").
 */
export function addEntries(
  file: string,
  who: string,
  edit: (existing: string | undefined) => EntriesEdit,
  log: Logger,
  created?: CreatedFolders,
  changed?: EntriesChanged,
): FileLeft | undefined {
  return changeOrLeave(file, who, log, () => {
    const existing = readIfThere(file);
    const next = edit(existing);
    if (!next.ok) return leftAlone(file, who, next.reason, log);
    changed?.(existing, next.text);
    if (next.text === existing || next.text === undefined) return undefined;
    makeFolderOf(file, created);
    writeByRename(file, next.text);
    log.info(`${who}: ${existing === undefined ? 'wrote' : 'added our entries to'} ${file}`);
    return undefined;
  });
}

/**
 * Takes our entries out of a file of the user's, keeping the rest; deletes the file if nothing else is
 * left, and its folder if we made it and it is empty then (without `created`, as the uninstall script
 * runs it: if empty). A file we cannot read is left as it was, with a warning only when it names our
 * client (else it holds nothing of ours).
 */
export function removeEntries(
  file: string,
  who: string,
  log: Logger,
  created?: CreatedFolders,
  changed?: EntriesChanged,
): FileLeft | undefined {
  return changeOrLeave(file, who, log, () => {
    const existing = readIfThere(file);
    if (existing === undefined) {
      // gone already (the user deleted it): a folder we made may be left empty
      changed?.(undefined, undefined);
      if (created) tidy(path.dirname(file), created);
      return undefined;
    }
    const edit = withoutOurGroups(existing);
    if (!edit.ok) return isOurCommand(existing) ? leftAlone(file, who, edit.reason, log) : undefined;
    changed?.(existing, edit.text);
    if (edit.text === existing) return undefined;
    if (edit.text !== undefined) {
      writeByRename(file, edit.text);
      log.info(`${who}: removed our entries from ${file}, kept the rest`);
    } else if (fs.lstatSync(file).isSymbolicLink()) {
      // the link is the user's (a dotfiles repository, say): keep it, leave the file it names empty settings
      writeByRename(file, '{}\n');
      log.info(`${who}: removed our entries from ${file} (a link, kept)`);
    } else {
      fs.rmSync(file);
      log.info(`${who}: removed ${file}, which held only our entries`);
      tidy(path.dirname(file), created);
    }
    return undefined;
  });
}

/** Runs one file's change; an error of the file system leaves that file as it was and is reported, never thrown. */
export function changeOrLeave(file: string, who: string, log: Logger, change: () => FileLeft | undefined): FileLeft | undefined {
  try {
    return change();
  } catch (e) {
    return leftAlone(file, who, e instanceof Error ? e.message : String(e), log);
  }
}

/** The file stays as it was: logged, and returned for the window to tell the user once. */
export function leftAlone(file: string, who: string, reason: string, log: Logger): FileLeft {
  log.warn(`${who}: left ${file} as it was: ${reason}`);
  return { file, reason };
}

/**
 * An agent whose hook entries sit in one JSON file of its settings at user level and one per workspace
 * folder (Claude Code's, Gemini CLI's): where the files are, and the text with our entries in it.
 */
export interface EntryFiles {
  /** how the log names these files ("Claude Code hooks") */
  who: string;
  userFile: string;
  folderFile(folder: string): string;
  withOurs(existing: string | undefined): EntriesEdit;
}

export interface EntryFilesSync {
  /** only a trusted workspace writes our entries (removing them is always allowed) */
  trusted: boolean;
  created?: CreatedFolders;
  /** folders that left the workspace: ours come out of them, whatever the placement */
  leftFolders?: readonly string[];
}

/** Where an agent's entries go: its user-level file and each folder's. */
interface PlacedFiles {
  userFile: string;
  folderFile(folder: string): string;
}

/**
 * Our entries where the placement says (`user`: the user file; `workspace`: each folder's file), taken out of
 * every other of these files. In an untrusted window nothing is written, and the user-level entries are left
 * for the other windows. Returns the files left as they were.
 */
function syncByPlacement(
  placement: HooksPlacement,
  files: PlacedFiles,
  workspaceFolders: readonly string[],
  options: EntryFilesSync,
  add: (file: string) => FileLeft | undefined,
  remove: (file: string) => FileLeft | undefined,
): FileLeft[] {
  const left: FileLeft[] = [];
  const note = (p: FileLeft | undefined) => p && left.push(p);
  if (placement !== 'user') note(remove(files.userFile));
  else if (options.trusted) note(add(files.userFile));
  for (const folder of workspaceFolders) {
    const file = files.folderFile(folder);
    note(placement === 'workspace' && options.trusted ? add(file) : remove(file));
  }
  for (const folder of options.leftFolders ?? []) note(remove(files.folderFile(folder)));
  return left;
}

/** Brings an agent's files of entries (`EntryFiles`) in line with its setting (`syncByPlacement`). */
export function syncEntryFiles(
  placement: HooksPlacement,
  files: EntryFiles,
  workspaceFolders: readonly string[],
  log: Logger,
  options: EntryFilesSync,
): FileLeft[] {
  return syncByPlacement(
    placement,
    files,
    workspaceFolders,
    options,
    (file) => addEntries(file, files.who, files.withOurs, log, options.created),
    (file) => removeEntries(file, files.who, log, options.created),
  );
}

/**
 * The files of an agent whose hook entries sit in one settings file at `<home>/<settingsPath>` and one per
 * folder at `<folder>/<settingsPath>` (Gemini CLI's, Qwen Code's): where they are, their sync by placement
 * (`syncEntryFiles`), and the uninstall script's part. `withOurs` makes the file's text with the entries the
 * clients run.
 */
export function settingsFiles(who: string, settingsPath: string, withOurs: (clients: HookClients) => EntryFiles['withOurs']) {
  const userFile = (home = os.homedir()) => path.join(home, ...settingsPath.split('/'));
  const folderFile = (folder: string) => path.join(folder, ...settingsPath.split('/'));
  const sync: FilesSync = (placement, clients, workspaceFolders, log, options) =>
    syncEntryFiles(
      placement,
      { who, userFile: userFile(options.home), folderFile, withOurs: withOurs(clients) },
      workspaceFolders,
      log,
      options,
    );
  const removeUserLevel = (log: Logger, home?: string): void => void removeEntries(userFile(home), who, log);
  return { userFile, folderFile, sync, removeUserLevel, entries: agentEntries(userFile, settingsPath, sync, removeUserLevel) };
}

/** An agent's files brought in line with its setting (`home`: another home than the OS user's, for the tests). */
type FilesSync = (
  placement: HooksPlacement,
  clients: HookClients,
  workspaceFolders: readonly string[],
  log: Logger,
  options: EntryFilesSync & { home?: string },
) => FileLeft[];

/** The agent's `entries` (src/hooks/agentDescriptor.ts) of its user file, its folder path, its sync and its uninstall part. */
function agentEntries(
  userFile: () => string,
  folderPath: string,
  sync: FilesSync,
  removeUserLevel: (log: Logger, home?: string) => void,
): AgentEntries {
  return {
    userFiles: () => [userFile()],
    folderFile: folderPath,
    sync: async (r) =>
      sync(r.placement, r.clients, r.folders, r.log, { trusted: r.trusted, created: r.created, leftFolders: r.leftFolders }),
    removeUserLevel,
  };
}

/**
 * An agent whose entry is a whole file of ours, at `<agent folder>/<name>` at user level and `<folder>/<folderPath>`
 * in a workspace folder (pi's extension): `text` makes it for the clients, `isOurs` tells it from a file of the
 * user's of the same name, which is never written over nor removed. Its sync by placement, and the uninstall
 * script's part.
 */
export function ownFiles(spec: {
  who: string;
  userFile(home?: string): string;
  folderPath: string;
  text(clients: HookClients): string;
  isOurs(text: string): boolean;
}) {
  const { who, isOurs } = spec;
  const folderFile = (folder: string) => path.join(folder, ...spec.folderPath.split('/'));
  const write = (file: string, text: string, log: Logger, created?: CreatedFolders) =>
    changeOrLeave(file, who, log, () => {
      const existing = readIfThere(file);
      if (existing === text) return undefined;
      if (existing !== undefined && !isOurs(existing)) return leftAlone(file, who, 'it is not ours', log);
      makeFolderOf(file, created);
      writeByRename(file, text);
      log.info(`${who}: wrote ${file}`);
      return undefined;
    });
  const remove = (file: string, log: Logger, created?: CreatedFolders) =>
    changeOrLeave(file, who, log, () => {
      const existing = readIfThere(file);
      if (existing !== undefined && !isOurs(existing)) return undefined;
      if (existing !== undefined) {
        fs.rmSync(file);
        log.info(`${who}: removed ${file}`);
      }
      // gone already (the user deleted it): a folder we made may be left empty
      if (existing !== undefined || created) tidy(path.dirname(file), created);
      return undefined;
    });
  const sync: FilesSync = (placement, clients, workspaceFolders, log, options) => {
    const text = spec.text(clients);
    const files = { userFile: spec.userFile(options.home), folderFile };
    return syncByPlacement(
      placement,
      files,
      workspaceFolders,
      options,
      (file) => write(file, text, log, options.created),
      (file) => remove(file, log, options.created),
    );
  };
  const removeUserLevel = (log: Logger, home?: string): void => void remove(spec.userFile(home), log);
  return { folderFile, sync, removeUserLevel, entries: agentEntries(() => spec.userFile(), spec.folderPath, sync, removeUserLevel) };
}
