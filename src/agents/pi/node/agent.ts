// pi as it describes itself (src/hooks/agentDescriptor.ts): its file tools through our extension, loaded into its
// own process from its user folder or from the folder it starts in.
import * as path from 'node:path';
import { piAgent } from './events';
import { piAgentFolder, piExtensionLoader } from './extensionFile';
import { piExtensionFiles } from './extensionOnDisk';
import { pluginDescriptor } from '../../../hooks/pluginDescriptor';
import type { AgentDescriptor } from '../../../hooks/agentDescriptor';

export const pi: AgentDescriptor = pluginDescriptor(piAgent, piExtensionLoader, piExtensionFiles, {
  homeFolder: () => path.dirname(piAgentFolder()),
  workspaceNote: 'pi loads them only when started in the folder itself.',
});
