// The agents gated through their hooks: the hooks bridge, the gate over their hook events, and each
// agent in the window (src/agents/registration.ts), from the list `activate()` gives (src/agents/catalog.ts).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentRegistration } from '../agents/registration';
import { Bridge } from '../agents/bridge';
import { registerAgent } from '../agents/registration';
import type { AgentDescriptor } from '../hooks/agentDescriptor';
import { ExternalEdits } from '../core/externalEdits';
import { fileOfAgentPath } from '../editor/workspace';
import type { AgentHooks } from '../hooks/event';
import { shellLevelIn } from './shellLevel';
import { HookRouter } from '../hooks/hookRouter';
import type { Core } from './core';

export interface AgentRegistry {
  /** the registered agents, in the order given */
  list: readonly AgentRegistration[];
  /** their hooks' readers by id: how the surfaces name their tools */
  byId: ReadonlyMap<string, AgentHooks>;
  /** a guarded tool ran with the agent's own id for the turn: built-in calls of the turn take it too */
  noteGuardedCall(session: string, turn: string | undefined): void;
}

export function registerAgents(
  context: vscode.ExtensionContext,
  core: Pick<Core, 'gate' | 'sessions' | 'log' | 'activity' | 'names' | 'expected' | 'afterAnswer'>,
  descriptors: readonly AgentDescriptor[],
): AgentRegistry {
  const byId = new Map<string, AgentHooks>();
  const active = new Map<string, () => boolean>();
  const router = new HookRouter({
    edits: new ExternalEdits(core.gate),
    sessions: core.sessions,
    log: core.log,
    agents: byId,
    active: (id) => active.get(id)?.() ?? false,
    onActivity: (session) => core.activity.fire(session),
    resolveFile: fileOfAgentPath,
    onPending: (chat, pending) => bridge.notePending(chat, pending),
    names: core.names,
    expected: core.expected,
    shell: shellLevelIn(path.join(context.extensionPath, 'dist')),
  });
  // a CLI started in this window's terminals reaches the bridge through their environment
  context.environmentVariableCollection.persistent = false;
  context.environmentVariableCollection.description = vscode.l10n.t(
    "Lets agents started in this window's terminals reach Agent Edit Guard's gate",
  );
  const bridge = new Bridge(
    context.extensionPath,
    // the hook waits for this answer; what only shows it waits for the answer (src/core/afterAnswer.ts)
    (agent, payload, origin) => core.afterAnswer.answer(() => router.handle(agent, payload, origin)),
    context.environmentVariableCollection,
    core.log,
  );
  context.subscriptions.push(bridge);
  const toolNamesOf = (channel: string) => [
    ...new Set([...byId.values()].filter((a) => (a.channel ?? a.id) === channel).flatMap((a) => a.toolNames)),
  ];
  // every agent's hook reader is known before any registers: an agent's entries name the tools of all on their channel
  for (const d of descriptors) byId.set(d.hooks.id, d.hooks);
  const list = descriptors.map((descriptor) => {
    const agent = registerAgent(descriptor, { context, bridge, log: core.log, toolNamesOf });
    byId.set(agent.hooks.id, agent.hooks);
    active.set(agent.hooks.id, agent.active);
    context.subscriptions.push(agent.disposable);
    return agent;
  });
  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(() => void bridge.sync()),
    // the window's entry names its folders
    vscode.workspace.onDidChangeWorkspaceFolders(() => void bridge.sync()),
    vscode.window.onDidChangeWindowState((state) => state.focused && bridge.noteFocus()),
  );
  return { list, byId, noteGuardedCall: (session, turn) => router.noteGuardedCall(session, turn) };
}
