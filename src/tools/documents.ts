// The editor side of the gate: `DocumentPort` on VS Code's `TextDocument`s. The text is always
// the document's (unsaved changes included), never a copy from disk, unless disk moved ahead of a
// clean document that VS Code has not reloaded yet.
import * as vscode from 'vscode';
import type { DocumentPort, LoadedDocument, LoadResult, SaveResult } from '../core/guard';
import { HashCache, sha256 } from '../core/hash';
import type { TextSpanEdit } from '../core/replace';

/** VS Code does not sync documents over 50 M characters to extensions. */
export const MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;

export class WorkspaceDocuments implements DocumentPort {
  readonly hashes = new HashCache();
  /** (mtime, size) of the disk file when we last found a clean document equal to it. */
  private readonly inSync = new Map<string, { version: number; mtime: number; size: number }>();
  /** Documents (and their version) whose file had mixed line endings that VS Code normalised. */
  private readonly normalisedEol = new Map<string, number>();

  find(uri: string): vscode.TextDocument | undefined {
    return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
  }

  currentHash(uri: string): string | undefined {
    const doc = this.find(uri);
    return doc ? this.hashOf(doc) : undefined;
  }

  hashOf(doc: vscode.TextDocument): string {
    return this.hashes.hash(doc.uri.toString(), doc.version, () => doc.getText());
  }

  async load(uriString: string): Promise<LoadResult> {
    const uri = vscode.Uri.parse(uriString);
    let stat: vscode.FileStat;
    try {
      stat = await vscode.workspace.fs.stat(uri);
    } catch (e) {
      if (e instanceof vscode.FileSystemError && e.code === 'FileNotFound') return { exists: false };
      return { exists: 'error', code: 'internal', message: `Could not access the file: ${message(e)}` };
    }
    if (stat.type & vscode.FileType.Directory) {
      return { exists: 'error', code: 'invalid-input', message: 'This path is a folder, not a file. Give the path of a file.' };
    }
    if (stat.size > MAX_DOCUMENT_BYTES) {
      return { exists: 'error', code: 'too-large', message: `The file is ${mib(stat.size)}; VS Code gives extensions documents up to ${mib(MAX_DOCUMENT_BYTES)}, so it cannot be read or edited here.` };
    }
    let doc: vscode.TextDocument;
    try {
      doc = await vscode.workspace.openTextDocument(uri);
    } catch (e) {
      const text = message(e);
      if (/binary/i.test(text)) return { exists: 'error', code: 'binary', message: 'The file seems to be binary, so it cannot be read or edited as text.' };
      if (/too large|too big|exceeds/i.test(text)) return { exists: 'error', code: 'too-large', message: `The file is too large for the editor: ${text}` };
      return { exists: 'error', code: 'internal', message: `Could not open the file: ${text}` };
    }
    if (!doc.isDirty) {
      const disk = await this.diskAhead(doc, stat);
      if (disk !== undefined) return { exists: true, text: disk, hash: sha256(disk), dirty: false };
    }
    const loaded: LoadedDocument = { exists: true, text: doc.getText(), hash: this.hashOf(doc), dirty: doc.isDirty };
    if (this.normalisedEol.get(uriString) === doc.version) {
      loaded.note = `Note: the file has mixed line endings on disk; VS Code holds it with ${doc.eol === vscode.EndOfLine.CRLF ? 'CRLF' : 'LF'} only, and saving writes every line that way.`;
    }
    return loaded;
  }

  /**
   * A clean document lags a disk change until VS Code's watcher reloads it. If the file on disk
   * differs from the document, the disk text is the file's current text.
   */
  private async diskAhead(doc: vscode.TextDocument, stat: vscode.FileStat): Promise<string | undefined> {
    const key = doc.uri.toString();
    const known = this.inSync.get(key);
    if (known && known.version === doc.version && known.mtime === stat.mtime && known.size === stat.size) return undefined;
    if (doc.encoding !== 'utf8' && doc.encoding !== 'utf8bom') return undefined; // cannot compare bytes of other encodings
    let diskText: string;
    try {
      diskText = new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(doc.uri));
    } catch {
      return undefined;
    }
    // VS Code gives a document one line ending: a file with mixed ones is normalised when loaded
    const eol = doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
    if (diskText === doc.getText()) {
      this.inSync.set(key, { version: doc.version, mtime: stat.mtime, size: stat.size });
      return undefined;
    }
    if (diskText.replace(/\r?\n/g, eol) === doc.getText()) {
      this.inSync.set(key, { version: doc.version, mtime: stat.mtime, size: stat.size });
      this.normalisedEol.set(key, doc.version);
      return undefined;
    }
    return diskText;
  }

  async applyEdits(uriString: string, expectedHash: string, edits: readonly TextSpanEdit[], resultHash: string): Promise<boolean> {
    const uri = vscode.Uri.parse(uriString);
    const doc = this.find(uriString) ?? (await vscode.workspace.openTextDocument(uri));
    // From here to `applyEdit` nothing awaits: the text we check is the text the edit applies to.
    // The edit carries the document version; if the main thread has a newer one it refuses (false).
    if (this.hashOf(doc) !== expectedHash) return false;
    const versionBefore = doc.version;
    const edit = new vscode.WorkspaceEdit();
    for (const e of edits) edit.replace(uri, new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.text);
    const applied = await vscode.workspace.applyEdit(edit);
    // exactly our edit made the next version: its text is the one the core planned and hashed
    if (applied && doc.version === versionBefore + 1) this.hashes.set(uriString, doc.version, resultHash);
    return applied;
  }

  async create(uriString: string, text: string): Promise<boolean> {
    const uri = vscode.Uri.parse(uriString);
    const edit = new vscode.WorkspaceEdit();
    // no overwrite: if the file appeared since our check, the edit fails instead of clobbering it
    edit.createFile(uri, { overwrite: false, ignoreIfExists: false, contents: new TextEncoder().encode(text) });
    return vscode.workspace.applyEdit(edit);
  }

  async save(uriString: string): Promise<SaveResult> {
    const doc = this.find(uriString);
    if (!doc) return { saved: false };
    const versionBefore = doc.version;
    if (!(await doc.save())) return { saved: false };
    // what we just saved is what is on disk: the next load need not read the file back to compare
    try {
      const stat = await vscode.workspace.fs.stat(doc.uri);
      if (!doc.isDirty) this.inSync.set(uriString, { version: doc.version, mtime: stat.mtime, size: stat.size });
    } catch {
      /* the next load compares with the disk as usual */
    }
    // a save participant (format on save) that edited the text made a new version
    return doc.version === versionBefore ? { saved: true } : { saved: true, reformatted: doc.getText() };
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
