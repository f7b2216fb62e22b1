// Claude Code as it describes itself (src/hooks/agentDescriptor.ts): its file tools through the hook
// entries we merge into its settings, at user level or in each folder's local settings.
import * as path from 'node:path';
import type { AgentDescriptor } from '../../../hooks/agentDescriptor';
import { claudeCodeAgent } from './events';
import { LOCAL_SETTINGS_PATH } from './settings';
import { removeUserLevelEntries, syncClaudeHooks, userClaudeSettingsFile } from './settingsOnDisk';

export const claudeCode: AgentDescriptor = {
  hooks: claudeCodeAgent,
  guarded: "Claude Code's file tools",
  setting: 'guardClaudeCode',
  stateKeys: { offer: 'editGuard.claudeGuardOffer', foldersMade: 'editGuard.claudeFoldersMade' },
  usedHere: { extensions: ['anthropic.claude-code'], homeFolder: () => path.dirname(userClaudeSettingsFile()) },
  entries: {
    userFiles: () => [userClaudeSettingsFile()],
    folderFile: LOCAL_SETTINGS_PATH,
    sync: async (r) =>
      syncClaudeHooks(r.placement, r.clients, r.folders, r.log, { trusted: r.trusted, created: r.created, leftFolders: r.leftFolders }),
    removeUserLevel: removeUserLevelEntries,
  },
};
