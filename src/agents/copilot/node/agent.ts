// Copilot's Local agent as it describes itself (src/hooks/agentDescriptor.ts): its own edit tools
// through VS Code's agent hooks, one hooks file of ours at user level or in each folder.
import type { AgentDescriptor } from '../../../hooks/agentDescriptor';
import { copilotAgent } from './events';
import { HOOKS_FILE_NAME, HOOKS_FOLDER } from './hooksFile';
import { removeUserLevelEntries, syncHooksFiles, userHooksFile } from './hooksFileOnDisk';

export const copilot: AgentDescriptor = {
  hooks: copilotAgent,
  guarded: "Copilot's own edit tools",
  setting: 'guardCopilotTools',
  // the boolean of the first release: `true` put the file in each folder
  legacySetting: { key: 'guardBuiltinTools', on: 'workspace' },
  stateKeys: { offer: 'editGuard.copilotGuardOffer' },
  usedHere: { extensions: ['GitHub.copilot-chat'] },
  entries: {
    userFiles: () => [userHooksFile()],
    folderFile: `${HOOKS_FOLDER}/${HOOKS_FILE_NAME}`,
    sync: (request) => syncHooksFiles(request),
    removeUserLevel: removeUserLevelEntries,
  },
};
