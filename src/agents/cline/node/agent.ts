// Cline as it describes itself (src/hooks/agentDescriptor.ts): its file tools through our plugin, loaded into its
// plugin sandbox from its user folder or from the folder it starts in.
import type { AgentDescriptor } from '../../../hooks/agentDescriptor';
import { clineAgent } from './events';
import { clineFolder } from './pluginFile';
import { clinePluginFiles } from './pluginOnDisk';

export const cline: AgentDescriptor = {
  hooks: clineAgent,
  guarded: "Cline's file tools",
  setting: 'guardCline',
  usedHere: { homeFolder: () => clineFolder() },
  entries: {
    ...clinePluginFiles.entries,
    workspaceNote: 'Cline loads them only where the folder is the root of the Git repository it starts in, or the folder it starts in.',
  },
};
