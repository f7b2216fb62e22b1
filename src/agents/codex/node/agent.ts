// Codex as it describes itself (src/hooks/agentDescriptor.ts): its apply_patch and shell reads through
// the hook entries we merge into its hooks files, with their trust lines in its config.toml.
import type { AgentDescriptor } from '../../../hooks/agentDescriptor';
import { codexAgent } from './events';
import { codexConfigFile, codexHome, removeUserLevelEntries, syncCodexHooks, untrustedProjects, userCodexHooksFile } from './hooksOnDisk';

export const codex: AgentDescriptor = {
  hooks: codexAgent,
  guarded: "Codex's file changes",
  setting: 'guardCodex',
  stateKeys: { offer: 'editGuard.codexGuardOffer', foldersMade: 'editGuard.codexFoldersMade' },
  usedHere: { extensions: ['openai.chatgpt'], homeFolder: () => codexHome() },
  entries: {
    userFiles: () => [userCodexHooksFile(), codexConfigFile()],
    folderFile: '.codex/hooks.json',
    sync: async (r) =>
      syncCodexHooks(r.placement, r.clients, r.folders, r.log, { trusted: r.trusted, created: r.created, leftFolders: r.leftFolders })
        .problems,
    removeUserLevel: removeUserLevelEntries,
    // Codex reads a project's .codex/ only when it trusts the project
    inactiveFolders: (folders) => untrustedProjects(folders),
    workspaceNote: 'Codex runs them only in a project you trust in Codex; Agent Edit Guard does not trust it for you.',
  },
};
