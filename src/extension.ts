// Composition root: builds the core, its VS Code adapters and the surfaces, and wires their events.
// Nothing else lives here.
import * as vscode from 'vscode';
import { type AgentEditGuardApi, toAgentEditInfo, toReadMarkInfo } from './api';
import { ChatNames } from './chat/names';
import { ChatSessions } from './chat/session';
import { COMMANDS, TEST_COMMANDS } from './commands';
import {
  claudeCodeChosen,
  claudeCodePlacement,
  copilotToolsChosen,
  copilotToolsPlacement,
  guardClaudeCode,
  guardCopilotTools,
  maxEditRecordBytes,
  migrateLegacySettings,
  readPathSettings,
  readSettings,
  SECTION,
  setClaudeCodePlacement,
  setCopilotToolsPlacement,
  SETTINGS,
  toggleGate,
} from './config';
import { EditorDocuments } from './core/documents';
import { EditHistory } from './core/editHistory';
import { ExternalEdits } from './core/externalEdits';
import { Gatekeeper } from './core/gatekeeper';
import { Guard } from './core/guard';
import { MarkStore, type ReadMark } from './core/marks';
import { Reverter } from './core/revert';
import { OWN_TOOL_VERB, type OwnToolId } from './core/toolIds';
import { WorkspaceHistoryStorage } from './editor/historyStorage';
import { LiveFreshness } from './editor/liveFreshness';
import { VsCodeEditor } from './editor/vscodeEditor';
import { fileOfAgentPath, workspaceFolders } from './editor/workspace';
import {
  claudeFolderExists,
  localClaudeSettingsFile,
  removeOurClaudeHooks,
  syncClaudeHooks,
  userClaudeSettingsFile,
} from './hooks/claude/claudeSettingsOnDisk';
import { BuiltinToolGate } from './hooks/copilot/builtinToolGate';
import { TOOL_VERB } from './hooks/copilot/hookEvents';
import { HooksBridge } from './hooks/copilot/hooksBridge';
import { userHooksFile } from './hooks/copilot/hooksFileOnDisk';
import { ReadFileTool } from './tools/readFileTool';
import { ReplaceStringTool } from './tools/replaceStringTool';
import { WriteFileTool } from './tools/writeFileTool';
import { registerAgentEditCommands } from './ui/agentEditCommands';
import { AgentEditsView, type EditNames } from './ui/agentEditsView';
import { BlockedWriteDiagnostics } from './ui/blockedWriteDiagnostics';
import {
  CLAUDE_OFFER_STATE_KEY,
  chooseClaudeGuard,
  claudeCodeHere,
  type ClaudeGuardEnvironment,
  ClaudeSettingsWarnings,
  madeFolders,
  offerClaudeGuard,
} from './ui/claudeGuard';
import { chooseCopilotGuard, copilotChatHere, type CopilotGuardEnvironment, OFFER_STATE_KEY, offerCopilotGuard } from './ui/copilotGuard';
import { chatLabel, turnLabel } from './ui/labels';
import { showReadMarksPicker } from './ui/readMarksPicker';
import { type MarkView, ReadMarksStatus } from './ui/readMarksStatus';

/** The name the chats' names are saved under with the record of agent edits. */
const NAMES_ATTACHMENT = 'names';

/** How long a command's confirmation stays in the status bar. */
const STATUS_MESSAGE_MS = 3000;

export function activate(context: vscode.ExtensionContext): AgentEditGuardApi {
  const log = vscode.window.createOutputChannel('Agent Edit Guard', { log: true });
  const store = new MarkStore();
  const editor = new VsCodeEditor();
  const documents = new EditorDocuments(editor);
  const gate = new Gatekeeper(store, documents, readSettings, log);
  const guard = new Guard(gate);
  const sessions = new ChatSessions((parts) => vscode.Uri.from(parts).toString());
  const freshness = new LiveFreshness(store, documents);
  // how the surfaces name chats and turns; fed by every call of our tools and by the hooks
  const names = new ChatNames();
  const diagnostics = new BlockedWriteDiagnostics(names);
  const status = new ReadMarksStatus(names);
  const marksChanged = new vscode.EventEmitter<void>();
  let currentSession: string | undefined;
  // the record of agent edits, in this workspace's extension storage (none without a folder: kept in memory)
  const historyStorage = context.storageUri ? new WorkspaceHistoryStorage(context.storageUri) : undefined;
  const history = new EditHistory(historyStorage, maxEditRecordBytes, log);
  const reverter = new Reverter(gate, history, {
    current: vscode.l10n.t('now (kept)'),
    reverted: vscode.l10n.t('with the agent edit reverted'),
  });
  // the record's view shows chats by their names after a reload too: they are saved with it
  history.attach(NAMES_ATTACHMENT, () => names.toJSON());
  const editNames: EditNames = {
    chat: (session) => chatLabel(names, session),
    turn: (session, turn) => turnLabel(names, session, turn),
    tool: (tool) => {
      const own = OWN_TOOL_VERB[tool as OwnToolId];
      if (own) return vscode.l10n.t('guarded {0}', own);
      const copilot = TOOL_VERB[tool as keyof typeof TOOL_VERB];
      return copilot ? vscode.l10n.t('Copilot {0}', copilot) : tool;
    },
  };
  const agentEdits = new AgentEditsView(history, editNames);
  flushOnExit = () => history.flush();

  // freshness is exact for open documents (their hash is cached per version), observed for others
  const view = (mark: ReadMark): MarkView => ({
    mark,
    fresh: store.isFresh(mark, (uri) => documents.currentHash(uri)),
    path: vscode.workspace.asRelativePath(vscode.Uri.parse(mark.uri)),
  });
  const views = (): MarkView[] => store.all().map(view);
  const refreshStatus = () => {
    const marks = currentSession ? store.newestPerFile(currentSession) : [];
    status.update({ enabled: readSettings().enabled, session: currentSession, marks: marks.map(view) });
  };
  const clearMarks = (session?: string, uri?: string) => {
    store.clear(session, uri);
    if (session === undefined) diagnostics.clear();
    else if (uri !== undefined) diagnostics.onWritten(session, uri);
  };

  // the status bar follows the chat whose tool ran last
  const followChat = (session: string) => {
    if (session === currentSession) return;
    currentSession = session;
    refreshStatus();
  };
  // Copilot's own file tools and Claude Code's, through their hooks (off unless editGuard.guardCopilotTools, editGuard.guardClaudeCode)
  const builtinGate = new BuiltinToolGate({
    edits: new ExternalEdits(gate),
    sessions,
    log,
    active: (agent) => (agent === 'copilot' ? guardCopilotTools() : guardClaudeCode()),
    onActivity: followChat,
    resolveFile: fileOfAgentPath,
    onPending: (chat, pending) => bridge.notePending(chat, pending),
    names,
  });
  const env = {
    guard,
    sessions,
    log,
    pathSettings: readPathSettings,
    onActivity: (session: string, turn?: string) => {
      // a guarded call names Copilot's turn: built-in calls of that turn are the same turn
      builtinGate.noteGuardedCall(session, turn);
      // after the retag above, so a counted turn carries its number and words over to Copilot's id
      names.noteCall(session, turn);
      followChat(session);
    },
  };
  // a Claude Code started in this window's terminals reaches the bridge through their environment
  context.environmentVariableCollection.persistent = false;
  context.environmentVariableCollection.description = vscode.l10n.t(
    "Lets Claude Code started in this window's terminals reach Agent Edit Guard's gate",
  );
  const bridge = new HooksBridge(
    context.extensionPath,
    (payload) => builtinGate.handle(payload),
    copilotToolsPlacement,
    guardClaudeCode,
    context.environmentVariableCollection,
    log,
  );
  const copilotGuard: CopilotGuardEnvironment = {
    state: context.globalState,
    placement: copilotToolsPlacement,
    chosen: copilotToolsChosen,
    set: async (placement) => {
      await setCopilotToolsPlacement(placement);
      log.info(`guarding Copilot's own edit tools: ${placement}, chosen by the user`);
    },
    userFile: userHooksFile(),
  };
  // Claude Code's file tools, through its hooks: our entries in its settings (off unless editGuard.guardClaudeCode)
  const claudeFolders = madeFolders(context.globalState);
  const claudeWarnings = new ClaudeSettingsWarnings();
  /** Brings our entries in Claude Code's settings in line with the setting; a folder that left the workspace loses ours. */
  const syncClaude = (removedFolders: readonly vscode.WorkspaceFolder[] = []) => {
    try {
      const problems = syncClaudeHooks(
        claudeCodePlacement(),
        bridge.clients,
        workspaceFolders().map((f) => f.fsPath),
        log,
        { trusted: vscode.workspace.isTrusted, created: claudeFolders },
      );
      for (const folder of removedFolders.filter((f) => f.uri.scheme === 'file')) {
        const problem = removeOurClaudeHooks(localClaudeSettingsFile(folder.uri.fsPath), log, claudeFolders);
        if (problem) problems.push(problem);
      }
      for (const problem of problems) claudeWarnings.show(problem);
    } catch (e) {
      log.error(`Claude Code hooks: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const claudeGuard: ClaudeGuardEnvironment = {
    state: context.globalState,
    placement: claudeCodePlacement,
    chosen: claudeCodeChosen,
    set: async (placement) => {
      await setClaudeCodePlacement(placement);
      log.info(`guarding Claude Code's file tools: ${placement}, chosen by the user`);
    },
    userFile: userClaudeSettingsFile(),
    claudeFolderExists: () => claudeFolderExists(),
  };
  let offeredClaude = false;
  const offerClaude = () => {
    if (offeredClaude || !claudeCodeHere(claudeGuard)) return;
    offeredClaude = true;
    void offerClaudeGuard(claudeGuard);
  };
  // the boolean this setting replaced, moved over at start and whenever it reappears (settings sync from an older install)
  const migrate = () =>
    migrateLegacySettings()
      .then(
        (moved) =>
          moved.length &&
          log.info(
            `moved editGuard.${SETTINGS.guardBuiltinTools} to editGuard.${SETTINGS.guardCopilotTools} in the ${moved.join(' and ')} settings`,
          ),
      )
      .catch((e) => log.warn(`could not move editGuard.${SETTINGS.guardBuiltinTools}: ${e instanceof Error ? e.message : String(e)}`));
  // offered once per window, as soon as Copilot Chat is there (a fresh profile enables it later)
  let offered = false;
  const offer = () => {
    if (offered || !copilotChatHere()) return;
    offered = true;
    void offerCopilotGuard(copilotGuard);
  };

  context.subscriptions.push(
    log,
    editor,
    bridge,
    vscode.workspace.onDidChangeWorkspaceFolders((e) => {
      void bridge.sync();
      syncClaude(e.removed);
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      void bridge.sync();
      syncClaude();
      offer();
      offerClaude();
    }),
    vscode.extensions.onDidChange(() => {
      offer();
      offerClaude();
    }),
    freshness,
    diagnostics,
    status,
    marksChanged,
    { dispose: () => store.dispose() },
    vscode.lm.registerTool(ReadFileTool.id, new ReadFileTool(env)),
    vscode.lm.registerTool(WriteFileTool.id, new WriteFileTool(env)),
    vscode.lm.registerTool(ReplaceStringTool.id, new ReplaceStringTool(env)),
    gate.onDidBlock((block) => diagnostics.onBlocked(block)),
    gate.onDidWrite((write) => {
      diagnostics.onWritten(write.session, write.uri);
      history.record(write);
    }),
    // a reverted file's blocked-write warnings were about text that is gone
    reverter.onDidRevert(({ uri }) => diagnostics.clearFile(uri)),
    agentEdits,
    registerAgentEditCommands({ history, reverter, view: agentEdits, names: editNames }),
    // deactivate() has flushed the record by then (VS Code awaits it before disposing these)
    history,
    { dispose: () => (flushOnExit = undefined) },
    freshness.onDidTouchSeenFile(() => marksChanged.fire()),
    names.onDidChange(refreshStatus),
    store.onDidChange(() => {
      refreshStatus();
      marksChanged.fire();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.${SETTINGS.guardBuiltinTools}`)) void migrate();
      // the bridge listens while either agent is guarded
      if (
        [SETTINGS.guardCopilotTools, SETTINGS.guardBuiltinTools, SETTINGS.guardClaudeCode].some((key) =>
          e.affectsConfiguration(`${SECTION}.${key}`),
        )
      )
        void bridge.sync();
      if (e.affectsConfiguration(`${SECTION}.${SETTINGS.guardClaudeCode}`)) syncClaude();
      if (e.affectsConfiguration(SECTION)) {
        refreshStatus();
        marksChanged.fire();
      }
    }),
    vscode.commands.registerCommand(COMMANDS.showReadMarks, () =>
      showReadMarksPicker({
        views,
        names,
        currentSession: () => currentSession,
        enabled: () => readSettings().enabled,
        clear: clearMarks,
        toggle: toggleGate,
        copilotGuard: copilotToolsPlacement,
        chooseCopilotGuard: () => chooseCopilotGuard(copilotGuard),
        claudeGuard: claudeCodePlacement,
        chooseClaudeGuard: () => chooseClaudeGuard(claudeGuard),
        openEdits: () => history.unreverted(),
        showAgentEdits: () => agentEdits.reveal(),
      }),
    ),
    vscode.commands.registerCommand(COMMANDS.guardCopilotTools, () => chooseCopilotGuard(copilotGuard)),
    vscode.commands.registerCommand(COMMANDS.guardClaudeCode, () => chooseClaudeGuard(claudeGuard)),
    vscode.commands.registerCommand(COMMANDS.clearReadMarks, () => {
      clearMarks();
      vscode.window.setStatusBarMessage(vscode.l10n.t('$(shield) Agent Edit Guard: read marks cleared'), STATUS_MESSAGE_MS);
    }),
    vscode.commands.registerCommand(COMMANDS.toggleGate, async () => {
      const on = await toggleGate();
      log.info(`gate turned ${on ? 'on' : 'off'} by the user`);
      vscode.window.setStatusBarMessage(
        on
          ? vscode.l10n.t('$(shield) Agent Edit Guard is on in this workspace')
          : vscode.l10n.t('$(shield) Agent Edit Guard is off in this workspace'),
        STATUS_MESSAGE_MS,
      );
    }),
    vscode.commands.registerCommand(COMMANDS.showLog, () => log.show(true)),
  );
  if (context.extensionMode === vscode.ExtensionMode.Test) {
    // lets the integration tests prove rule 7 (fail open, visibly) on the real extension
    context.subscriptions.push(
      vscode.commands.registerCommand(TEST_COMMANDS.injectGateFault, (on: boolean) => {
        gate.faultInjector = on
          ? () => {
              throw new Error(`fault injected by ${TEST_COMMANDS.injectGateFault}`);
            }
          : undefined;
      }),
      vscode.commands.registerCommand(TEST_COMMANDS.agentEditsStorage, async () => {
        await history.flush();
        return historyStorage?.folder.toString();
      }),
      vscode.commands.registerCommand(TEST_COMMANDS.offerCopilotGuard, async () => {
        await context.globalState.update(OFFER_STATE_KEY, undefined);
        return offerCopilotGuard(copilotGuard);
      }),
      vscode.commands.registerCommand(TEST_COMMANDS.offerClaudeGuard, async () => {
        await context.globalState.update(CLAUDE_OFFER_STATE_KEY, undefined);
        return offerClaudeGuard(claudeGuard);
      }),
    );
  }
  refreshStatus();
  void history.load().then(() => names.absorb(history.attachment(NAMES_ATTACHMENT)));
  void migrate().finally(() => {
    void bridge.sync();
    offer();
  });
  // our entries follow the setting from the start: an update of the extension moves their client paths
  syncClaude();
  offerClaude();
  log.info('Agent Edit Guard active');

  return {
    readMarks: () => views().map((v) => toReadMarkInfo(v.mark, v.fresh)),
    onDidChangeReadMarks: marksChanged.event,
    agentEdits: () => history.all().map(toAgentEditInfo),
    onDidChangeAgentEdits: (listener) => history.onDidChange(listener),
  };
}

/** The record of agent edits not yet written when the window closes or reloads. */
let flushOnExit: (() => Promise<void>) | undefined;

export function deactivate(): Promise<void> | undefined {
  return flushOnExit?.();
}
