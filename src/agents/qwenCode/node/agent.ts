// Qwen Code as it describes itself (src/hooks/agentDescriptor.ts): its file tools through the hook
// entries we merge into its settings, at user level or in each folder's project settings.
import * as path from 'node:path';
import type { AgentDescriptor } from '../../../hooks/agentDescriptor';
import { qwenCodeAgent } from './events';
import { qwenSettingsFiles } from './settingsOnDisk';

export const qwenCode: AgentDescriptor = {
  hooks: qwenCodeAgent,
  guarded: "Qwen Code's file tools",
  setting: 'guardQwenCode',
  usedHere: { homeFolder: () => path.dirname(qwenSettingsFiles.userFile()) },
  entries: { ...qwenSettingsFiles.entries, workspaceNote: 'Qwen Code reads them only in a folder you trust in Qwen Code.' },
};
