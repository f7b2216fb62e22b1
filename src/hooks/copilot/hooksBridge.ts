// `editGuard.guardBuiltinTools`: while it is on (and the workspace is trusted), the bridge server
// runs, the extension host's environment tells hook commands how to reach it, and each workspace
// folder holds our hooks file; turning it off removes the file and stops the server. Nothing else in
// the workspace is touched.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../../core/ports';
import { BridgeServer, type HookHandler } from '../bridgeServer';
import { HOOKS_FILE_NAME, HOOKS_FOLDER, hooksFileContent, isOurHooksFile } from './hooksFile';

export const SCRIPT_NAME = 'hook-bridge.js';

/** A copy the user keeps at user level (README): then no workspace file is written, so hooks do not run twice. */
export const USER_LEVEL_HOOKS_FILE = path.join(os.homedir(), '.copilot', 'hooks', HOOKS_FILE_NAME);

export class HooksBridge implements vscode.Disposable {
  private server: BridgeServer | undefined;
  private syncing: Promise<void> = Promise.resolve();

  constructor(
    private readonly extensionPath: string,
    private readonly handler: HookHandler,
    private readonly wanted: () => boolean,
    private readonly log: Logger,
  ) {}

  get script(): string {
    return path.join(this.extensionPath, 'dist', SCRIPT_NAME);
  }

  /** Brings server, environment and files in line with the setting; calls run one after another. */
  sync(): Promise<void> {
    this.syncing = this.syncing.then(() => this.apply()).catch((e) => this.log.error(`hooks bridge: ${e instanceof Error ? e.message : String(e)}`));
    return this.syncing;
  }

  private async apply(): Promise<void> {
    const on = this.wanted() && vscode.workspace.isTrusted;
    if (on && !this.server) {
      this.server = await BridgeServer.start(this.handler, this.log);
      Object.assign(process.env, this.server.environment);
      this.log.info(`hooks bridge: listening for Copilot's hooks (built-in file tools are gated)`);
    }
    if (!on && this.server) this.stopServer();
    // a copy at user level runs already: a workspace file would run the hooks twice
    const content = on && !fs.existsSync(USER_LEVEL_HOOKS_FILE) ? hooksFileContent(process.execPath, this.script) : undefined;
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') continue;
      const file = path.join(folder.uri.fsPath, ...HOOKS_FOLDER.split('/'), HOOKS_FILE_NAME);
      if (content !== undefined) this.write(file, content);
      else this.remove(file);
    }
  }

  private write(file: string, content: string): void {
    const existing = readOrUndefined(file);
    if (existing === content) return;
    if (existing !== undefined && !isOurHooksFile(existing, SCRIPT_NAME)) {
      this.log.warn(`hooks bridge: ${file} exists and is not ours; left it alone, so built-in tools are not gated in that folder`);
      return;
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    this.log.info(`hooks bridge: wrote ${file}`);
  }

  private remove(file: string): void {
    const existing = readOrUndefined(file);
    if (existing === undefined || !isOurHooksFile(existing, SCRIPT_NAME)) return;
    fs.rmSync(file, { force: true });
    this.log.info(`hooks bridge: removed ${file}`);
    // the folders we may have made, only if nothing else is in them
    for (const dir of [path.dirname(file), path.dirname(path.dirname(file))]) {
      try {
        fs.rmdirSync(dir);
      } catch {
        break;
      }
    }
  }

  private stopServer(): void {
    if (!this.server) return;
    for (const key of Object.keys(this.server.environment)) delete process.env[key];
    this.server.dispose();
    this.server = undefined;
    this.log.info('hooks bridge: stopped (built-in file tools are not gated)');
  }

  dispose(): void {
    // the workspace file stays while the setting is on: without this window's server the script lets calls through
    this.stopServer();
  }
}

function readOrUndefined(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
