// Our hooks file on disk: at user level (`~/.copilot/hooks`, read by every window) or in each workspace
// folder (`.github/hooks`), as `editGuard.guardCopilotTools` says, and nowhere else. Only a file that is
// ours is ever replaced or removed; one that is not, or that cannot be read, is left as it was
// (docs/design.md §Surfaces). No `vscode`: the uninstall script (src/uninstall.ts) runs it in plain Node.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Logger } from '../../../core/ports';
import type { EntriesSync, FileLeft } from '../../../hooks/agentDescriptor';
import { changeOrLeave, leftAlone, readIfThere } from '../../../hooks/filesOnDisk';
import { HOOKS_FILE_NAME, HOOKS_FOLDER, hooksFileContent, isOurHooksFile, USER_HOOKS_FOLDER } from './hooksFile';

/** How the log names this file. */
const WHO = 'hooks bridge';

/**
 * How long a new hooks folder is left alone before our file goes into it. VS Code re-reads hook files
 * when a change event names their folder; a file written into a folder its watcher has not started
 * watching yet reaches it as the folder's creation only, and Copilot would not see the file until
 * something else changed (docs/design.md §VS Code and Copilot facts).
 */
export const NEW_FOLDER_SETTLE_MS = 1500;

/** The user-level hooks file: the same for every window and profile of this OS user. */
export const userHooksFile = (home = os.homedir()) => path.join(home, ...USER_HOOKS_FOLDER.split('/'), HOOKS_FILE_NAME);

/** A workspace folder's hooks file. */
export const folderHooksFile = (folder: string) => path.join(folder, ...HOOKS_FOLDER.split('/'), HOOKS_FILE_NAME);

/**
 * Our hooks file where the placement says, and nowhere else. The user-level file follows the setting
 * also in an untrusted window (which never writes it); a user-level file already runs in every window,
 * so a workspace copy beside it would run every hook twice.
 */
export async function syncHooksFiles(request: EntriesSync, home?: string, settleMs = NEW_FOLDER_SETTLE_MS): Promise<FileLeft[]> {
  const { placement, trusted, log } = request;
  const content = placement !== 'off' && trusted ? hooksFileContent(request.clients, request.toolNames) : undefined;
  const left: FileLeft[] = [];
  const note = (p: FileLeft | undefined) => p && left.push(p);
  const userFile = userHooksFile(home);
  if (placement === 'user') {
    if (content !== undefined) note(await writeOurHooksFile(userFile, content, log, settleMs));
  } else note(removeOurHooksFile(userFile, log).left);
  const inFolders = placement === 'workspace' && content !== undefined && !fs.existsSync(userFile) ? content : undefined;
  for (const folder of request.folders) {
    const file = folderHooksFile(folder);
    note(inFolders !== undefined ? await writeOurHooksFile(file, inFolders, log, settleMs) : removeOurHooksFile(file, log).left);
  }
  for (const folder of request.leftFolders) note(removeOurHooksFile(folderHooksFile(folder), log).left);
  return left;
}

/** Writes our hooks file; a file there that is not ours, or that cannot be read, is left as it was. */
export async function writeOurHooksFile(
  file: string,
  content: string,
  log: Logger,
  settleMs = NEW_FOLDER_SETTLE_MS,
): Promise<FileLeft | undefined> {
  let existing: string | undefined;
  try {
    existing = readIfThere(file);
  } catch (e) {
    return leftAlone(file, WHO, `it cannot be read (${e instanceof Error ? e.message : String(e)}), so it is not written over`, log);
  }
  if (existing === content) return undefined;
  if (existing !== undefined && !isOurHooksFile(existing)) return leftAlone(file, WHO, 'it is not ours', log);
  const folder = path.dirname(file);
  if (!fs.existsSync(folder)) {
    fs.mkdirSync(folder, { recursive: true });
    await new Promise((resolve) => setTimeout(resolve, settleMs));
  }
  return changeOrLeave(file, WHO, log, () => {
    fs.writeFileSync(file, content);
    log.info(`${WHO}: wrote ${file}`);
    return undefined;
  });
}

/**
 * Removes the hooks file if it is ours, and the two folders above it if we left them empty (never one
 * that holds anything else); a file that cannot be read is left as it was (`left`). Also run by the
 * uninstall script, without VS Code.
 */
export function removeOurHooksFile(file: string, log?: Logger): { removed: boolean; left?: FileLeft } {
  let existing: string | undefined;
  try {
    existing = readIfThere(file);
  } catch (e) {
    const reason = `it cannot be read (${e instanceof Error ? e.message : String(e)})`;
    return { removed: false, left: log ? leftAlone(file, WHO, reason, log) : { file, reason } };
  }
  if (existing === undefined || !isOurHooksFile(existing)) return { removed: false };
  fs.rmSync(file, { force: true });
  log?.info(`${WHO}: removed ${file}`);
  for (const dir of [path.dirname(file), path.dirname(path.dirname(file))]) {
    try {
      fs.rmdirSync(dir);
    } catch {
      break;
    }
  }
  return { removed: true };
}

/** The uninstall script's part for Copilot: our user-level hooks file goes, if it is ours. */
export function removeUserLevelEntries(log: Logger, home?: string): void {
  const file = userHooksFile(home);
  if (!removeOurHooksFile(file, log).removed) log.info(`no hooks file of ours at ${file}`);
}
