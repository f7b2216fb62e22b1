// The file of ours pi loads as an extension (pi loads every `*.js` and `*.ts` of `~/.pi/agent/extensions/` and of
// the `.pi/extensions/` of the folder it starts in): a few lines that require our plugin (plugin.ts, bundled into
// this install of the extension) by its path. Where the extension's files are gone (an uninstall that could not
// run its script), it loads nothing and pi runs unguarded, never broken. Pure: its text is unit-tested.
import * as os from 'node:os';
import * as path from 'node:path';
import { type HookClients, pluginFile } from '../../../hooks/command';

/** Its name in pi's extension folders. */
export const EXTENSION_FILE_NAME = 'agent-edit-guard.js';
/** Under a workspace folder: pi's project extensions. */
export const FOLDER_EXTENSION_PATH = `.pi/extensions/${EXTENSION_FILE_NAME}`;

/** The first line of our file: a file of that name without it is the user's, never written over nor removed. */
const FIRST_LINE = "// Agent Edit Guard: pi's file tools through the gate of the VS Code window on this folder.";

/** pi's own folder (`$PI_CODING_AGENT_DIR`, `~` expanded, else `~/.pi/agent`), as pi finds it. */
export function piAgentFolder(home = os.homedir(), env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.PI_CODING_AGENT_DIR;
  if (!dir) return path.join(home, '.pi', 'agent');
  return dir === '~' ? home : dir.startsWith('~/') ? path.join(home, dir.slice(2)) : dir;
}

/** Our user-level file. */
export const userExtensionFile = (home?: string) => path.join(piAgentFolder(home), 'extensions', EXTENSION_FILE_NAME);

/** The file's text, requiring this install's plugin. */
export function extensionFileText(clients: HookClients): string {
  return `${FIRST_LINE}
// Written by the VS Code extension Agent Edit Guard (setting editGuard.guardPi), which removes it when turned
// off or uninstalled; do not edit. Without the extension's files it does nothing.
'use strict';
let guard;
try {
  guard = require(${JSON.stringify(pluginFile(clients, 'pi'))});
} catch {
  guard = undefined;
}
module.exports = function agentEditGuard(pi) {
  if (guard) guard.attach(pi);
};
`;
}

export const isOurExtensionFile = (text: string) => text.startsWith(`${FIRST_LINE}\n`);
