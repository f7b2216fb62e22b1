// An agent in the window, from what it says of itself (src/hooks/agentDescriptor.ts): the bridge serves
// its hooks while its setting is on; its hook entries follow the setting, the workspace's trust and its
// folders; its command, its line in the status bar's quick pick and its one-time offer (Turn on / Not
// now / Don't ask again, where the agent is likely used, in a trusted workspace) are the same for every
// agent, in words made of its name and files. Nothing is written before the user picks it (or sets the
// setting themselves). An agent that runs another agent's entries (the Copilot harness) only follows
// that agent's setting.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { migrateLegacySetting, placement, placementChosen, setPlacement, settingId } from '../config';
import type { HooksPlacement } from '../core/settings';
import {
  type AgentDescriptor,
  type AgentEntries,
  commandOf,
  type CreatedFolders,
  type FileLeft,
  ownsEntries,
  stateKeysOf,
} from '../hooks/agentDescriptor';
import { choosePlacement, type GuardChoiceEnvironment, offerGuard, type PlacementItem } from '../ui/guardOffer';
import type { AgentHooks } from '../hooks/event';
import type { Bridge } from './bridge';

/** What the window gives an agent. */
export interface AgentServices {
  context: vscode.ExtensionContext;
  bridge: Bridge;
  log: vscode.LogOutputChannel;
  /**
   * The tool names whose hook events the gate needs, of every agent that runs a channel's hook entries
   * (an agent's own, and those of another host that reads its file: the Copilot harness reads Copilot's).
   */
  toolNamesOf(channel: string): readonly string[];
}

/** What an agent gives the window. */
export interface AgentRegistration {
  /** how the gate reads its hooks' payloads */
  hooks: AgentHooks;
  /** its hooks are on in this window (its setting), so the gate answers them */
  active(): boolean;
  /** its line in the status bar's quick pick: where its hooks are now, and the choice of it (none when another agent's line covers it) */
  choice?: { label(): string; choose(): Promise<void> };
  /** tests only: the one-time offer again, as on a fresh profile */
  offerAgain(): Promise<void>;
  /** its commands, listeners and files' upkeep */
  disposable: vscode.Disposable;
}

export function registerAgent(agent: AgentDescriptor, services: AgentServices): AgentRegistration {
  const { bridge } = services;
  const on = () => placement(agent) !== 'off';
  if (!ownsEntries(agent)) {
    return { hooks: agent.hooks, active: on, offerAgain: async () => undefined, disposable: bridge.serveWhile(on) };
  }
  return registerWithEntries(agent, services, on);
}

function registerWithEntries(
  agent: AgentDescriptor & { entries: AgentEntries },
  { context, bridge, log, toolNamesOf }: AgentServices,
  on: () => boolean,
): AgentRegistration {
  const keys = stateKeysOf(agent);
  const folders = madeFolders(context.globalState, keys.foldersMade);
  const warnings = new FileLeftWarnings(agent);
  const choice: GuardChoiceEnvironment = {
    state: context.globalState,
    placement: () => placement(agent),
    chosen: () => placementChosen(agent),
    set: async (value) => {
      await setPlacement(agent, value);
      log.info(`guarding ${agent.guarded}: ${value}, chosen by the user`);
    },
  };
  const choose = () => chooseFor(agent, choice);

  /** the folders as the last sync saw them: one that left the workspace loses our entries */
  let synced: string[] = [];
  /** syncs run one after another: each sees the files the one before it left */
  let syncing: Promise<void> = Promise.resolve();
  const syncEntries = () => {
    syncing = syncing.then(async () => {
      try {
        const now = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
        const left = await agent.entries.sync({
          placement: placement(agent),
          clients: bridge.clients,
          toolNames: toolNamesOf(agent.hooks.channel ?? agent.hooks.id),
          folders: now,
          leftFolders: synced.filter((f) => !now.includes(f)),
          trusted: vscode.workspace.isTrusted,
          created: folders,
          log,
        });
        synced = now;
        for (const file of left) warnings.show(file);
      } catch (e) {
        log.error(`${agent.hooks.name} hooks: ${e instanceof Error ? e.message : String(e)}`);
      }
    });
    return syncing;
  };
  const sync = () => Promise.all([bridge.sync(), syncEntries()]);

  // the boolean the setting replaced, moved over at start and whenever it reappears (settings sync from an older install)
  const migrate = async () => {
    const legacy = agent.legacySetting?.key;
    if (legacy === undefined) return;
    try {
      const moved = await migrateLegacySetting(agent);
      if (moved.length) log.info(`moved ${settingId(legacy)} to ${settingId(agent.setting)} in the ${moved.join(' and ')} settings`);
    } catch (e) {
      log.warn(`could not move ${settingId(legacy)}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  // offered once per window, as soon as the agent shows (a fresh profile enables its extension later)
  let offered = false;
  const offer = () => {
    if (offered || !usedHere(agent)) return;
    offered = true;
    void offerFor(agent, choice);
  };

  const affects = (e: vscode.ConfigurationChangeEvent, key: string | undefined) =>
    key !== undefined && e.affectsConfiguration(settingId(key));
  const disposable = vscode.Disposable.from(
    bridge.serveWhile(on),
    vscode.commands.registerCommand(commandOf(agent), choose),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affects(e, agent.legacySetting?.key)) void migrate();
      if (affects(e, agent.setting) || affects(e, agent.legacySetting?.key)) void sync();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void syncEntries()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      void sync();
      offer();
    }),
    vscode.extensions.onDidChange(offer),
  );
  // our entries follow the setting from the start: an update of the extension moves their client paths
  void migrate().finally(() => {
    void sync();
    offer();
  });

  return {
    hooks: agent.hooks,
    active: on,
    choice: {
      label: () =>
        labelOf(agent, placement(agent), placement(agent) === 'workspace' ? (agent.entries.inactiveFolders?.(synced) ?? []) : []),
      choose,
    },
    offerAgain: async () => {
      await context.globalState.update(keys.offer, undefined);
      return offerFor(agent, choice);
    },
    disposable,
  };
}

/** Where the offer may be made: a trusted workspace where the agent is likely used (its extension installed, or its folder in the home). */
function usedHere(agent: AgentDescriptor): boolean {
  if (!vscode.workspace.isTrusted) return false;
  const signs = agent.usedHere;
  if (signs?.extensions?.some((id) => vscode.extensions.getExtension(id) !== undefined)) return true;
  const folder = signs?.homeFolder?.();
  return folder !== undefined && fs.existsSync(folder);
}

/** A file named as the user reads it (forward slashes). */
const shown = (file: string) => file.replace(/\\/g, '/');
const userFiles = (agent: AgentDescriptor & { entries: AgentEntries }) => agent.entries.userFiles().map(shown).join(vscode.l10n.t(' and '));

/**
 * Shows the offer if it is due: not declined for good, not put off, and no placement chosen in any
 * settings scope. Resolves once the user answered, or at once.
 */
function offerFor(agent: AgentDescriptor & { entries: AgentEntries }, choice: GuardChoiceEnvironment, now = Date.now()): Promise<void> {
  return offerGuard(
    choice,
    stateKeysOf(agent).offer,
    vscode.l10n.t(
      'Agent Edit Guard can guard {0} too: an edit made from a stale copy of a file is refused, and {1} is shown what changed. It adds its entries to {2}, next to your own; nothing goes into your workspace.',
      agent.guarded,
      agent.hooks.name,
      userFiles(agent),
    ),
    now,
  );
}

/** The agent's setting as a choice (its command, the status bar's quick pick): the current one is marked. */
async function chooseFor(agent: AgentDescriptor & { entries: AgentEntries }, choice: GuardChoiceEnvironment): Promise<void> {
  const current = choice.placement();
  const items: PlacementItem[] = [
    {
      placement: 'user',
      label: vscode.l10n.t('$(shield) Turn on'),
      description: vscode.l10n.t('our entries at user level, in {0}', userFiles(agent)),
      detail: vscode.l10n.t(
        '{0} are gated in every trusted VS Code window; your own entries there are kept, and nothing goes into any workspace.',
        capitalized(agent.guarded),
      ),
    },
    {
      placement: 'workspace',
      label: vscode.l10n.t('$(folder) Turn on in this workspace only'),
      description: vscode.l10n.t("hook entries in each folder's {0}", agent.entries.folderFile),
      ...(agent.entries.workspaceNote ? { detail: agent.entries.workspaceNote } : {}),
    },
    {
      placement: 'off',
      label: vscode.l10n.t('$(circle-slash) Turn off'),
      description: vscode.l10n.t('removes our hook entries, keeps yours'),
    },
  ];
  // `workspace` is kept in the workspace settings: there are none without a folder
  const offered = vscode.workspace.workspaceFolders?.length
    ? items
    : items.filter((i) => i.placement !== 'workspace' || i.placement === current);
  await choosePlacement(choice, offered, vscode.l10n.t('Agent Edit Guard: Guard {0}', agent.guarded), (now) =>
    now === 'off'
      ? vscode.l10n.t('{0} are not gated now', capitalized(agent.guarded))
      : vscode.l10n.t('{0} are gated now', capitalized(agent.guarded)),
  );
}

/** How the status bar's quick pick names the agent's state; `inactive`: folders where its entries do not run. */
function labelOf(agent: AgentDescriptor, where: HooksPlacement, inactive: readonly string[]): string {
  if (where === 'off') return vscode.l10n.t('$(shield) Guard {0}…', agent.guarded);
  if (inactive.length > 0)
    return vscode.l10n.t(
      '$(warning) {0} are not guarded in {1}: {2} does not run the hook entries there (the log says why)…',
      capitalized(agent.guarded),
      inactive.map((f) => vscode.workspace.asRelativePath(f, true) || f).join(', '),
      agent.hooks.name,
    );
  return vscode.l10n.t(
    '$(shield) {0} are guarded ({1})…',
    capitalized(agent.guarded),
    where === 'user' ? vscode.l10n.t('user level') : vscode.l10n.t('this workspace'),
  );
}

const capitalized = (s: string) => s.charAt(0).toLocaleUpperCase() + s.slice(1);

/** The folders an agent's entries made, kept in global state under `key` (the same for every window), so only those are ever removed. */
function madeFolders(state: vscode.Memento, key: string): CreatedFolders {
  const all = () => state.get<string[]>(key, []);
  return {
    has: (dir) => all().includes(dir),
    add: (dir) => void state.update(key, [...new Set([...all(), dir])]),
    delete: (dir) =>
      void state.update(
        key,
        all().filter((d) => d !== dir),
      ),
  };
}

/** Tells the user of an agent's file left as it was (the log has it at every sync), once per window and reason. */
class FileLeftWarnings {
  private readonly shown = new Set<string>();

  constructor(private readonly agent: AgentDescriptor) {}

  show({ file, reason }: FileLeft): void {
    const key = `${file}\n${reason}`;
    if (this.shown.has(key)) return;
    this.shown.add(key);
    const open = vscode.l10n.t('Open File');
    const message = vscode.l10n.t(
      'Agent Edit Guard left {0} as it was, so {1} are not guarded through it: {2}.',
      file,
      this.agent.guarded,
      reason,
    );
    void vscode.window.showWarningMessage(message, open).then((answer) => {
      if (answer === open) void vscode.window.showTextDocument(vscode.Uri.file(file));
    });
  }
}
