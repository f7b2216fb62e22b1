// Copilot's own edit tools in this window (`editGuard.guardCopilotTools`): while it is `user` or
// `workspace` (and the workspace is trusted) the bridge serves Copilot's hooks, and our hooks file
// stands where Copilot reads it — at user level (`~/.copilot/hooks`, nothing in the workspace) or in
// each workspace folder (`.github/hooks`). `off` removes the file. Only a file that is ours is ever
// replaced or removed (docs/design.md §Surfaces). Also: the one-time offer, the command and the
// quick pick (guard.ts), and the move from the deprecated boolean setting.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS } from '../../commands';
import { migrateLegacySettings, placement, placementChosen, setPlacement, settingId } from '../../config';
import { STATE_KEYS } from '../../stateKeys';
import type { AgentServices, RegisteredAgent } from '../agent';
import { chooseCopilotGuard, copilotChatHere, copilotGuardLabel, type CopilotGuardEnvironment, offerCopilotGuard } from './guard';
import { COPILOT, copilotAgent } from './node/events';
import { HOOKS_FILE_NAME, HOOKS_FOLDER, hooksFileContent, isOurHooksFile } from './node/hooksFile';
import { readOrUndefined, removeOurHooksFile, userHooksFile } from './node/hooksFileOnDisk';

/** How long a new hooks folder is left alone before our file goes into it (see `write`). */
const NEW_FOLDER_SETTLE_MS = 1500;

export function registerCopilot({ context, bridge, log, toolNamesOf }: AgentServices): RegisteredAgent {
  const on = () => placement('guardCopilotTools') !== 'off';
  const guard: CopilotGuardEnvironment = {
    state: context.globalState,
    placement: () => placement('guardCopilotTools'),
    chosen: () => placementChosen('guardCopilotTools'),
    set: async (value) => {
      await setPlacement('guardCopilotTools', value);
      log.info(`guarding Copilot's own edit tools: ${value}, chosen by the user`);
    },
    userFile: userHooksFile(),
  };

  /** Our hooks file where the setting says, and nowhere else; calls run one after another. */
  let syncing: Promise<void> = Promise.resolve();
  const syncFiles = () => {
    syncing = syncing.then(applyFiles).catch((e) => log.error(`hooks bridge: ${e instanceof Error ? e.message : String(e)}`));
    return syncing;
  };
  const applyFiles = async () => {
    const where = placement('guardCopilotTools');
    const content = where !== 'off' && vscode.workspace.isTrusted ? hooksFileContent(bridge.clients, toolNamesOf(COPILOT)) : undefined;
    const userFile = userHooksFile();
    // the user-level file follows the setting, also in an untrusted window (which never writes it)
    if (where === 'user') {
      if (content !== undefined) await write(userFile, content);
    } else remove(userFile);
    // a user-level file already runs in this window too: a workspace copy would run every hook twice
    const inFolders = where === 'workspace' && content !== undefined && !fs.existsSync(userFile) ? content : undefined;
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') continue;
      const file = path.join(folder.uri.fsPath, ...HOOKS_FOLDER.split('/'), HOOKS_FILE_NAME);
      if (inFolders !== undefined) await write(file, inFolders);
      else remove(file);
    }
  };
  const write = async (file: string, content: string) => {
    const existing = readOrUndefined(file);
    if (existing === content) return;
    if (existing !== undefined && !isOurHooksFile(existing)) {
      log.warn(`hooks bridge: ${file} exists and is not ours; left it alone, so built-in tools are not gated through it`);
      return;
    }
    const folder = path.dirname(file);
    if (!fs.existsSync(folder)) {
      fs.mkdirSync(folder, { recursive: true });
      // VS Code re-reads hook files when a change event names their folder; a file written into a
      // folder the watcher has not started watching yet reaches it as the folder's creation only, and
      // Copilot would not see the file until something else changed (docs/design.md §VS Code facts)
      await new Promise((resolve) => setTimeout(resolve, NEW_FOLDER_SETTLE_MS));
    }
    fs.writeFileSync(file, content);
    log.info(`hooks bridge: wrote ${file}`);
  };
  const remove = (file: string) => {
    if (removeOurHooksFile(file)) log.info(`hooks bridge: removed ${file}`);
  };
  const sync = () => Promise.all([bridge.sync(), syncFiles()]);

  // the boolean this setting replaced, moved over at start and whenever it reappears (settings sync from an older install)
  const migrate = () =>
    migrateLegacySettings()
      .then(
        (moved) =>
          moved.length &&
          log.info(`moved ${settingId('guardBuiltinTools')} to ${settingId('guardCopilotTools')} in the ${moved.join(' and ')} settings`),
      )
      .catch((e) => log.warn(`could not move ${settingId('guardBuiltinTools')}: ${e instanceof Error ? e.message : String(e)}`));
  // offered once per window, as soon as Copilot Chat is there (a fresh profile enables it later)
  let offered = false;
  const offer = () => {
    if (offered || !copilotChatHere()) return;
    offered = true;
    void offerCopilotGuard(guard);
  };

  const disposable = vscode.Disposable.from(
    bridge.serveWhile(on),
    vscode.commands.registerCommand(COMMANDS.guardCopilotTools, () => chooseCopilotGuard(guard)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(settingId('guardBuiltinTools'))) void migrate();
      if (e.affectsConfiguration(settingId('guardCopilotTools')) || e.affectsConfiguration(settingId('guardBuiltinTools'))) void sync();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void syncFiles()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      void sync();
      offer();
    }),
    vscode.extensions.onDidChange(offer),
  );
  void migrate().finally(() => {
    void sync();
    offer();
  });

  return {
    hooks: copilotAgent,
    active: on,
    guard: { label: () => copilotGuardLabel(placement('guardCopilotTools')), choose: () => chooseCopilotGuard(guard) },
    offerAgain: async () => {
      await context.globalState.update(STATE_KEYS.copilotOffer, undefined);
      return offerCopilotGuard(guard);
    },
    disposable,
  };
}
