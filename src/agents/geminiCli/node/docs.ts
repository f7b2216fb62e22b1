// The words package.json, the README and docs/agents.md hold of this agent (AgentDocs, src/hooks/agentDescriptor.ts):
// `npm run generate` writes them there; the words every agent shares are made from its descriptor.
import type { AgentDocs } from '../../../hooks/agentDescriptor';
import { geminiCli } from './agent';

export const docs: AgentDocs = {
  agent: geminiCli,
  row: {
    name: 'Gemini CLI',
    how: 'hooks in its settings',
    guarded: 'yes · yes (quotes too) · yes · counted · **not seen** (its `PreCompress` fires before every request)',
    proof: '`test/integration/settingsFileAgents.test.ts`',
  },
  setting: {
    description:
      "Put the same gate in front of **Gemini CLI's** file tools (`read_file`, `replace`, `write_file`) through Gemini CLI's hooks, in trusted workspaces: our hook entries go into a Gemini CLI settings file, next to your own settings, which are kept as they are (Gemini CLI rewrites that file when it starts; our entries stay). `user` is the one-click choice: nothing goes into any workspace, and a Gemini CLI session where this window's extension is not listening pays one `sh` start per file-tool call (the command exits at once); Gemini CLI starts no hook for its shell or its other tools. `workspace` keeps the entries to this workspace's folders, in each folder's `.gemini/settings.json` (the project's settings, which your repository may share). Turning it `off` removes our entries and keeps yours (a file or `.gemini` folder we made and left empty goes); uninstalling the extension removes them from the user settings. A settings file that is not plain JSON (comments included) is never rewritten: you get a warning naming it. Hooks run only while Gemini CLI's `hooksConfig.enabled` is on (its default).",
    placements: {
      off: "No hook entries of ours in Gemini CLI's settings: its file tools are not gated.",
      user: 'Our entries in your Gemini CLI user settings, `~/.gemini/settings.json`, next to your own; used by every Gemini CLI session of this user; nothing is written into any workspace.',
      workspace:
        "Our entries in each workspace folder's `.gemini/settings.json`, Gemini CLI's project settings (shared with your repository if it commits them).",
    },
    section: 'Guarding Gemini CLI',
    turnOn: {
      name: '**Gemini CLI**',
      offered: 'where Gemini CLI is used',
      writes: 'It adds its hook entries to `~/.gemini/settings.json`, next to your own settings.',
    },
    summary:
      "Put the gate's hook entries into Gemini CLI's settings: `user` merges them into `~/.gemini/settings.json` (nothing in the workspace), `workspace` into each folder's `.gemini/settings.json`, `off` takes them out; your own settings there are kept.",
  },
};
