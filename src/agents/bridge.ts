// The hooks bridge in this window, shared by every agent gated through its hooks: the server
// (src/hooks/server.ts) runs while any agent's setting asks for it in a trusted workspace, and the
// agents' hook commands learn how to reach it from the environment — the extension host's own (which
// Copilot's Local agent and CLIs started by other extensions inherit) and this window's terminals' —
// or, for an agent that descends from neither (the Copilot harness, a CLI in an external terminal),
// from this window's entry (src/hooks/discovery.ts), written while the server runs and removed when
// it stops. Each agent puts its own hook entries where its host reads them (src/agents/<agent>/).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../core/ports';
import { CLIENT_SCRIPT_NAME } from '../hooks/bashClient';
import { type HookClients, NODE_CLIENT_NAME } from '../hooks/command';
import { entryOf, removeEntry, touchEntry, writeEntry } from '../hooks/discovery';
import { BridgeServer, type HookHandler } from '../hooks/server';

export class Bridge implements vscode.Disposable {
  private server: BridgeServer | undefined;
  /** this window's discovery entry (its file), while the server runs */
  private entry: string | undefined;
  private syncing: Promise<void> = Promise.resolve();
  /** each agent's "my hooks are on": the server runs while one of them is */
  private readonly wanted = new Set<() => boolean>();

  constructor(
    private readonly extensionPath: string,
    private readonly handler: HookHandler,
    /** the environment of this window's terminals: a CLI started there reaches the server */
    private readonly terminals: vscode.EnvironmentVariableCollection,
    private readonly log: Logger,
  ) {}

  /** What our hook commands run, from this install of the extension. */
  get clients(): HookClients {
    const dist = path.join(this.extensionPath, 'dist');
    return {
      runtime: process.execPath,
      nodeClient: path.join(dist, NODE_CLIENT_NAME),
      bash: findBash(),
      bashClient: path.join(dist, CLIENT_SCRIPT_NAME),
    };
  }

  /** An agent needs the server while `on()` says so; `sync()` applies it. */
  serveWhile(on: () => boolean): vscode.Disposable {
    this.wanted.add(on);
    return { dispose: () => this.wanted.delete(on) };
  }

  /** Starts or stops the server as the agents' settings and the workspace's trust say; calls run one after another. */
  sync(): Promise<void> {
    this.syncing = this.syncing
      .then(() => this.apply())
      .catch((e) => this.log.error(`hooks bridge: ${e instanceof Error ? e.message : String(e)}`));
    return this.syncing;
  }

  private async apply(): Promise<void> {
    const serve = vscode.workspace.isTrusted && [...this.wanted].some((on) => on());
    if (serve && !this.server) {
      this.server = await BridgeServer.start(this.handler, this.log);
      // other extensions' children (Copilot's hooks, a CLI another extension starts) inherit the extension host's environment; terminals get theirs
      Object.assign(process.env, this.server.environment);
      for (const [key, value] of Object.entries(this.server.environment)) this.terminals.replace(key, value);
      this.log.info(`hooks bridge: listening for agents' hooks`);
    }
    if (!serve && this.server) this.stopServer();
    this.writeEntry();
  }

  /** This window's entry, for agents started outside it: its folders as they are now (none: no entry). */
  private writeEntry(): void {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    if (!this.server || folders.length === 0) return this.removeEntry();
    const entry = entryOf(this.server.environment, folders);
    try {
      const file = writeEntry(entry, undefined, this.entry);
      if (!file)
        this.log.warn("hooks bridge: the windows' entries folder is not this user's own; agents started outside this window are not gated");
      else if (!this.entry) this.log.info(`hooks bridge: agents started outside this window reach it through ${file}`);
      this.entry = file;
    } catch (e) {
      this.log.warn(`hooks bridge: could not write this window's entry: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private removeEntry(): void {
    if (!this.entry) return;
    removeEntry(this.entry);
    this.entry = undefined;
  }

  /** The window was focused: of several windows on one folder, agents started elsewhere reach this one. */
  noteFocus(): void {
    if (this.entry) touchEntry(this.entry);
  }

  /** A chat has (or no longer has) a tool call to settle: see BridgeServer.notePending. */
  notePending(chat: string, pending: boolean): void {
    this.server?.notePending(chat, pending);
  }

  private stopServer(): void {
    this.removeEntry();
    if (!this.server) return;
    for (const key of Object.keys(this.server.environment)) {
      delete process.env[key];
      this.terminals.delete(key);
    }
    this.server.dispose();
    this.server = undefined;
    this.log.info("hooks bridge: stopped (no agent's file tools are gated)");
  }

  dispose(): void {
    // the agents' entries stay while their settings are on: without this window's server a command lets calls through at once
    this.stopServer();
  }
}

/** bash on this machine's PATH (the cheap client needs it); none on Windows, where hooks run in PowerShell. */
function findBash(): string | undefined {
  if (process.platform === 'win32') return undefined;
  for (const dir of ['/bin', ...(process.env.PATH ?? '').split(path.delimiter)]) {
    const candidate = path.join(dir, 'bash');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
