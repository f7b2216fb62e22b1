// The words package.json, the README and docs/agents.md hold of this agent (AgentDocs, src/hooks/agentDescriptor.ts):
// `npm run generate` writes them there; the words every agent shares are made from its descriptor.
import type { AgentDocs } from '../../../hooks/agentDescriptor';
import { copilot } from './agent';

export const docs: AgentDocs = {
  agent: copilot,
  row: {
    name: 'Copilot (Local agent)',
    how: 'the guarded tools, or its own tools through `~/.copilot/hooks`',
    guarded: "yes · yes · (edits the buffer) · Copilot's request ids · yes",
    proof: '`test/copilot/builtinTools.test.ts`, `compaction.test.ts`, `guardedAgent.test.ts`',
  },
  setting: {
    description:
      "Put the same gate in front of **Copilot's own** edit tools (`replace_string_in_file`, `multi_replace_string_in_file`, `insert_edit_into_file`, `apply_patch`, `create_file`) in every agent mode, through VS Code's agent hooks (`chat.useHooks`, trusted workspaces). A built-in edit of a file the chat has not seen as it is now is then denied, with what changed; a compaction of the chat forgets its read marks. The hooks file's commands ask this window's extension over a local connection whose address and secret stay in the editor's memory. Turning it `off` deletes the file; so does uninstalling the extension.",
    placements: {
      off: "Copilot's own edit tools are not gated (the guarded tools and the Guarded agent still are).",
      user: 'One file in your home folder, `~/.copilot/hooks/agent-edit-guard.json`, read by every window; nothing is written into any workspace.',
      workspace:
        'One file in each workspace folder, `.github/hooks/agent-edit-guard.json` (add it to `.gitignore` if you do not want to commit it).',
    },
    section: "Guarding Copilot's own edit tools",
    turnOn: {
      name: "**Copilot's own edit tools**, in every agent mode (keep them, and their Keep/Undo review)",
      offered: 'where Copilot Chat is installed',
      writes:
        "It writes one file, `~/.copilot/hooks/agent-edit-guard.json`, that VS Code runs as agent hooks, and covers both of Copilot's harnesses — the **Local agent** and the **Copilot harness** (VS Code's Agent Host) — and the **Copilot CLI**, which runs the same file.",
    },
    summary:
      "Put the gate in front of Copilot's **own** edit tools too, through VS Code's agent hooks: `user` keeps one file in `~/.copilot/hooks` (nothing in the workspace), `workspace` one in each folder's `.github/hooks`, `off` deletes it.",
  },
};
