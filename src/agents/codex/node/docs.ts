// The words package.json, the README and docs/agents.md hold of this agent (AgentDocs, src/hooks/agentDescriptor.ts):
// `npm run generate` writes them there; the words every agent shares are made from its descriptor.
import type { AgentDocs } from '../../../hooks/agentDescriptor';
import { codex } from './agent';

export const docs: AgentDocs = {
  agent: codex,
  row: {
    name: 'Codex',
    how: 'hooks, with trust lines',
    guarded: 'shell reads · `apply_patch` · yes · its turn ids · yes',
    proof: '`test/integration/codex.test.ts`, `codexGuard.test.ts`',
  },
  setting: {
    description:
      'Put the same gate in front of **OpenAI Codex\'s** file changes (its `apply_patch`, and the plain reads of its shell such as `cat F`, `sed -n \'1,80p\' F`, `nl -ba F`) through Codex\'s hooks, in trusted workspaces. Codex runs a hook only once it is trusted, so next to our entries we write their trust, and only theirs, into your `config.toml` (`[hooks.state."…"] trusted_hash`, marked `# Agent Edit Guard`); your own hooks and settings are kept as they are. `user` is the one-click choice: nothing goes into any workspace. `workspace` keeps the entries to this workspace\'s folders, and Codex reads them only in a project **you** trust in Codex (`[projects."<folder>"] trust_level = "trusted"`): Agent Edit Guard never trusts a project for you, and says so when Codex does not. Turning it `off` removes our entries and their trust lines and keeps yours; uninstalling the extension removes the user-level ones. A file that cannot be read is never rewritten: you get a warning naming it.',
    placements: {
      off: "No hook entries of ours in Codex's hooks: its file changes are not gated.",
      user: "Our entries in Codex's user hooks, `~/.codex/hooks.json` (`$CODEX_HOME/hooks.json` when CODEX_HOME is set), with their trust in `~/.codex/config.toml`; used by every Codex session of this user; nothing is written into any workspace.",
      workspace:
        "Our entries in each workspace folder's `.codex/hooks.json`, with their trust in `~/.codex/config.toml`. Codex reads a project's `.codex/` only when you trust that project in Codex; the extension does not trust it for you.",
    },
    section: 'Guarding Codex',
    turnOn: {
      name: "**Codex** (OpenAI's CLI, which patches the disk itself)",
      offered: 'where Codex is used',
      writes:
        'It adds its hook entries to `~/.codex/hooks.json` and, since Codex runs only hooks it trusts, their trust lines to `~/.codex/config.toml`.',
    },
    summary:
      "Put the gate's hook entries into Codex's hooks, with their trust in `~/.codex/config.toml`: `user` merges them into `~/.codex/hooks.json` (`$CODEX_HOME` when set; nothing in the workspace), `workspace` into each folder's `.codex/hooks.json` (Codex runs them only in a project you trust in Codex), `off` takes them and their trust lines out; your own hooks and settings there are kept.",
  },
};
