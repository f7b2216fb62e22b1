// Gemini CLI as it describes itself (src/hooks/agentDescriptor.ts): its file tools through the hook
// entries we merge into its settings, at user level or in each folder's project settings.
import * as path from 'node:path';
import type { AgentDescriptor } from '../../../hooks/agentDescriptor';
import { geminiCliAgent } from './events';
import { SETTINGS_PATH } from './settings';
import { removeUserLevelEntries, syncGeminiHooks, userGeminiSettingsFile } from './settingsOnDisk';

export const geminiCli: AgentDescriptor = {
  hooks: geminiCliAgent,
  guarded: "Gemini CLI's file tools",
  setting: 'guardGeminiCli',
  usedHere: { homeFolder: () => path.dirname(userGeminiSettingsFile()) },
  entries: {
    userFiles: () => [userGeminiSettingsFile()],
    folderFile: SETTINGS_PATH,
    sync: async (r) =>
      syncGeminiHooks(r.placement, r.clients, r.folders, r.log, { trusted: r.trusted, created: r.created, leftFolders: r.leftFolders }),
    removeUserLevel: removeUserLevelEntries,
  },
};
