// Our hooks file on disk: where the user-level one is, and removing one only if it is ours. No
// `vscode`: the uninstall script (uninstall.ts) runs it in plain Node, after VS Code let go.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CLIENT_SCRIPT_NAME } from '../hookClient';
import { HOOKS_FILE_NAME, isOurHooksFile, USER_HOOKS_FOLDER } from './hooksFile';

/** The Node client's file in dist/ (scripts/build.mjs). */
export const SCRIPT_NAME = 'hook-bridge.js';
/** The file names our hook commands run: a hooks file naming only these is ours. */
export const CLIENT_NAMES = [SCRIPT_NAME, CLIENT_SCRIPT_NAME] as const;

/** The user-level hooks file: the same for every window and profile of this OS user. */
export const userHooksFile = (home = os.homedir()) => path.join(home, ...USER_HOOKS_FOLDER.split('/'), HOOKS_FILE_NAME);

/**
 * Removes the hooks file if it is ours, and the two folders above it if we left them empty (never
 * one that holds anything else). Also run by the uninstall script, without VS Code.
 */
export function removeOurHooksFile(file: string): boolean {
  const existing = readOrUndefined(file);
  if (existing === undefined || !isOurHooksFile(existing, CLIENT_NAMES)) return false;
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
