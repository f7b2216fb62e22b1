// Where the edit record lives: the extension's storage for this workspace
// (`ExtensionContext.storageUri`, outside the workspace folder), as `agent-edits/index.json` and one
// file per text version, named by its hash. Written with `workspace.fs`, so it works in remote windows.
import * as vscode from 'vscode';
import type { EditRecordStorage } from '../core/editRecord';

/** The folder's name is fixed: the edit record an earlier window saved is in it. */
const RECORD_FOLDER = 'agent-edits';

export class WorkspaceEditRecordStorage implements EditRecordStorage {
  readonly folder: vscode.Uri;
  private readonly texts: vscode.Uri;
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();

  constructor(storageUri: vscode.Uri) {
    this.folder = vscode.Uri.joinPath(storageUri, RECORD_FOLDER);
    this.texts = vscode.Uri.joinPath(this.folder, 'texts');
  }

  async readIndex(): Promise<string | undefined> {
    return this.read(vscode.Uri.joinPath(this.folder, 'index.json'));
  }

  async writeIndex(json: string): Promise<void> {
    // written next to it, then renamed over it: a window closed mid-write leaves the old index whole
    const index = vscode.Uri.joinPath(this.folder, 'index.json');
    const next = vscode.Uri.joinPath(this.folder, 'index.json.next');
    await vscode.workspace.fs.writeFile(next, this.encoder.encode(json));
    await vscode.workspace.fs.rename(next, index, { overwrite: true });
  }

  readText(hash: string): Promise<string | undefined> {
    return this.read(this.textUri(hash));
  }

  async writeText(hash: string, text: string): Promise<void> {
    await vscode.workspace.fs.writeFile(this.textUri(hash), this.encoder.encode(text));
  }

  async deleteText(hash: string): Promise<void> {
    try {
      await vscode.workspace.fs.delete(this.textUri(hash));
    } catch (e) {
      if (!(e instanceof vscode.FileSystemError && e.code === 'FileNotFound')) throw e;
    }
  }

  private textUri(hash: string): vscode.Uri {
    if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error(`not a text hash: ${hash}`);
    return vscode.Uri.joinPath(this.texts, `${hash}.txt`);
  }

  private async read(uri: vscode.Uri): Promise<string | undefined> {
    try {
      return this.decoder.decode(await vscode.workspace.fs.readFile(uri));
    } catch (e) {
      if (e instanceof vscode.FileSystemError && e.code === 'FileNotFound') return undefined;
      throw e;
    }
  }
}
