// The agents the gate stands in front of through their hooks, one line each: the window registers them
// (src/activation/agents.ts), and the settings, commands, state keys and the uninstall script are built
// from this list (docs/design.md §Layers, "A new agent is a new folder…"); `npm run generate`
// (scripts/generate.mjs) writes each agent's setting, command and docs rows from it and the folder's
// docs.ts. Plain Node: the uninstall script and the generator read it. The order is the quick pick's, the
// Settings editor's and the docs'.
import { HOOKS_PLACEMENTS, SETTINGS } from '../core/settings';
import { type AgentDescriptor, commandOf, ownsEntries, stateKeysOf } from '../hooks/agentDescriptor';
import { claudeCode } from './claudeCode/node/agent';
import { cline } from './cline/node/agent';
import { codex } from './codex/node/agent';
import { copilot } from './copilot/node/agent';
import { copilotCli } from './copilotCli/node/agent';
import { copilotHarness } from './copilotHarness/node/agent';
import { geminiCli } from './geminiCli/node/agent';
import { opencode } from './opencode/node/agent';
import { pi } from './pi/node/agent';
import { qwenCode } from './qwenCode/node/agent';

export const AGENTS: readonly AgentDescriptor[] = [
  copilot,
  copilotHarness,
  copilotCli,
  claudeCode,
  codex,
  geminiCli,
  qwenCode,
  pi,
  cline,
  opencode,
];

/** The agents that keep hook entries of their own: each has a setting, a command and an offer. */
export const agentsWithEntries = (agents: readonly AgentDescriptor[] = AGENTS) => agents.filter(ownsEntries);

/** A placement setting, as package.json declares it: where an agent's hook entries go. */
export const PLACEMENT_SETTING = { default: 'off', scope: 'window', values: HOOKS_PLACEMENTS } as const;
/** A boolean an agent's placement replaced, kept so that it can be moved over. */
export const LEGACY_SETTING = { default: false, scope: 'window', deprecated: true } as const;

/** Every `editGuard.*` setting: the gate's (src/core/settings.ts) and each agent's placement (and the boolean it replaced). */
export function allSettings(
  agents: readonly AgentDescriptor[] = AGENTS,
): Record<string, { default: unknown; scope: string; values?: readonly unknown[]; deprecated?: true; minimum?: number; maximum?: number }> {
  const table: Record<string, { default: unknown; scope: string; values?: readonly unknown[]; deprecated?: true }> = { ...SETTINGS };
  for (const agent of agentsWithEntries(agents)) {
    table[agent.setting] = PLACEMENT_SETTING;
    if (agent.legacySetting) table[agent.legacySetting.key] = LEGACY_SETTING;
  }
  return table;
}

/** The commands of the agents: `editGuard.<setting>` opens an agent's choice. */
export const agentCommands = (agents: readonly AgentDescriptor[] = AGENTS) => agentsWithEntries(agents).map(commandOf);

/** The global-state keys of the agents. */
export const agentStateKeys = (agents: readonly AgentDescriptor[] = AGENTS) =>
  agentsWithEntries(agents).flatMap((a) => Object.values(stateKeysOf(a)));
