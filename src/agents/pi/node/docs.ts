// The words package.json, the README and docs/agents.md hold of this agent (AgentDocs, src/hooks/agentDescriptor.ts):
// `npm run generate` writes them there; the words every agent shares are made from its descriptor.
import type { AgentDocs } from '../../../hooks/agentDescriptor';
import { pi } from './agent';

export const docs: AgentDocs = {
  agent: pi,
  row: {
    name: 'pi',
    how: 'an extension of ours in its process (`~/.pi/agent/extensions`)',
    guarded: 'yes · yes (quotes too) · yes · counted · `session_before_compact` (documented, not measured)',
    proof: '`test/integration/settingsFileAgents.test.ts`, `test/unit/piExtension.test.ts`',
  },
  setting: {
    description:
      "Put the same gate in front of **pi's** file tools (`read`, `edit`, `write`) through an extension of ours that pi loads into its own process, in trusted workspaces: one file, `agent-edit-guard.js`, which asks this window's gate before each of those calls and blocks a stale one with what changed (the model reads the reason). `user` is the one-click choice: the file goes into `~/.pi/agent/extensions/` (or `$PI_CODING_AGENT_DIR/extensions/`), nothing into any workspace, and a pi session where this window's extension is not listening pays nothing noticeable (no process starts). `workspace` puts it into each workspace folder's `.pi/extensions/`, which pi loads only when started in that folder itself. Turning it `off` removes our file (and a folder we made and left empty); uninstalling the extension removes the user-level one. A file of that name that is not ours is never written over: you get a warning naming it.",
    placements: {
      off: "No extension of ours in pi's folders: its file tools are not gated.",
      user: "Our extension in pi's user folder, `~/.pi/agent/extensions/agent-edit-guard.js`; loaded by every pi session of this user; nothing is written into any workspace.",
      workspace: "Our extension in each workspace folder's `.pi/extensions/`, which pi loads only when started in that folder itself.",
    },
    section: 'Guarding pi',
    turnOn: {
      name: '**pi**',
      offered: 'where pi is used',
      writes:
        'It puts one extension file, `~/.pi/agent/extensions/agent-edit-guard.js`, beside your own; pi loads it into its own process.',
    },
    summary:
      "Put the gate's extension into pi: `user` writes `~/.pi/agent/extensions/agent-edit-guard.js` (`$PI_CODING_AGENT_DIR/extensions/` when set; nothing in the workspace), `workspace` the same file into each folder's `.pi/extensions/` (pi loads it only when started in that folder), `off` deletes it; a file of that name that is not ours is left alone.",
  },
};
