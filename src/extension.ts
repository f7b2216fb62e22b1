// Composition root: what the extension is made of, one registration per line. The map of the code
// is docs/design.md §Layers.
import * as vscode from 'vscode';
import { registerAgents } from './activation/agents';
import { createCore } from './activation/core';
import { registerSurfaces } from './activation/surfaces';
import { registerTestCommands } from './activation/testCommands';
import { registerGuardedTools } from './activation/tools';
import { AGENTS } from './agents/catalog';
import { type AgentEditGuardApi, toReadMarkInfo, toRecordedEditInfo } from './api';

export function activate(context: vscode.ExtensionContext): AgentEditGuardApi {
  const core = createCore(context);
  const agents = registerAgents(context, core, AGENTS);
  registerGuardedTools(context, core, agents);
  const surfaces = registerSurfaces(context, core, agents);
  if (context.extensionMode === vscode.ExtensionMode.Test) registerTestCommands(context, core, agents);
  flushOnExit = () => core.editRecord.flush();
  context.subscriptions.push({ dispose: () => (flushOnExit = undefined) });
  core.log.info('Agent Edit Guard active');

  return {
    readMarks: () => surfaces.views().map((v) => toReadMarkInfo(v.mark, v.fresh)),
    onDidChangeReadMarks: surfaces.marksChanged,
    editRecord: () => core.editRecord.all().map(toRecordedEditInfo),
    onDidChangeEditRecord: (listener) => core.editRecord.onDidChange(listener),
  };
}

/** The edit record's changes not yet written when the window closes or reloads. */
let flushOnExit: (() => Promise<void>) | undefined;

export function deactivate(): Promise<void> | undefined {
  return flushOnExit?.();
}
