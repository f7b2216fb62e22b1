// opencode as it describes itself (src/hooks/agentDescriptor.ts): its file tools through our plugin, loaded into
// its own process from its config folder or from the folder it starts in.
import { opencodeAgent } from './events';
import { opencodeConfigFolder, opencodePluginLoader } from './pluginFile';
import { opencodePluginFiles } from './pluginOnDisk';
import { pluginDescriptor } from '../../../hooks/pluginDescriptor';
import type { AgentDescriptor } from '../../../hooks/agentDescriptor';

export const opencode: AgentDescriptor = pluginDescriptor(opencodeAgent, opencodePluginLoader, opencodePluginFiles, {
  homeFolder: () => opencodeConfigFolder(),
  workspaceNote: 'opencode loads them when started in the folder or below it, and installs its plugin package into .opencode/.',
});
