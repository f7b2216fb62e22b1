// Our hooks file on disk: where the user-level one is, and removing one only if it is ours. No
// `vscode`: the uninstall script (src/uninstall.ts) runs it in plain Node, after VS Code let go.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Logger } from '../../../core/ports';
import { HOOKS_FILE_NAME, isOurHooksFile, USER_HOOKS_FOLDER } from './hooksFile';

/** The user-level hooks file: the same for every window and profile of this OS user. */
export const userHooksFile = (home = os.homedir()) => path.join(home, ...USER_HOOKS_FOLDER.split('/'), HOOKS_FILE_NAME);

/**
 * Removes the hooks file if it is ours, and the two folders above it if we left them empty (never
 * one that holds anything else). Also run by the uninstall script, without VS Code.
 */
export function removeOurHooksFile(file: string): boolean {
  const existing = readOrUndefined(file);
  if (existing === undefined || !isOurHooksFile(existing)) return false;
  fs.rmSync(file, { force: true });
  for (const dir of [path.dirname(file), path.dirname(path.dirname(file))]) {
    try {
      fs.rmdirSync(dir);
    } catch {
      break;
    }
  }
  return true;
}

export function readOrUndefined(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The uninstall script's part for Copilot: our user-level hooks file goes, if it is ours. */
export function removeUserLevelHooksFile(log: Logger, home?: string): void {
  const file = userHooksFile(home);
  log.info(removeOurHooksFile(file) ? `removed ${file}` : `no hooks file of ours at ${file}`);
}
