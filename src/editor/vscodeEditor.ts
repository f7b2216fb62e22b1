// `Editor` (src/core/editor.ts) on VS Code's API: each call is the API call of the same name, nothing
// decided here. What the gate makes of documents lives in src/core/documents.ts.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { writeLocalFileIf } from './localFile';
import type { DiskChange, DiskWatch, Editor, EditorDocument, FileStat, OpenResult } from '../core/editor';
import { type Instant, SharedBarrier } from '../core/barrier';
import { firstPatternMatching } from '../core/paths';
import type { TextSpanEdit } from '../core/replace';
import type { Eol } from '../core/text';

/** The VS Code document behind each `EditorDocument` (one wrapper per document object). */
const wrappers = new WeakMap<vscode.TextDocument, EditorDocument>();
const documentOf = new WeakMap<EditorDocument, vscode.TextDocument>();

/**
 * When VS Code last took in each document's file: opened it, loaded a change (a change that leaves the
 * document clean), or saved it. VS Code does not say; its events do. A document open before the
 * extension started counts from then.
 */
const syncedAt = new WeakMap<vscode.TextDocument, number>();
const startedAt = Date.now();

function wrap(doc: vscode.TextDocument): EditorDocument {
  let wrapped = wrappers.get(doc);
  if (!wrapped) {
    wrapped = {
      uri: doc.uri.toString(),
      get version() {
        return doc.version;
      },
      get isDirty() {
        return doc.isDirty;
      },
      get isClosed() {
        return doc.isClosed;
      },
      get eol(): Eol {
        return doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
      },
      get encoding() {
        return doc.encoding;
      },
      get syncedAt() {
        return syncedAt.get(doc) ?? startedAt;
      },
      getText: () => doc.getText(),
    };
    wrappers.set(doc, wrapped);
    documentOf.set(wrapped, doc);
  }
  return wrapped;
}

/**
 * A `file:` URI's path on this machine. The extension runs where the workspace's files are (its kind is
 * `workspace`), so a local file's bytes and stat are the disk's own: read with Node, without the round trip to the
 * workbench that `workspace.fs` takes (about 10 ms a call in the host here; docs/performance.md). That round trip
 * also brought a held document up to date; `sync` does that now, once per hook event.
 */
function localPath(uri: string): string | undefined {
  const parsed = vscode.Uri.parse(uri);
  return parsed.scheme === 'file' ? parsed.fsPath : undefined;
}

/** The extension host's open document of `uri`, if it holds one. */
function heldDocument(uri: string): vscode.TextDocument | undefined {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
  return doc && !doc.isClosed ? doc : undefined;
}

/** A file's stat as `workspace.fs.stat` gives it for a local file: links followed, whole milliseconds, a dangling link a file. */
async function statOnDisk(file: string): Promise<FileStat> {
  let st: fs.Stats;
  try {
    st = await fs.promises.stat(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    // a link whose target is gone: VS Code's stat reports the link itself (its open then fails), not a missing file
    try {
      st = await fs.promises.lstat(file);
    } catch {
      return { kind: 'missing' };
    }
  }
  return { kind: st.isDirectory() ? 'directory' : 'file', size: st.size, mtime: st.mtime.getTime() };
}

/**
 * A watched file's times, in one stat: when it was last written, and when it was made where the file system keeps that
 * (Linux's statx, macOS, Windows; `born` absent elsewhere). `missing`: it is gone; `undefined`: a folder, or unreadable.
 */
async function timesOf(file: string): Promise<{ mtime: number; born?: number } | 'missing' | undefined> {
  try {
    const st = await fs.promises.stat(file);
    if (!st.isFile()) return undefined;
    return st.birthtimeMs > 0 ? { mtime: st.mtimeMs, born: st.birthtimeMs } : { mtime: st.mtimeMs };
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : undefined;
  }
}

/** The tabs that show the file as text, in every group (a diff's side too: the user may type in it). */
const tabsOf = (uri: vscode.Uri): vscode.Tab[] =>
  vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter(
      (t) =>
        (t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString()) ||
        (t.input instanceof vscode.TabInputTextDiff && [t.input.original, t.input.modified].some((u) => u.toString() === uri.toString())),
    );

/**
 * Would saving the file run a participant that changes its text — a formatter, code actions, trimming (VS Code's own
 * settings for them, for the file's language)? Another extension's `onWillSaveTextDocument` cannot be seen from here.
 */
function savingChangesText(scope: vscode.ConfigurationScope): boolean {
  const editor = vscode.workspace.getConfiguration('editor', scope);
  const files = vscode.workspace.getConfiguration('files', scope);
  const actions = editor.get<unknown>('codeActionsOnSave');
  const someAction = Array.isArray(actions)
    ? actions.length > 0
    : typeof actions === 'object' && actions !== null && Object.values(actions).some((v) => v !== false && v !== 'never');
  return (
    editor.get<boolean>('formatOnSave') === true ||
    someAction ||
    files.get<boolean>('trimTrailingWhitespace') === true ||
    files.get<boolean>('insertFinalNewline') === true ||
    files.get<boolean>('trimFinalNewlines') === true
  );
}

function unwrap(document: EditorDocument): vscode.TextDocument {
  const doc = documentOf.get(document);
  if (!doc) throw new Error(`not a VS Code document: ${document.uri}`);
  return doc;
}

/** How far a file's modification time may run past the clock of this process, for one machine's file system. */
const MTIME_SLACK_MS = 50;

/**
 * The scheme of an empty, read-only file system of ours: `workspace.fs.stat` of it is the cheapest call to the
 * workbench and back — the extension host asks the workbench to activate the scheme (the round trip), then answers
 * from our provider here, no disk touched (VS Code's extHostFileSystemConsumer).
 */
export const SYNC_SCHEME = 'agent-edit-guard-sync';
export const SYNC_URI = vscode.Uri.from({ scheme: SYNC_SCHEME, path: '/' });

/** A file system with nothing in it but its root folder; every write refused. */
const emptyFileSystem: vscode.FileSystemProvider = {
  onDidChangeFile: new vscode.EventEmitter<vscode.FileChangeEvent[]>().event,
  watch: () => new vscode.Disposable(() => undefined),
  stat: (uri) => {
    if (uri.path !== '/') throw vscode.FileSystemError.FileNotFound(uri);
    return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
  },
  readDirectory: () => [],
  createDirectory: (uri) => {
    throw vscode.FileSystemError.NoPermissions(uri);
  },
  readFile: (uri) => {
    throw vscode.FileSystemError.FileNotFound(uri);
  },
  writeFile: (uri) => {
    throw vscode.FileSystemError.NoPermissions(uri);
  },
  delete: (uri) => {
    throw vscode.FileSystemError.NoPermissions(uri);
  },
  rename: (uri) => {
    throw vscode.FileSystemError.NoPermissions(uri);
  },
};

/**
 * The empty file system, registered by the first editor of this extension host. Another (a host test's editor beside the
 * extension's own) finds the scheme taken and uses that one: the same round trip.
 */
function registerSyncScheme(): vscode.Disposable[] {
  try {
    return [vscode.workspace.registerFileSystemProvider(SYNC_SCHEME, emptyFileSystem, { isReadonly: true, isCaseSensitive: true })];
  } catch {
    return [];
  }
}

export class VsCodeEditor implements Editor, vscode.Disposable {
  private readonly barrier = new SharedBarrier(() => vscode.workspace.fs.stat(SYNC_URI));
  private readonly listeners: vscode.Disposable[] = [
    ...registerSyncScheme(),
    vscode.workspace.onDidOpenTextDocument((doc) => syncedAt.set(doc, Date.now())),
    vscode.workspace.onDidSaveTextDocument((doc) => syncedAt.set(doc, Date.now())),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (!e.document.isDirty) syncedAt.set(e.document, Date.now());
    }),
  ];

  /** The watches running (`watchDisk`), each told of every file event and of the editor's own saves. */
  private readonly watches = new Set<(uri: vscode.Uri, kind: DiskChange['kind'] | 'saved') => void>();
  /** One watcher of the workspace's files for all of them, made at once: a watcher made when a command starts may miss its writes. */
  private readonly watcher = vscode.workspace.createFileSystemWatcher('**/*');

  constructor() {
    const tell = (kind: DiskChange['kind'] | 'saved') => (uri: vscode.Uri) => {
      for (const w of this.watches) w(uri, kind);
    };
    this.listeners.push(
      this.watcher.onDidCreate(tell('created')),
      this.watcher.onDidChange(tell('changed')),
      this.watcher.onDidDelete(tell('deleted')),
      vscode.workspace.onDidSaveTextDocument((doc) => tell('saved')(doc.uri)),
    );
  }

  dispose(): void {
    for (const l of this.listeners) l.dispose();
    this.watcher.dispose();
  }

  sync(asOf?: Instant): Promise<void> {
    return this.barrier.pass(asOf);
  }

  openDocuments(): readonly EditorDocument[] {
    return vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'file' && !d.isClosed).map(wrap);
  }

  watchDisk(): DiskWatch {
    const started = Date.now();
    const seen = new Map<string, DiskChange['kind']>();
    const saved = new Set<string>();
    const listener = (uri: vscode.Uri, kind: DiskChange['kind'] | 'saved') => {
      if (uri.scheme !== 'file') return;
      const key = uri.toString();
      if (kind === 'saved') return void saved.add(key);
      // a file made and then written is made; one deleted and made again is changed
      const before = seen.get(key);
      seen.set(key, before === 'created' && kind !== 'deleted' ? 'created' : before === 'deleted' && kind === 'created' ? 'changed' : kind);
    };
    this.watches.add(listener);
    return {
      stop: async (settleMs, also) => {
        const ended = Date.now();
        // the watcher reports a change some tens of milliseconds after it, more under load
        await new Promise((resolve) => setTimeout(resolve, settleMs));
        this.watches.delete(listener);
        const changes: DiskChange[] = [];
        const timesAt = (uri: string) => timesOf(vscode.Uri.parse(uri).fsPath);
        const during = (times: Awaited<ReturnType<typeof timesOf>>): times is { mtime: number; born?: number } =>
          typeof times === 'object' && times.mtime > started - MTIME_SLACK_MS && times.mtime <= ended + MTIME_SLACK_MS;
        for (const [uri, kind] of seen) {
          if (saved.has(uri)) continue;
          if (kind === 'deleted') {
            changes.push({ uri, kind });
            continue;
          }
          const times = await timesAt(uri);
          // changed again after the watch ended: another program's, not what ran meanwhile
          if (!during(times)) continue;
          // the late report of a file made before the watch began, written since: a change
          const before = kind === 'created' && times.born !== undefined && times.born < started - MTIME_SLACK_MS;
          changes.push({ uri, kind: before ? 'changed' : kind });
        }
        for (const uri of also) {
          if (seen.has(uri) || saved.has(uri)) continue;
          const times = await timesAt(uri);
          if (times === 'missing') changes.push({ uri, kind: 'deleted' });
          else if (during(times)) changes.push({ uri, kind: 'changed' });
        }
        return changes;
      },
    };
  }

  openDocument(uri: string): EditorDocument | undefined {
    const doc = heldDocument(uri);
    return doc ? wrap(doc) : undefined;
  }

  async open(uri: string): Promise<OpenResult> {
    try {
      return { ok: true, document: wrap(await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))) };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      if (/binary/i.test(message)) return { ok: false, reason: 'binary', message };
      if (/too large|too big|exceeds/i.test(message)) return { ok: false, reason: 'too-large', message };
      return { ok: false, reason: 'other', message };
    }
  }

  async stat(uri: string): Promise<FileStat> {
    const local = localPath(uri);
    if (local !== undefined) return statOnDisk(local);
    try {
      const stat = await vscode.workspace.fs.stat(vscode.Uri.parse(uri));
      return { kind: stat.type & vscode.FileType.Directory ? 'directory' : 'file', size: stat.size, mtime: stat.mtime };
    } catch (e) {
      if (e instanceof vscode.FileSystemError && e.code === 'FileNotFound') return { kind: 'missing' };
      throw e;
    }
  }

  readFile(uri: string): Promise<Uint8Array> {
    const local = localPath(uri);
    if (local !== undefined) return fs.promises.readFile(local);
    return Promise.resolve(vscode.workspace.fs.readFile(vscode.Uri.parse(uri)));
  }

  async writeFileIf(uri: string, bytes: Uint8Array, holds: (current: Uint8Array) => boolean): Promise<boolean> {
    const parsed = vscode.Uri.parse(uri);
    if (parsed.scheme !== 'file') {
      // another file system: through the workbench, a round trip between the comparison and the write
      if (!holds(await vscode.workspace.fs.readFile(parsed))) return false;
      await vscode.workspace.fs.writeFile(parsed, bytes);
      return true;
    }
    return writeLocalFileIf(parsed.fsPath, bytes, holds);
  }

  applyEdits(document: EditorDocument, edits: readonly TextSpanEdit[]): Promise<boolean> {
    const doc = unwrap(document);
    // the edit carries this document version; the main thread refuses it (false) if the version moved
    const edit = new vscode.WorkspaceEdit();
    for (const e of edits) edit.replace(doc.uri, new vscode.Range(doc.positionAt(e.start), doc.positionAt(e.end)), e.text);
    return Promise.resolve(vscode.workspace.applyEdit(edit));
  }

  createFile(uri: string, bytes: Uint8Array): Promise<boolean> {
    const edit = new vscode.WorkspaceEdit();
    // no overwrite: if the file appeared since the check, the edit fails instead of clobbering it
    edit.createFile(vscode.Uri.parse(uri), { overwrite: false, ignoreIfExists: false, contents: bytes });
    return Promise.resolve(vscode.workspace.applyEdit(edit));
  }

  removeFile(uri: string): Promise<boolean> {
    const edit = new vscode.WorkspaceEdit();
    edit.deleteFile(vscode.Uri.parse(uri), { ignoreIfNotExists: false });
    return Promise.resolve(vscode.workspace.applyEdit(edit));
  }

  save(document: EditorDocument): Promise<boolean> {
    return Promise.resolve(unwrap(document).save());
  }

  /** One revert at a time: each shows its document and reverts the active editor, which another's show would change. */
  private reverting: Promise<unknown> = Promise.resolve();

  reload(document: EditorDocument): Promise<boolean> {
    const turn = this.reverting.then(() => this.revertShown(document));
    this.reverting = turn.catch(() => undefined);
    return turn;
  }

  private async revertShown(document: EditorDocument): Promise<boolean> {
    const doc = unwrap(document);
    const version = doc.version;
    // The API reverts no document: File: Revert File acts on the active editor. The document is shown in the
    // active group without taking the keyboard focus, reverted there, and its tab closed again if it had none.
    const hadTab = tabsOf(doc.uri).length > 0;
    await vscode.window.showTextDocument(doc, { preserveFocus: true, preview: true });
    // anything typed meanwhile is the user's: then nothing is dropped
    if (doc.version !== version || vscode.window.activeTextEditor?.document !== doc) return false;
    await vscode.commands.executeCommand('workbench.action.files.revert');
    if (!hadTab && !doc.isDirty) await vscode.window.tabGroups.close(tabsOf(doc.uri), true);
    return !doc.isDirty;
  }

  nextChange(document: EditorDocument, ms: number): Promise<boolean> {
    const doc = unwrap(document);
    return new Promise((resolve) => {
      const done = (changed: boolean) => {
        clearTimeout(timer);
        listener.dispose();
        resolve(changed);
      };
      const listener = vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === doc) done(true);
      });
      const timer = setTimeout(() => done(false), ms);
    });
  }

  async stillAt(document: EditorDocument): Promise<boolean> {
    // An edit that changes nothing, made for this version: the main thread refuses it if the document
    // moved. It goes the same way as every other edit of the document there, after those sent first
    // (an empty WorkspaceEdit is answered at once, ahead of edits still in progress: measured with a
    // visible editor, a keystroke sent just before it was saved 10 times out of 10).
    const doc = unwrap(document);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(0, 0, 0, 0), '');
    return vscode.workspace.applyEdit(edit);
  }

  shows(uri: string): boolean {
    return tabsOf(vscode.Uri.parse(uri)).length > 0;
  }

  followsDisk(uri: string): boolean {
    const parsed = vscode.Uri.parse(uri);
    if (parsed.scheme !== 'file') return true;
    const excluded = vscode.workspace.getConfiguration('files', parsed).get<Record<string, unknown>>('watcherExclude') ?? {};
    const patterns = Object.keys(excluded).filter((p) => excluded[p] === true);
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => ({ fsPath: f.uri.fsPath, name: f.name }));
    return firstPatternMatching(parsed.fsPath, folders, patterns) === undefined;
  }

  writesStraightToDisk(uri: string): boolean {
    const parsed = vscode.Uri.parse(uri);
    if (parsed.scheme !== 'file' || this.shows(uri)) return false;
    const languageId = heldDocument(uri)?.languageId;
    return !savingChangesText(languageId !== undefined ? { uri: parsed, languageId } : parsed);
  }

  defaultEol(uri: string): Eol {
    const eol = vscode.workspace.getConfiguration('files', vscode.Uri.parse(uri)).get<string>('eol');
    if (eol === '\r\n' || eol === '\n') return eol;
    return process.platform === 'win32' ? '\r\n' : '\n'; // 'auto': the operating system's
  }
}
