// The words package.json, the README and docs/agents.md hold of this agent (AgentDocs, src/hooks/agentDescriptor.ts):
// `npm run generate` writes them there; the words every agent shares are made from its descriptor.
import type { AgentDocs } from '../../../hooks/agentDescriptor';
import { cline } from './agent';

export const docs: AgentDocs = {
  agent: cline,
  row: {
    name: 'Cline',
    how: 'a plugin of ours in its plugin sandbox (`~/.cline/plugins`)',
    guarded: 'yes · yes (quotes too; `apply_patch`) · yes · counted · its auto-compaction notice (documented, not measured)',
    proof: '`test/integration/settingsFileAgents.test.ts`, `test/unit/clinePlugin.test.ts`',
  },
  setting: {
    description:
      "Put the same gate in front of **Cline's** file tools (`read_files`, `editor`, `apply_patch`) through a plugin of ours that Cline loads into its plugin sandbox, in trusted workspaces: one file, `agent-edit-guard.js`, which asks this window's gate before each of those calls and skips a stale one with what changed (the model reads the reason). `user` is the one-click choice: the file goes into `~/.cline/plugins/` (or `$CLINE_DIR/plugins/`), nothing into any workspace, and a Cline session where this window's extension is not listening pays nothing noticeable (no process starts). `workspace` puts it into each workspace folder's `.cline/plugins/`, which Cline loads only where that folder is the root of the Git repository it starts in, or the folder it starts in. Turning it `off` removes our file (and a folder we made and left empty); uninstalling the extension removes the user-level one. A file of that name that is not ours is never written over: you get a warning naming it.",
    placements: {
      off: "No plugin of ours in Cline's folders: its file tools are not gated.",
      user: "Our plugin in Cline's user folder, `~/.cline/plugins/agent-edit-guard.js`; loaded by every Cline session of this user; nothing is written into any workspace.",
      workspace:
        "Our plugin in each workspace folder's `.cline/plugins/`, which Cline loads only where that folder is the root of the Git repository it starts in, or the folder it starts in.",
    },
    section: 'Guarding Cline',
    turnOn: {
      name: '**Cline**',
      offered: 'where Cline is used',
      writes: 'It puts one plugin file, `~/.cline/plugins/agent-edit-guard.js`, beside your own; Cline loads it into its plugin sandbox.',
    },
    summary:
      "Put the gate's plugin into Cline: `user` writes `~/.cline/plugins/agent-edit-guard.js` (`$CLINE_DIR/plugins/` when set; nothing in the workspace), `workspace` the same file into each folder's `.cline/plugins/` (Cline loads it where that folder is the root of the Git repository it starts in, or the folder it starts in), `off` deletes it; a file of that name that is not ours is left alone.",
  },
};
