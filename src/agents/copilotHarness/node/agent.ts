// The Copilot harness as it describes itself (src/hooks/agentDescriptor.ts): it runs the entries of
// Copilot's hooks file, so `editGuard.guardCopilotTools` guards it too — one choice for both of
// Copilot's harnesses, and no file, command or offer of its own.
import type { AgentDescriptor } from '../../../hooks/agentDescriptor';
import { copilotHarnessAgent } from './events';

export const copilotHarness: AgentDescriptor = {
  hooks: copilotHarnessAgent,
  guarded: "the Copilot harness's edits",
  setting: 'guardCopilotTools',
};
