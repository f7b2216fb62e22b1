// opencode as it describes itself (src/hooks/agentDescriptor.ts): its file tools through our plugin, loaded into
// its own process from its config folder or from the folder it starts in.
import type { AgentDescriptor } from '../../../hooks/agentDescriptor';
import { opencodeAgent } from './events';
import { opencodeConfigFolder } from './pluginFile';
import { opencodePluginFiles } from './pluginOnDisk';

export const opencode: AgentDescriptor = {
  hooks: opencodeAgent,
  guarded: "opencode's file tools",
  setting: 'guardOpencode',
  usedHere: { homeFolder: () => opencodeConfigFolder() },
  entries: {
    ...opencodePluginFiles.entries,
    workspaceNote: 'opencode loads them when started in the folder or below it, and installs its plugin package into .opencode/.',
  },
};
