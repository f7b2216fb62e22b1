// What the user sees: blocked-write diagnostics, the status bar item and its quick pick, the Agent
// Edits view and its revert commands, and the commands to clear marks, toggle the gate and show the log.
// They hear the core's events (a block, a write, a mark, a revert) and never call into the tools.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { readSettings, SECTION_ID, toggleGate } from '../config';
import type { ReadMark } from '../core/marks';
import { registerAgentEditCommands } from '../ui/agentEditCommands';
import { AgentEditsView, type EditNames } from '../ui/agentEditsView';
import { BlockedWriteDiagnostics } from '../ui/blockedWriteDiagnostics';
import { chatLabel, toolLabel, turnLabel } from '../ui/labels';
import { showReadMarksPicker } from '../ui/readMarksPicker';
import { type MarkView, ReadMarksStatus } from '../ui/readMarksStatus';
import type { AgentRegistry } from './agents';
import type { Core } from './core';

/** How long a command's confirmation stays in the status bar. */
const STATUS_MESSAGE_MS = 3000;

export interface Surfaces {
  /** every read mark as the surfaces show it: fresh or not, its path */
  views(): MarkView[];
  /** the marks changed, or a file they name did */
  marksChanged: vscode.Event<void>;
}

export function registerSurfaces(
  context: vscode.ExtensionContext,
  core: Pick<Core, 'store' | 'documents' | 'names' | 'editRecord' | 'gate' | 'activity' | 'freshness' | 'log' | 'afterAnswer'>,
  agents: AgentRegistry,
): Surfaces {
  const { store, documents, names, editRecord, gate } = core;
  const toolName = (tool: string, agent: string | undefined) => toolLabel(tool, agent, agents.byId);
  const diagnostics = new BlockedWriteDiagnostics(names, toolName);
  const status = new ReadMarksStatus(names);
  const marksChanged = new vscode.EventEmitter<void>();
  const editNames: EditNames = {
    chat: (session) => chatLabel(names, session),
    turn: (session, turn) => turnLabel(names, session, turn),
    tool: toolName,
  };
  const agentEdits = new AgentEditsView(editRecord, editNames, core.afterAnswer);

  // freshness is exact for open documents (their hash is cached per version), observed for others
  const view = (mark: ReadMark): MarkView => ({
    mark,
    fresh: store.isFresh(mark, (uri) => documents.currentHash(uri)),
    path: vscode.workspace.asRelativePath(vscode.Uri.parse(mark.uri)),
  });
  const views = (): MarkView[] => store.all().map(view);
  // the status bar follows the chat whose tool ran last
  let currentSession: string | undefined;
  // the status bar and the marks' listeners are told after the answers in progress, once per burst
  const refreshStatus = core.afterAnswer.coalesced(() => {
    const marks = currentSession ? store.newestPerFile(currentSession) : [];
    status.update({ enabled: readSettings().enabled, session: currentSession, marks: marks.map(view) });
  });
  const fireMarksChanged = core.afterAnswer.coalesced(() => marksChanged.fire());
  const clearMarks = (session?: string, uri?: string) => {
    store.clear(session, uri);
    if (session === undefined) diagnostics.clear();
    else if (uri !== undefined) diagnostics.onWritten(session, uri);
  };

  /** `editGuard.showReadMarks`: the status bar's quick pick. */
  function showReadMarks() {
    return showReadMarksPicker({
      views,
      names,
      currentSession: () => currentSession,
      enabled: () => readSettings().enabled,
      clear: clearMarks,
      toggle: toggleGate,
      agents: agents.list.flatMap((a) => (a.choice ? [a.choice] : [])),
      openEdits: () => editRecord.unreverted(),
      showAgentEdits: () => agentEdits.reveal(),
    });
  }
  /** `editGuard.clearReadMarks`: every chat's marks, and the diagnostics they explain. */
  function clearReadMarks() {
    clearMarks();
    vscode.window.setStatusBarMessage(vscode.l10n.t('$(shield) Agent Edit Guard: read marks cleared'), STATUS_MESSAGE_MS);
  }
  /** `editGuard.toggleGate`: the gate on or off in this workspace. */
  async function toggleGateCommand() {
    const on = await toggleGate();
    core.log.info(`gate turned ${on ? 'on' : 'off'} by the user`);
    vscode.window.setStatusBarMessage(
      on
        ? vscode.l10n.t('$(shield) Agent Edit Guard is on in this workspace')
        : vscode.l10n.t('$(shield) Agent Edit Guard is off in this workspace'),
      STATUS_MESSAGE_MS,
    );
  }
  /** `editGuard.showLog`: the log channel. */
  function showLog() {
    core.log.show(true);
  }
  // the surfaces' own commands, by id; the agent-edit commands are registerAgentEditCommands' table
  const commands: Record<string, () => unknown> = {
    [COMMANDS.showReadMarks]: showReadMarks,
    [COMMANDS.clearReadMarks]: clearReadMarks,
    [COMMANDS.toggleGate]: toggleGateCommand,
    [COMMANDS.showLog]: showLog,
  };

  context.subscriptions.push(
    diagnostics,
    status,
    marksChanged,
    agentEdits,
    core.activity.event((session) => {
      if (session === currentSession) return;
      currentSession = session;
      refreshStatus();
    }),
    gate.onDidBlock((block) => diagnostics.onBlocked(block)),
    gate.onDidWrite((write) => diagnostics.onWritten(write.session, write.uri)),
    // a reverted file's blocked-write warnings were about text that is gone
    editRecord.onDidRevert(({ uri }) => diagnostics.clearFile(uri)),
    registerAgentEditCommands(editRecord, agentEdits, editNames),
    core.freshness.onDidTouchSeenFile(fireMarksChanged),
    names.onDidChange(refreshStatus),
    store.onDidChange(() => {
      refreshStatus();
      fireMarksChanged();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SECTION_ID)) return;
      refreshStatus();
      fireMarksChanged();
    }),
    ...Object.entries(commands).map(([id, run]) => vscode.commands.registerCommand(id, run)),
  );
  refreshStatus();
  return { views, marksChanged: marksChanged.event };
}
