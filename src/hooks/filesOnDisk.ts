// Writing an agent's files that are the user's too (Claude Code's settings, Codex's hooks.json and
// config.toml): read one without taking an unreadable file for a missing one, replace one by rename so
// that the agent (or another window) never reads half of it, and remove a folder only when we made it
// and it is empty. Plain Node: the uninstall script runs it too.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The folders our entries made, so that we remove only those (and only when empty); kept by the caller across windows and restarts. */
export interface CreatedFolders {
  has(dir: string): boolean;
  add(dir: string): void;
  delete(dir: string): void;
}

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

/** Makes the file's folder if it is missing, noting it as ours. */
export function makeFolderOf(file: string, created?: CreatedFolders): void {
  const dir = path.dirname(file);
  if (fs.existsSync(dir)) return;
  fs.mkdirSync(dir, { recursive: true });
  created?.add(dir);
}

/** Removes the folder if it is empty and we made it (without a record: if it is empty). */
export function tidy(dir: string, created: CreatedFolders | undefined): void {
  if (created && !created.has(dir)) return;
  try {
    fs.rmdirSync(dir);
    created?.delete(dir);
  } catch (e) {
    // not empty: the user's (or the agent's) files are in it
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') created?.delete(dir);
  }
}
