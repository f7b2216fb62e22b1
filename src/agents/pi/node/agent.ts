// pi as it describes itself (src/hooks/agentDescriptor.ts): its file tools through our extension, loaded into its
// own process from its user folder or from the folder it starts in.
import * as path from 'node:path';
import type { AgentDescriptor } from '../../../hooks/agentDescriptor';
import { piAgent } from './events';
import { piAgentFolder } from './extensionFile';
import { piExtensionFiles } from './extensionOnDisk';

export const pi: AgentDescriptor = {
  hooks: piAgent,
  guarded: "pi's file tools",
  setting: 'guardPi',
  usedHere: { homeFolder: () => path.dirname(piAgentFolder()) },
  entries: { ...piExtensionFiles.entries, workspaceNote: 'pi loads them only when started in the folder itself.' },
};
