// Codex's file changes in this window (`editGuard.guardCodex`): our hook entries in its hooks files
// where the setting says, with their trust in its config.toml (node/hooksOnDisk.ts), kept in step at
// activation and on a change of the setting, the trust or the folders; the bridge serves them while the
// setting is on. Codex started anywhere on these folders reaches this window through its record
// (src/hooks/discovery.ts). Also: the one-time offer, the command and the quick pick (guard.ts).
import * as vscode from 'vscode';
import { COMMANDS } from '../../commands';
import { placement, placementChosen, setPlacement, settingId } from '../../config';
import { STATE_KEYS } from '../../stateKeys';
import type { AgentServices, RegisteredAgent } from '../agent';
import { FileLeftWarnings, madeFolders } from '../hookFiles';
import { chooseCodexGuard, codexGuardLabel, type CodexGuardEnvironment, codexHere, offerCodexGuard } from './guard';
import { codexAgent } from './node/events';
import { codexConfigFile, codexFolderExists, syncCodexHooks, untrustedProjects, userCodexHooksFile } from './node/hooksOnDisk';

export function registerCodex({ context, bridge, log }: AgentServices): RegisteredAgent {
  const on = () => placement('guardCodex') !== 'off';
  const folders = madeFolders(context.globalState, STATE_KEYS.codexFoldersMade);
  const warnings = new FileLeftWarnings((file, reason) =>
    vscode.l10n.t("Agent Edit Guard left {0} as it was, so Codex's file changes are not guarded through it: {1}.", file, reason),
  );
  const guard: CodexGuardEnvironment = {
    state: context.globalState,
    placement: () => placement('guardCodex'),
    chosen: () => placementChosen('guardCodex'),
    set: async (value) => {
      await setPlacement('guardCodex', value);
      log.info(`guarding Codex's file changes: ${value}, chosen by the user`);
    },
    userFile: userCodexHooksFile(),
    configFile: codexConfigFile(),
    codexFolderExists: () => codexFolderExists(),
  };
  /** the folders as the last sync saw them: one that left the workspace loses our entries */
  let synced: string[] = [];

  const syncEntries = () => {
    try {
      const now = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
      const result = syncCodexHooks(placement('guardCodex'), bridge.clients, now, log, {
        trusted: vscode.workspace.isTrusted,
        created: folders,
        leftFolders: synced.filter((f) => !now.includes(f)),
      });
      synced = now;
      for (const problem of result.problems) warnings.show(problem);
    } catch (e) {
      log.error(`Codex hooks: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  let offered = false;
  const offer = () => {
    if (offered || !codexHere(guard)) return;
    offered = true;
    void offerCodexGuard(guard);
  };

  const disposable = vscode.Disposable.from(
    bridge.serveWhile(on),
    vscode.commands.registerCommand(COMMANDS.guardCodex, () => chooseCodexGuard(guard)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(settingId('guardCodex'))) return;
      void bridge.sync();
      syncEntries();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => syncEntries()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      void bridge.sync();
      syncEntries();
      offer();
    }),
    vscode.extensions.onDidChange(offer),
  );
  // our entries follow the setting from the start: an update of the extension moves their client paths (and so their trust)
  void bridge.sync();
  syncEntries();
  offer();

  return {
    hooks: codexAgent,
    active: on,
    guard: {
      // Codex's trust of the folders as it is now: the user may have trusted a project in Codex since
      label: () => codexGuardLabel(placement('guardCodex'), placement('guardCodex') === 'workspace' ? untrustedProjects(synced) : []),
      choose: () => chooseCodexGuard(guard),
    },
    offerAgain: async () => {
      await context.globalState.update(STATE_KEYS.codexOffer, undefined);
      return offerCodexGuard(guard);
    },
    disposable,
  };
}
