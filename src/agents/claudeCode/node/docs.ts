// The words package.json, the README and docs/agents.md hold of this agent (AgentDocs, src/hooks/agentDescriptor.ts):
// `npm run generate` writes them there; the words every agent shares are made from its descriptor.
import type { AgentDocs } from '../../../hooks/agentDescriptor';
import { claudeCode } from './agent';

export const docs: AgentDocs = {
  agent: claudeCode,
  row: {
    name: 'Claude Code',
    how: 'hooks in its settings',
    guarded: 'yes · yes · yes · counted · `/compact`',
    proof: '`test/integration/claudeCode.test.ts`, `claudeGuard.test.ts`',
  },
  setting: {
    description:
      "Put the same gate in front of **Claude Code's** file tools (`Read`, `Edit`, `Write`, `MultiEdit`, `NotebookEdit`) through Claude Code's hooks, in trusted workspaces: our hook entries go into a Claude Code settings file, next to your own settings, which are kept as they are. `user` is the one-click choice, as for Copilot: nothing goes into any workspace, and a Claude Code session where this window's extension is not listening pays one `sh` start per file-tool call (the command exits at once); Claude Code starts no hook for `Bash` or its other tools. `workspace` keeps the entries to this workspace's folders. Turning it `off` removes our entries and keeps yours (a file or `.claude` folder we made and left empty goes); uninstalling the extension removes them from the user settings. A settings file that is not valid JSON is never rewritten: you get a warning naming it.",
    placements: {
      off: "No hook entries of ours in Claude Code's settings: its file tools are not gated.",
      user: 'Our entries in your Claude Code user settings, `~/.claude/settings.json`, next to your own; used by every Claude Code session of this user; nothing is written into any workspace.',
      workspace:
        "Our entries in each workspace folder's `.claude/settings.local.json`, Claude Code's personal project settings (not meant to be committed: add it to `.gitignore` if your repository does not ignore it yet).",
    },
    section: 'Guarding Claude Code',
    turnOn: {
      name: '**Claude Code**',
      offered: 'where Claude Code is used',
      writes: 'It adds its hook entries to `~/.claude/settings.json`, next to your own settings.',
    },
    summary:
      "Put the gate's hook entries into Claude Code's settings: `user` merges them into `~/.claude/settings.json` (nothing in the workspace), `workspace` into each folder's `.claude/settings.local.json`, `off` takes them out; your own settings there are kept.",
  },
};
