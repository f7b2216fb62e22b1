// The words package.json, the README and docs/agents.md hold of this agent (AgentDocs, src/hooks/agentDescriptor.ts):
// `npm run generate` writes them there; the words every agent shares are made from its descriptor.
import type { AgentDocs } from '../../../hooks/agentDescriptor';
import { copilotCli } from './agent';

export const docs: AgentDocs = {
  agent: copilotCli,
  row: {
    name: 'GitHub Copilot CLI (terminal)',
    how: 'the Copilot hooks file (it runs `~/.copilot/hooks`)',
    guarded: 'yes · yes · yes · counted · —',
    proof:
      '`test/integration/concurrentWriters.test.ts`, the outcomes suite; its payloads are the harness\'s, field for field, so the window names it by the program that ran the hook (`copilot`): "Copilot CLI" in records, blocks and refusals — on Windows, where the hook client cannot read that, "Copilot harness"',
  },
};
