// The file of ours an agent loads into its own process (pi's extensions, Cline's plugins, opencode's plugins): a
// few lines that require our plugin (src/agents/<agent>/node/plugin.ts, bundled into this install of the
// extension, command.ts `pluginFile`) by its path and hand it to the agent in the shape the agent loads. Where the
// extension's files are gone (an uninstall that could not run its script), it hands over nothing that checks and
// the agent runs unguarded, never broken. Told from a user's file of the same name by its first line. Pure: the
// texts are unit-tested.
import { type HookClients, pluginFile } from './command';

export interface PluginLoader {
  /** the file's text, requiring this install's plugin */
  text(clients: HookClients): string;
  /** is this text ours (else it is the user's: never written over nor removed)? */
  isOurs(text: string): boolean;
}

export interface PluginLoaderSpec {
  /** the first line, a comment naming what it does */
  firstLine: string;
  /** the setting that writes it (`guardPi`) */
  setting: string;
  /** the agent's folder under src/agents: its plugin is dist/plugins/<agentFolder>.js */
  agentFolder: string;
  /** `esm`: the agent imports the file as an ES module (it gets its own `require`) */
  module: 'commonjs' | 'esm';
  /** what it hands the agent, from `guard` (our plugin's exports, undefined when they are gone) */
  exports: string;
}

export function pluginLoader(spec: PluginLoaderSpec): PluginLoader {
  const prologue =
    spec.module === 'esm'
      ? "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n"
      : "'use strict';\n";
  return {
    // the path is required through a name, not a literal: an agent that scans its plugins' literal requires
    // before loading them (Cline) would refuse the whole file when the extension's files are gone
    text: (clients) => `${spec.firstLine}
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
    isOurs: (text) => text.startsWith(`${spec.firstLine}\n`),
  };
}
