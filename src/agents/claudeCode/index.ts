// Claude Code's file tools in this window (`editGuard.guardClaudeCode`): our hook entries in its
// settings where the setting says (node/settingsOnDisk.ts), kept in step at activation and on a change
// of the setting, the trust or the folders; the bridge serves them while the setting is on. Also: the
// one-time offer, the command and the quick pick (guard.ts).
import * as vscode from 'vscode';
import { COMMANDS } from '../../commands';
import { placement, placementChosen, setPlacement, settingId } from '../../config';
import { STATE_KEYS } from '../../stateKeys';
import type { AgentServices, RegisteredAgent } from '../agent';
import { FileLeftWarnings, madeFolders } from '../hookFiles';
import { chooseClaudeGuard, claudeCodeHere, claudeGuardLabel, type ClaudeGuardEnvironment, offerClaudeGuard } from './guard';
import { claudeCodeAgent } from './node/events';
import {
  claudeFolderExists,
  localClaudeSettingsFile,
  removeOurClaudeHooks,
  syncClaudeHooks,
  userClaudeSettingsFile,
} from './node/settingsOnDisk';

export function registerClaudeCode({ context, bridge, log }: AgentServices): RegisteredAgent {
  const on = () => placement('guardClaudeCode') !== 'off';
  const folders = madeFolders(context.globalState, STATE_KEYS.claudeFoldersMade);
  const warnings = new FileLeftWarnings((file, reason) =>
    vscode.l10n.t("Agent Edit Guard left {0} as it was, so Claude Code's file tools are not guarded through it: {1}.", file, reason),
  );
  const guard: ClaudeGuardEnvironment = {
    state: context.globalState,
    placement: () => placement('guardClaudeCode'),
    chosen: () => placementChosen('guardClaudeCode'),
    set: async (value) => {
      await setPlacement('guardClaudeCode', value);
      log.info(`guarding Claude Code's file tools: ${value}, chosen by the user`);
    },
    userFile: userClaudeSettingsFile(),
    claudeFolderExists: () => claudeFolderExists(),
  };

  /** Brings our entries in Claude Code's settings in line with the setting; a folder that left the workspace loses ours. */
  const syncEntries = (removedFolders: readonly vscode.WorkspaceFolder[] = []) => {
    try {
      const problems = syncClaudeHooks(
        placement('guardClaudeCode'),
        bridge.clients,
        (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
        log,
        { trusted: vscode.workspace.isTrusted, created: folders },
      );
      for (const folder of removedFolders.filter((f) => f.uri.scheme === 'file')) {
        const problem = removeOurClaudeHooks(localClaudeSettingsFile(folder.uri.fsPath), log, folders);
        if (problem) problems.push(problem);
      }
      for (const problem of problems) warnings.show(problem);
    } catch (e) {
      log.error(`Claude Code hooks: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  let offered = false;
  const offer = () => {
    if (offered || !claudeCodeHere(guard)) return;
    offered = true;
    void offerClaudeGuard(guard);
  };

  const disposable = vscode.Disposable.from(
    bridge.serveWhile(on),
    vscode.commands.registerCommand(COMMANDS.guardClaudeCode, () => chooseClaudeGuard(guard)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(settingId('guardClaudeCode'))) return;
      void bridge.sync();
      syncEntries();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders((e) => syncEntries(e.removed)),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      void bridge.sync();
      syncEntries();
      offer();
    }),
    vscode.extensions.onDidChange(offer),
  );
  // our entries follow the setting from the start: an update of the extension moves their client paths
  void bridge.sync();
  syncEntries();
  offer();

  return {
    hooks: claudeCodeAgent,
    active: on,
    guard: { label: () => claudeGuardLabel(placement('guardClaudeCode')), choose: () => chooseClaudeGuard(guard) },
    offerAgain: async () => {
      await context.globalState.update(STATE_KEYS.claudeCodeOffer, undefined);
      return offerClaudeGuard(guard);
    },
    disposable,
  };
}
