// The GitHub Copilot CLI as it describes itself (src/hooks/agentDescriptor.ts): it runs the entries of Copilot's
// hooks file at user level (`~/.copilot/hooks`) and of a git root's `.github/hooks`, so `editGuard.guardCopilotTools`
// guards it too — no file, command or offer of its own.
import type { AgentDescriptor } from '../../../hooks/agentDescriptor';
import { copilotCliAgent } from './events';

export const copilotCli: AgentDescriptor = {
  hooks: copilotCliAgent,
  guarded: "the Copilot CLI's edits",
  setting: 'guardCopilotTools',
};
