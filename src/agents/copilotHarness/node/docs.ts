// The words package.json, the README and docs/agents.md hold of this agent (AgentDocs, src/hooks/agentDescriptor.ts):
// `npm run generate` writes them there; the words every agent shares are made from its descriptor.
import type { AgentDocs } from '../../../hooks/agentDescriptor';
import { copilotHarness } from './agent';

export const docs: AgentDocs = {
  agent: copilotHarness,
  row: {
    name: "Copilot harness (VS Code's Agent Host)",
    how: 'the same hooks file',
    guarded: 'yes · yes · yes · counted · yes',
    proof: '`test/harness/guard.test.ts`; the outcomes suite (its row in the README)',
  },
};
