// `editGuard.guardCopilotTools`: while it is `user` or `workspace` (and the workspace is trusted),
// the bridge server runs, the extension host's environment tells hook commands how to reach it, and
// our hooks file stands where Copilot reads it — at user level (`~/.copilot/hooks`, nothing in the
// workspace) or in each workspace folder (`.github/hooks`). `off` removes the file and stops the
// server. Only a file that is ours is ever replaced or removed (docs/design.md §Surfaces).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../../core/ports';
import type { HooksPlacement } from '../../core/settings';
import { BridgeServer, type HookHandler } from '../bridgeServer';
import { CLIENT_SCRIPT_NAME } from '../hookClient';
import { type HookClients, HOOKS_FILE_NAME, HOOKS_FOLDER, hooksFileContent, isOurHooksFile } from './hooksFile';
import { CLIENT_NAMES, readOrUndefined, removeOurHooksFile, SCRIPT_NAME, userHooksFile } from './hooksFileOnDisk';

/** How long a new hooks folder is left alone before our file goes into it (see `write`). */
const NEW_FOLDER_SETTLE_MS = 1500;

export class HooksBridge implements vscode.Disposable {
  private server: BridgeServer | undefined;
  private syncing: Promise<void> = Promise.resolve();

  constructor(
    private readonly extensionPath: string,
    private readonly handler: HookHandler,
    private readonly placement: () => HooksPlacement,
    /** another agent's hooks need the server too (editGuard.guardClaudeCode); their entries are written elsewhere */
    private readonly otherAgentGuarded: () => boolean,
    /** the environment of this window's terminals: a CLI started there reaches the server */
    private readonly terminals: vscode.EnvironmentVariableCollection,
    private readonly log: Logger,
  ) {}

  get clients(): HookClients {
    const dist = path.join(this.extensionPath, 'dist');
    return {
      runtime: process.execPath,
      nodeClient: path.join(dist, SCRIPT_NAME),
      bash: findBash(),
      bashClient: path.join(dist, CLIENT_SCRIPT_NAME),
    };
  }

  /** Brings server, environment and files in line with the setting; calls run one after another. */
  sync(): Promise<void> {
    this.syncing = this.syncing
      .then(() => this.apply())
      .catch((e) => this.log.error(`hooks bridge: ${e instanceof Error ? e.message : String(e)}`));
    return this.syncing;
  }

  private async apply(): Promise<void> {
    const placement = this.placement();
    const on = placement !== 'off' && vscode.workspace.isTrusted;
    const serve = (on || this.otherAgentGuarded()) && vscode.workspace.isTrusted;
    if (serve && !this.server) {
      this.server = await BridgeServer.start(this.handler, this.log);
      // other extensions' children (Copilot's hooks, a CLI another extension starts) inherit the extension host's environment; terminals get theirs
      Object.assign(process.env, this.server.environment);
      for (const [key, value] of Object.entries(this.server.environment)) this.terminals.replace(key, value);
      this.log.info(`hooks bridge: listening for agents' hooks`);
    }
    if (!serve && this.server) this.stopServer();
    const content = on ? hooksFileContent(this.clients) : undefined;
    const userFile = userHooksFile();
    // the user-level file follows the setting, also in an untrusted window (which never writes it)
    if (placement === 'user') {
      if (content !== undefined) await this.write(userFile, content);
    } else this.remove(userFile);
    // a user-level file already runs in this window too: a workspace copy would run every hook twice
    const inFolders = placement === 'workspace' && content !== undefined && !fs.existsSync(userFile) ? content : undefined;
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') continue;
      const file = path.join(folder.uri.fsPath, ...HOOKS_FOLDER.split('/'), HOOKS_FILE_NAME);
      if (inFolders !== undefined) await this.write(file, inFolders);
      else this.remove(file);
    }
  }

  /** A chat has (or no longer has) a tool call to settle: see BridgeServer.notePending. */
  notePending(chat: string, pending: boolean): void {
    this.server?.notePending(chat, pending);
  }

  private async write(file: string, content: string): Promise<void> {
    const existing = readOrUndefined(file);
    if (existing === content) return;
    if (existing !== undefined && !isOurHooksFile(existing, CLIENT_NAMES)) {
      this.log.warn(`hooks bridge: ${file} exists and is not ours; left it alone, so built-in tools are not gated through it`);
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
    this.log.info(`hooks bridge: wrote ${file}`);
  }

  private remove(file: string): void {
    if (removeOurHooksFile(file)) this.log.info(`hooks bridge: removed ${file}`);
  }

  private stopServer(): void {
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
    // the file stays while the setting is on: without this window's server the command lets calls through at once
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
