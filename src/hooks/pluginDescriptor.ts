// An agent that loads our plugin file into its own process (pi, Cline, opencode), as its descriptor: what is
// guarded is its file tools, its setting is the one its plugin file names (pluginLoader.ts: written once), its
// entries are that file on disk (filesOnDisk.ts `ownFiles`), and it is used here where its own folder is.
// Plain Node: the uninstall script reads the descriptors.
import type { AgentDescriptor, AgentEntries } from './agentDescriptor';
import type { AgentHooks } from './event';
import type { PluginLoader } from './pluginLoader';

export function pluginDescriptor(
  hooks: AgentHooks,
  loader: Pick<PluginLoader, 'setting'>,
  files: { entries: AgentEntries },
  where: { homeFolder(): string; workspaceNote: string },
): AgentDescriptor {
  return {
    hooks,
    guarded: `${hooks.name}'s file tools`,
    setting: loader.setting,
    usedHere: { homeFolder: where.homeFolder },
    entries: { ...files.entries, workspaceNote: where.workspaceNote },
  };
}
