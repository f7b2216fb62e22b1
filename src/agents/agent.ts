// What an agent gated through its hooks is in the window (src/agents/registration.ts makes it from the
// agent's descriptor), and what the window gives it. One agent, one folder: an agent imports the shared
// levels, never another agent's folder; a new agent is a new folder and one line in the list of agents,
// src/agents/catalog.ts (docs/design.md §Layers).
import type * as vscode from 'vscode';
import type { HookAgent } from '../hooks/event';
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
export interface RegisteredAgent {
  /** how the gate reads its hooks' payloads */
  hooks: HookAgent;
  /** its hooks are on in this window (its setting), so the gate answers them */
  active(): boolean;
  /** its line in the status bar's quick pick: where its hooks are now, and the choice of it (none when another agent's line covers it) */
  choice?: { label(): string; choose(): Promise<void> };
  /** tests only: the one-time offer again, as on a fresh profile */
  offerAgain(): Promise<void>;
  /** its commands, listeners and files' upkeep */
  disposable: vscode.Disposable;
}
