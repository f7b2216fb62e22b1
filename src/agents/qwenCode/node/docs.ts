// The words package.json, the README and docs/agents.md hold of this agent (AgentDocs, src/hooks/agentDescriptor.ts):
// `npm run generate` writes them there; the words every agent shares are made from its descriptor.
import type { AgentDocs } from '../../../hooks/agentDescriptor';
import { qwenCode } from './agent';

export const docs: AgentDocs = {
  agent: qwenCode,
  row: {
    name: 'Qwen Code',
    how: 'hooks in its settings',
    guarded: 'yes · yes (quotes too) · yes · its `prompt_id` · `PreCompact` (documented, not measured)',
    proof: '`test/integration/settingsFileAgents.test.ts`',
  },
  setting: {
    description:
      "Put the same gate in front of **Qwen Code's** file tools (`read_file`, `edit`, `write_file`) through Qwen Code's hooks, in trusted workspaces: our hook entries go into a Qwen Code settings file, next to your own settings, which are kept as they are (Qwen Code rewrites that file when it starts; our entries stay). `user` is the one-click choice: nothing goes into any workspace, and a Qwen Code session where this window's extension is not listening pays one `sh` start per file-tool call (the command exits at once); Qwen Code starts no hook for its shell or its other tools. `workspace` keeps the entries to this workspace's folders, in each folder's `.qwen/settings.json`, which Qwen Code reads only in a folder you trust in Qwen Code. Turning it `off` removes our entries and keeps yours (a file or `.qwen` folder we made and left empty goes); uninstalling the extension removes them from the user settings. A settings file that is not plain JSON (comments included) is never rewritten: you get a warning naming it.",
    placements: {
      off: "No hook entries of ours in Qwen Code's settings: its file tools are not gated.",
      user: 'Our entries in your Qwen Code user settings, `~/.qwen/settings.json`, next to your own; used by every Qwen Code session of this user; nothing is written into any workspace.',
      workspace:
        "Our entries in each workspace folder's `.qwen/settings.json`, Qwen Code's project settings, which it reads only in a folder you trust in Qwen Code.",
    },
    section: 'Guarding Qwen Code',
    turnOn: {
      name: '**Qwen Code**',
      offered: 'where Qwen Code is used',
      writes: 'It adds its hook entries to `~/.qwen/settings.json`, next to your own settings.',
    },
    summary:
      "Put the gate's hook entries into Qwen Code's settings: `user` merges them into `~/.qwen/settings.json` (nothing in the workspace), `workspace` into each folder's `.qwen/settings.json`, `off` takes them out; your own settings there are kept.",
  },
};
