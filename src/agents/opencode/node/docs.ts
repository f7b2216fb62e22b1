// The words package.json, the README and docs/agents.md hold of this agent (AgentDocs, src/hooks/agentDescriptor.ts):
// `npm run generate` writes them there; the words every agent shares are made from its descriptor.
import type { AgentDocs } from '../../../hooks/agentDescriptor';
import { opencode } from './agent';

export const docs: AgentDocs = {
  agent: opencode,
  row: {
    name: 'opencode',
    how: 'a plugin of ours in its process (`~/.config/opencode/plugin`)',
    guarded: 'yes · yes (quotes too; `apply_patch`) · yes · counted · `experimental.session.compacting` (documented, not measured)',
    proof: '`test/integration/settingsFileAgents.test.ts`, `test/unit/opencodePlugin.test.ts`',
  },
  setting: {
    description:
      "Put the same gate in front of **opencode's** file tools (`read`, `edit`, `write`, `apply_patch`) through a plugin of ours that opencode loads into its own process, in trusted workspaces: one file, `agent-edit-guard.js`, which asks this window's gate before each of those calls and refuses a stale one with what changed (the model reads the reason). `user` is the one-click choice: the file goes into `~/.config/opencode/plugin/` (or `$XDG_CONFIG_HOME/opencode/plugin/`), nothing into any workspace, and an opencode session where this window's extension is not listening pays nothing noticeable (no process starts). `workspace` puts it into each workspace folder's `.opencode/plugin/`, which opencode loads when started in that folder or below it. opencode itself installs its plugin package (`@opencode-ai/plugin`) into a folder that holds a plugin, when it starts. Turning it `off` removes our file (and a folder we made and left empty); uninstalling the extension removes the user-level one. A file of that name that is not ours is never written over: you get a warning naming it.",
    placements: {
      off: "No plugin of ours in opencode's folders: its file tools are not gated.",
      user: "Our plugin in opencode's config folder, `~/.config/opencode/plugin/agent-edit-guard.js`; loaded by every opencode session of this user; nothing is written into any workspace.",
      workspace:
        "Our plugin in each workspace folder's `.opencode/plugin/`, which opencode loads when started in that folder or below it (and installs its plugin package into `.opencode/`).",
    },
    section: 'Guarding opencode',
    turnOn: {
      name: '**opencode**',
      offered: 'where opencode is used',
      writes:
        'It puts one plugin file, `~/.config/opencode/plugin/agent-edit-guard.js`, beside your own; opencode loads it into its own process (and installs its plugin package there, as for any plugin).',
    },
    summary:
      "Put the gate's plugin into opencode: `user` writes `~/.config/opencode/plugin/agent-edit-guard.js` (`$XDG_CONFIG_HOME/opencode/plugin/` when set; nothing in the workspace), `workspace` the same file into each folder's `.opencode/plugin/` (opencode loads it when started there or below), `off` deletes it; a file of that name that is not ours is left alone. opencode installs its plugin package beside a plugin itself.",
  },
};
