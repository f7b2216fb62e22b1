// The parts every registration shares: the gate (its mark store, documents, rules), chat identity
// and names, and the edit record (which reverts its edits). Built once in `activate()`.
import * as vscode from 'vscode';
import { ExpectedCalls } from '../chat/expectedCalls';
import { ChatNames } from '../chat/names';
import { ChatSessions } from '../chat/session';
import { maxEditRecordBytes, readSettings, watchSettings } from '../config';
import { AfterAnswer } from '../core/afterAnswer';
import { EditorDocuments } from '../core/documents';
import { EditRecord } from '../core/editRecord';
import { Gate } from '../core/gate';
import { GuardedTools } from '../core/guardedTools';
import { MarkStore } from '../core/marks';
import { WorkspaceEditRecordStorage } from '../editor/editRecordStorage';
import { LiveFreshness } from '../editor/liveFreshness';
import { VsCodeEditor } from '../editor/vscodeEditor';

/** The name the chats' names are saved under with the edit record. */
const NAMES_ATTACHMENT = 'names';

export interface Core {
  log: vscode.LogOutputChannel;
  store: MarkStore;
  documents: EditorDocuments;
  gate: Gate;
  /** our three tools' flow */
  tools: GuardedTools;
  sessions: ChatSessions;
  /** how the surfaces name chats and turns; fed by every call of our tools and by the hooks */
  names: ChatNames;
  /** every agent edit that landed, to review and revert (the Agent Edits view shows it) */
  editRecord: EditRecord;
  editRecordStorage: WorkspaceEditRecordStorage | undefined;
  freshness: LiveFreshness;
  /** a tool ran in this chat (ours, or an agent's through its hooks): the status bar follows it */
  activity: vscode.EventEmitter<string>;
  /** our tools' calls another agent's hook announced with their chat and turn (the Copilot harness's) */
  expected: ExpectedCalls;
  /** answers first: the surfaces' refreshes wait until the agents' answers in progress are out */
  afterAnswer: AfterAnswer;
}

export function createCore(context: vscode.ExtensionContext): Core {
  const log = vscode.window.createOutputChannel('Agent Edit Guard', { log: true });
  // first: every part below reads the settings through it
  context.subscriptions.push(watchSettings());
  const store = new MarkStore();
  const editor = new VsCodeEditor();
  const documents = new EditorDocuments(editor);
  const gate = new Gate(store, documents, readSettings, log);
  const names = new ChatNames();
  // the edit record, in this workspace's extension storage (none without a folder: kept in memory)
  const editRecordStorage = context.storageUri ? new WorkspaceEditRecordStorage(context.storageUri) : undefined;
  const editRecord = new EditRecord({
    storage: editRecordStorage,
    budget: maxEditRecordBytes,
    gate,
    labels: { current: vscode.l10n.t('now (kept)'), reverted: vscode.l10n.t('with the agent edit reverted') },
    log,
  });
  // the record's view shows chats by their names after a reload too: they are saved with it
  editRecord.attach(NAMES_ATTACHMENT, () => names.toJSON());
  void editRecord.load().then(() => names.absorb(editRecord.attachment(NAMES_ATTACHMENT)));
  const core: Core = {
    log,
    store,
    documents,
    gate,
    tools: new GuardedTools(gate),
    sessions: new ChatSessions((parts) => vscode.Uri.from(parts).toString()),
    names,
    editRecord,
    editRecordStorage,
    freshness: new LiveFreshness(store, documents),
    activity: new vscode.EventEmitter<string>(),
    expected: new ExpectedCalls(),
    afterAnswer: new AfterAnswer((e) => log.error(`a refresh failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)),
  };
  context.subscriptions.push(
    log,
    editor,
    core.freshness,
    core.activity,
    core.afterAnswer,
    { dispose: () => store.dispose() },
    gate.onDidWrite((write) => editRecord.record(write)),
    // a file renamed in the editor keeps its recorded edits under its new name, so a revert works there
    vscode.workspace.onDidRenameFiles((e) =>
      editRecord.rename(e.files.map((f) => ({ from: f.oldUri.toString(), to: f.newUri.toString() }))),
    ),
    // deactivate() has flushed the record by then (VS Code awaits it before disposing these)
    editRecord,
  );
  return core;
}
