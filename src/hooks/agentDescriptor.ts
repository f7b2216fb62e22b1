// An agent the gate stands in front of through its hooks, as its folder describes it
// (src/agents/<agent>/node/agent.ts): everything the window, the settings, the commands, the status
// bar's quick pick, the one-time offer and the uninstall script need to know of it. The lists of those
// are built from the list of agents (src/agents/catalog.ts), so a new agent is its folder and one line
// there (docs/design.md §Layers). Plain Node: the uninstall script reads it too.
import type { Logger } from '../core/ports';
import { type HooksPlacement, SECTION } from '../core/settings';
import type { HookClients } from './command';
import type { AgentHooks } from './event';

/** A file of the agent's that was left as it was (it is the user's, and something in it is not ours to change), and why. */
export interface FileLeft {
  file: string;
  reason: string;
}

/** The folders our entries made, so that we remove only those (and only when empty); kept by the caller across windows and restarts. */
export interface CreatedFolders {
  has(dir: string): boolean;
  add(dir: string): void;
  delete(dir: string): void;
}

/** What bringing an agent's hook entries in line with its setting needs to know. */
export interface EntriesSync {
  placement: HooksPlacement;
  clients: HookClients;
  /** the tool names whose events the gate needs, of every agent that runs these entries */
  toolNames: readonly string[];
  /** the workspace's folders on disk, and those that left it since the last sync (they lose our entries) */
  folders: readonly string[];
  leftFolders: readonly string[];
  /** an untrusted workspace writes nothing (a user-level entry stays as it is) */
  trusted: boolean;
  /** the folders our entries made, so that only those are removed */
  created: CreatedFolders;
  log: Logger;
}

/** An agent's hook entries on disk: where they go, how they are kept in step, and how they are taken out. */
export interface AgentEntries {
  /** the user-level files our entries go into (named in the offer and the choice) */
  userFiles(): string[];
  /** where `workspace` puts them, relative to a folder (named in the choice) */
  folderFile: string;
  /** our entries where the placement says and nowhere else, everything of the user's kept; the files left as they were */
  sync(request: EntriesSync): Promise<FileLeft[]>;
  /** the uninstall script's part: our user-level entries out, the user's kept */
  removeUserLevel(log: Logger, home?: string): void;
  /** of these folders, those where `workspace` entries do not run (Codex skips an untrusted project's hooks) */
  inactiveFolders?(folders: readonly string[]): string[];
  /** said of the `workspace` choice, in the user's words */
  workspaceNote?: string;
}

export interface AgentDescriptor {
  /** how the gate reads its hook events: its id (in its hook commands), its name, its payloads */
  hooks: AgentHooks;
  /** what is guarded, as the user calls it ("Claude Code's file tools"): the offer, the choice, the quick pick */
  guarded: string;
  /**
   * Its setting, `editGuard.<setting>` (`off` | `user` | `workspace`), and its command of the same id. An
   * agent that runs another agent's hook entries (the Copilot harness runs Copilot's) names that agent's
   * setting and has no entries, command or offer of its own.
   */
  setting: string;
  /** the boolean setting its setting replaced, moved over at activation: `true` became `on` */
  legacySetting?: { key: string; on: HooksPlacement };
  /** global-state keys kept under older names (else derived from the setting: `stateKeysOf`) */
  stateKeys?: Partial<AgentStateKeys>;
  /** signs that the agent is used here, for the one-time offer: a VS Code extension, its folder in the home */
  usedHere?: { extensions?: readonly string[]; homeFolder?: () => string };
  /** where its hook entries go; none for an agent that runs another agent's */
  entries?: AgentEntries;
}

/** The global-state keys of an agent: the answer to its offer, and the folders its entries made. */
export interface AgentStateKeys {
  offer: string;
  foldersMade: string;
}

/** `editGuard.<setting>`: the setting's id, and the id of the command that opens its choice. */
export const commandOf = (agent: AgentDescriptor) => `${SECTION}.${agent.setting}`;

export const stateKeysOf = (agent: AgentDescriptor): AgentStateKeys => ({
  offer: agent.stateKeys?.offer ?? `${SECTION}.${agent.setting}.offer`,
  foldersMade: agent.stateKeys?.foldersMade ?? `${SECTION}.${agent.setting}.foldersMade`,
});

/** Does the agent keep entries of its own (a setting, a command, an offer), rather than running another's? */
export const ownsEntries = (agent: AgentDescriptor): agent is AgentDescriptor & { entries: AgentEntries } => agent.entries !== undefined;

/**
 * What the manifest and the docs say of an agent, in its folder (src/agents/<agent>/node/docs.ts) and not in
 * its descriptor: the extension never shows these words itself (VS Code reads package.json), so they stay
 * out of its bundle. `npm run generate` (scripts/generate.mjs) writes package.json's setting and command,
 * package.nls.json's strings, the README's bullet and settings row and docs/agents.md's row from them; the
 * words every agent shares (the choices' labels, the command's title, the deprecation of a legacy boolean)
 * are made there from the descriptor.
 */
export interface AgentDocs {
  /** the agent these words are of */
  agent: AgentDescriptor;
  /** its row in docs/agents.md's "What is guarded, per agent" */
  row: {
    /** the agent, as the table names it (its harness in brackets where it has several) */
    name: string;
    /** how the gate stands in front of it */
    how: string;
    /** reads mark · edits checked · rule 13 · turns · compaction */
    guarded: string;
    /** the tests that prove it */
    proof: string;
  };
  /** an agent with entries of its own: its setting's words, and the README's */
  setting?: {
    /** the setting's description, Markdown, as the Settings editor shows it */
    description: string;
    /** what each choice does, shown under it */
    placements: Record<HooksPlacement, string>;
    /** the heading of its section in docs/agents.md, which the README links to */
    section: string;
    /** the README's bullet under "Turn it on": the agent in bold, where the offer is made, what turning it on writes */
    turnOn: { name: string; offered: string; writes: string };
    /** the README's settings row: what the setting does */
    summary: string;
  };
}
