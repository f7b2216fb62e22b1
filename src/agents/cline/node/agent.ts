// Cline as it describes itself (src/hooks/agentDescriptor.ts): its file tools through our plugin, loaded into its
// plugin sandbox from its user folder or from the folder it starts in.
import { clineAgent } from './events';
import { clineFolder, clinePluginLoader } from './pluginFile';
import { clinePluginFiles } from './pluginOnDisk';
import { pluginDescriptor } from '../../../hooks/pluginDescriptor';
import type { AgentDescriptor } from '../../../hooks/agentDescriptor';

export const cline: AgentDescriptor = pluginDescriptor(clineAgent, clinePluginLoader, clinePluginFiles, {
  homeFolder: () => clineFolder(),
  workspaceNote: 'Cline loads them only where the folder is the root of the Git repository it starts in, or the folder it starts in.',
});
