// Gemini CLI as it describes itself (src/hooks/agentDescriptor.ts): its file tools through the hook
// entries we merge into its settings, at user level or in each folder's project settings.
import * as path from 'node:path';
import type { AgentDescriptor } from '../../../hooks/agentDescriptor';
import { geminiCliAgent } from './events';
import { geminiSettingsFiles } from './settingsOnDisk';

export const geminiCli: AgentDescriptor = {
  hooks: geminiCliAgent,
  guarded: "Gemini CLI's file tools",
  setting: 'guardGeminiCli',
  usedHere: { homeFolder: () => path.dirname(geminiSettingsFiles.userFile()) },
  entries: geminiSettingsFiles.entries,
};
