// The file of ours an agent loads into its own process (pi's extensions, Cline's plugins, opencode's plugins): a
// few lines that require our plugin (src/agents/<agent>/node/plugin.ts, bundled into this install of the
// extension, command.ts `pluginFile`) by its path and hand it to the agent in the shape the agent loads. Where the
// extension's files are gone (an uninstall that could not run its script), it hands over nothing that checks and
// the agent runs unguarded, never broken. Told from a user's file of the same name by its first line. Where it
// stands: one name in the agent's folder of plugins at user level, and in a workspace folder's (placed by
// filesOnDisk.ts `ownFiles`). Pure: the texts are unit-tested.
import * as path from 'node:path';
import { type HookClients, pluginFile } from './command';

/** Its name in every agent's folder of plugins. */
export const PLUGIN_FILE_NAME = 'agent-edit-guard.js';

export interface PluginLoader {
  /** the setting that writes it: the agent's descriptor takes it from here, so it is written once */
  readonly setting: string;
  /** the file's text, requiring this install's plugin */
  text(clients: HookClients): string;
  /** is this text ours (else it is the user's: never written over nor removed)? */
  isOurs(text: string): boolean;
  /** our user-level file (`home`: another home than the OS user's, for the tests) */
  userFile(home?: string): string;
  /** our file under a workspace folder, relative to it */
  folderPath: string;
}

export interface PluginLoaderSpec {
  /** the agent, as the user knows it: the first line, a comment naming what the file does, names it */
  agentName: string;
  /** the setting that writes it (`guardPi`) */
  setting: string;
  /** the agent's folder under src/agents: its plugin is dist/plugins/<agentFolder>.js */
  agentFolder: string;
  /** `esm`: the agent imports the file as an ES module (it gets its own `require`); else it requires it (CommonJS) */
  module?: 'esm';
  /** what it hands the agent, from `guard` (our plugin's exports, undefined when they are gone) */
  exports: string;
  /**
   * The agent's folders of plugins: `user`, at user level, as the agent finds it (`home`: another home than the OS
   * user's, for the tests); `workspace`, under a workspace folder (`.cline/plugins`).
   */
  folders: { user(home?: string): string; workspace: string };
}

export function pluginLoader(spec: PluginLoaderSpec): PluginLoader {
  const firstLine = `// Agent Edit Guard: ${spec.agentName}'s file tools through the gate of the VS Code window on this folder.`;
  const prologue =
    spec.module === 'esm'
      ? "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n"
      : "'use strict';\n";
  return {
    setting: spec.setting,
    // the path is required through a name, not a literal: an agent that scans its plugins' literal requires
    // before loading them (Cline) would refuse the whole file when the extension's files are gone
    text: (clients) => `${firstLine}
// Written by the VS Code extension Agent Edit Guard (setting editGuard.${spec.setting}), which removes it when turned
// off or uninstalled; do not edit. Without the extension's files it does nothing.
${prologue}const plugin = ${JSON.stringify(pluginFile(clients, spec.agentFolder))};
let guard;
try {
  guard = require(plugin);
} catch {
  guard = undefined;
}
${spec.exports}`,
    isOurs: (text) => text.startsWith(`${firstLine}\n`),
    userFile: (home) => path.join(spec.folders.user(home), PLUGIN_FILE_NAME),
    folderPath: `${spec.folders.workspace}/${PLUGIN_FILE_NAME}`,
  };
}
