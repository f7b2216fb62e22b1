// Shared bits of the integration suite: calling the guarded tools and decoding their results,
// making fresh files in the run's workspace, simulating the user (unsaved typing, disk changes),
// real chat turns through the test-only @scripted participant, settings, diagnostics, waiting.
// Everything here drives the real VS Code API: no mocks.
import type { AgentEditGuardApi, ReadMarkInfo } from '../../src/api';
import type { ResultData } from '../../src/core/types';
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { machineLoad } from '../shared/machine';
import { driverAvailable, sleep, ui } from './ui';

export { sleep, ui };

export const EXTENSION_ID = 'editguard.agent-edit-guard';
export const SCRIPTED_AGENT_ID = 'editguard-test.scripted-agent';
export const FAKE_MODEL_VENDOR = 'editguard-test';
export const DIAGNOSTIC_SOURCE = 'Agent Edit Guard';
export const DIAGNOSTIC_CODE = 'blocked-write';

export const READ = 'editGuard_readFile';
export const WRITE = 'editGuard_writeFile';
export const REPLACE = 'editGuard_replaceString';
export type ToolName = typeof READ | typeof WRITE | typeof REPLACE;

/** The JSON part of every tool result (the product contract). */
export type ToolJson = ResultData;

export interface ToolOutcome {
  /** what the model reads: all text parts joined */
  text: string;
  json: ToolJson;
}

export type { ReadMarkInfo };
export type EditGuardApi = AgentEditGuardApi;

// ---------------------------------------------------------------------------------------------
// waiting

/** Which window a wait looks at: the tests' own, or the second window the driver opened (`ui` openWindow). */
export type TestWindow = 'main' | 'second';

/**
 * Polls `probe` until it returns a truthy value, and returns that value. `timeoutMs` is the bound on a
 * quiet machine, scaled by `machineLoad()`. Past it, fails naming `what` it waited for and the last
 * value seen (or the last error thrown by the probe) and, under the driver, with a screenshot of the
 * window and the window's newest log lines — so a wait that fails says what the window was doing.
 */
export async function waitFor<T>(
  probe: () => T | undefined | null | false | '' | 0 | Promise<T | undefined | null | false | '' | 0>,
  what: string,
  timeoutMs = 5000,
  intervalMs = 25,
  window: TestWindow = 'main',
): Promise<T> {
  const started = Date.now();
  const load = machineLoad();
  const end = started + timeoutMs * load;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as T;
      last = value;
    } catch (err) {
      last = err instanceof Error ? `threw ${err.message}` : err;
    }
    if (Date.now() >= end) {
      const waited = `${Date.now() - started} ms (${timeoutMs} ms × load ${load.toFixed(1)})`;
      throw new Error(`timed out after ${waited} waiting for ${what} (last: ${safeJson(last)})${await windowState(what, window)}`);
    }
    await sleep(intervalMs);
  }
}

/** A screenshot of the window and its newest log lines, as text for an error (nothing without the driver). */
async function windowState(what: string, window: TestWindow): Promise<string> {
  if (!driverAvailable()) return '';
  try {
    const on = window === 'second' ? { window } : {};
    const shot = await ui({ action: 'screenshot', name: `timeout-${window}-${what.slice(0, 60)}`, ...on }, 10000);
    const logs = await ui({ action: 'logs', lines: 25, ...on }, 10000);
    const lines: string[] = logs.lines ?? [];
    return `\n    screenshot: ${shot.path ?? shot.error}\n    the ${window} window's newest log lines:\n${lines.map((l) => `      ${l}`).join('\n')}`;
  } catch (e) {
    return `\n    (no screenshot or log lines: ${e instanceof Error ? e.message : String(e)})`;
  }
}

export function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

// ---------------------------------------------------------------------------------------------
// agents' CLIs: how they reach this window's gate

/** The bridge's address and secret, as this window's terminals get them (the extension's environment collection). */
export const windowEnvironment = (): Record<string, string> =>
  Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[0].startsWith('AGENT_EDIT_GUARD_') && e[1] !== undefined),
  );

// ---------------------------------------------------------------------------------------------
// the extension and its API

export async function activateExtension(): Promise<EditGuardApi> {
  const ext = vscode.extensions.getExtension<EditGuardApi>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not installed in the test host`);
  const api = await ext.activate();
  assert.ok(api && typeof api.readMarks === 'function', 'activate() returns { readMarks, onDidChangeReadMarks }');
  return api;
}

export function api(): EditGuardApi {
  const ext = vscode.extensions.getExtension<EditGuardApi>(EXTENSION_ID);
  assert.ok(ext && ext.isActive, `extension ${EXTENSION_ID} is not active`);
  return ext.exports;
}

/** All marks (of every session) for one file, oldest first. */
export function marksFor(uri: vscode.Uri): ReadMarkInfo[] {
  return api()
    .readMarks()
    .filter((m) => sameFile(m.uri, uri))
    .sort((a, b) => a.at - b.at);
}

/** The newest mark for the file, optionally of one session only. */
export function newestMark(uri: vscode.Uri, session?: string): ReadMarkInfo | undefined {
  return marksFor(uri)
    .filter((m) => session === undefined || m.session === session)
    .at(-1);
}

function sameFile(uriString: string, uri: vscode.Uri): boolean {
  try {
    return vscode.Uri.parse(uriString).toString() === uri.toString();
  } catch {
    return false;
  }
}

export function sha256(text: string): string {
  return crypto.createHash('sha256').update(text, 'utf8').digest('hex');
}

// ---------------------------------------------------------------------------------------------
// calling the tools (plain vscode.lm.invokeTool: the "no chat" session, each call its own turn)

export function decodeResult(result: vscode.LanguageModelToolResult): ToolOutcome {
  assert.ok(result && Array.isArray(result.content), 'invokeTool returns a LanguageModelToolResult');
  const texts: string[] = [];
  let json: ToolJson | undefined;
  for (const part of result.content) {
    if (part instanceof vscode.LanguageModelTextPart) {
      texts.push(part.value);
    } else if (isJsonDataPart(part)) {
      assert.strictEqual(json, undefined, 'exactly one JSON data part');
      json = JSON.parse(new TextDecoder().decode(part.data)) as ToolJson;
    }
  }
  assert.ok(texts.length > 0, 'the result has a text part for the model');
  assert.ok(json, `the result has an application/json data part (parts: ${safeJson(result.content)})`);
  return { text: texts.join(''), json };
}

function isJsonDataPart(part: unknown): part is { mimeType: string; data: Uint8Array } {
  if (part instanceof vscode.LanguageModelDataPart) return /json/.test(part.mimeType);
  const p = part as { mimeType?: unknown; data?: unknown } | undefined;
  return !!p && typeof p.mimeType === 'string' && /json/.test(p.mimeType) && p.data instanceof Uint8Array;
}

export async function invoke(tool: ToolName, input: object): Promise<ToolOutcome> {
  const result = await vscode.lm.invokeTool(tool, { input, toolInvocationToken: undefined });
  const out = decodeResult(result);
  assert.strictEqual(out.json.tool, tool, 'json.tool names the tool');
  return out;
}

export const readFile = (filePath: string, range: { offset?: number; limit?: number } = {}) => invoke(READ, { filePath, ...range });
export const writeFile = (filePath: string, content: string, append?: boolean) =>
  invoke(WRITE, append === undefined ? { filePath, content } : { filePath, content, append });
export const replaceString = (filePath: string, oldString: string, newString: string, replaceAll?: boolean) =>
  invoke(REPLACE, replaceAll === undefined ? { filePath, oldString, newString } : { filePath, oldString, newString, replaceAll });

/** Asserts the status (and reason/code) of a result, printing the whole result when it differs. */
export function expectStatus(
  out: { json?: ToolJson; text?: string },
  status: ToolJson['status'],
  detail?: { reason?: ToolJson['reason'] | ToolJson['reason'][]; code?: string },
): ToolJson {
  const json = out.json;
  const dump = () => `\n--- json: ${safeJson(json)}\n--- text:\n${out.text}`;
  assert.ok(json, `no JSON part${dump()}`);
  assert.strictEqual(json.status, status, `expected status ${status}${dump()}`);
  if (detail?.reason !== undefined) {
    const allowed = Array.isArray(detail.reason) ? detail.reason : [detail.reason];
    assert.ok(allowed.includes(json.reason!), `expected reason ${allowed.join(' or ')}${dump()}`);
  }
  if (detail?.code !== undefined) assert.strictEqual(json.code, detail.code, `expected code ${detail.code}${dump()}`);
  assert.ok(typeof json.message === 'string' && json.message.length > 0, `json.message is a one-line summary${dump()}`);
  return json;
}

/** Parses read output: `<right-aligned number>\t<text>` lines → [number, text] pairs, in order. */
export function numberedLines(text: string): Array<[number, string]> {
  const rows: Array<[number, string]> = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(\d+)\t(.*)$/.exec(line);
    if (m) rows.push([Number(m[1]), m[2]]);
  }
  return rows;
}

/** The diff lines (`@@`, `-`, `+`) of a blocked result's text. */
export function diffLines(text: string): { hunks: string[]; removed: string[]; added: string[] } {
  const lines = text.split(/\r?\n/);
  return {
    hunks: lines.filter((l) => l.startsWith('@@')),
    removed: lines.filter((l) => l.startsWith('-') && !l.startsWith('---')).map((l) => l.slice(1)),
    added: lines.filter((l) => l.startsWith('+') && !l.startsWith('+++')).map((l) => l.slice(1)),
  };
}

// ---------------------------------------------------------------------------------------------
// files in the run's workspace

export function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test host has a workspace folder');
  return folder.uri.fsPath;
}

let counter = 0;
/** A workspace-relative path (forward slashes) no other test uses: `gen/<prefix>-<unique><ext>`. */
export function uniquePath(prefix: string, ext = '.txt'): string {
  counter += 1;
  const unique = `${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`;
  return `gen/${prefix}-${unique}${ext}`;
}

export interface TestFile {
  /** workspace-relative, forward slashes: what the agent passes as filePath */
  rel: string;
  abs: string;
  uri: vscode.Uri;
}

export function fileRef(rel: string): TestFile {
  const abs = path.join(workspaceRoot(), ...rel.split('/'));
  return { rel, abs, uri: vscode.Uri.file(abs) };
}

/** Creates a file in the run's workspace with exact content, at exactly `rel`. */
export function makeFileAt(rel: string, content: string | Buffer): TestFile {
  const f = fileRef(rel);
  fs.mkdirSync(path.dirname(f.abs), { recursive: true });
  fs.writeFileSync(f.abs, content);
  return f;
}

/** Creates a fresh file on disk (Node fs, like any other process would) with exact bytes. */
export function makeFile(prefix: string, content: string | Buffer, ext = '.txt'): TestFile {
  return makeFileAt(uniquePath(prefix, ext), content);
}

export const diskBytes = (f: TestFile): Buffer => fs.readFileSync(f.abs);
export const diskText = (f: TestFile): string => fs.readFileSync(f.abs, 'utf8');

/** Changes the file on disk behind VS Code's back and waits until VS Code's document has the new text. */
export async function changeOnDisk(f: TestFile, content: string): Promise<void> {
  fs.writeFileSync(f.abs, content);
  const loaded = vscode.workspace.textDocuments.find((d) => d.uri.toString() === f.uri.toString());
  if (loaded) {
    // a loaded document follows the disk through the file watcher: let it catch up, as it would
    // before any real agent's next call
    await waitFor(() => loaded.getText() === content, `VS Code to pick up the disk change of ${f.rel}`, 5000);
  }
}

/**
 * A file watcher on a folder that is known to be live: VS Code starts an extension's watcher
 * asynchronously, and an event before it is live is lost; a probe file written once it listens tells
 * when it does. `events` collects what it reported after that, by kind.
 */
export async function liveWatcher(folder: string): Promise<{ events: Map<string, Set<string>>; dispose(): void }> {
  const events = new Map<string, Set<string>>([
    ['create', new Set()],
    ['change', new Set()],
    ['delete', new Set()],
  ]);
  const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder), '*'));
  watcher.onDidCreate((u) => events.get('create')!.add(u.toString()));
  watcher.onDidChange((u) => events.get('change')!.add(u.toString()));
  watcher.onDidDelete((u) => events.get('delete')!.add(u.toString()));
  const probe = vscode.Uri.file(path.join(folder, `.watch-probe-${crypto.randomBytes(4).toString('hex')}`));
  try {
    await waitFor(
      () => {
        // written again until the watcher reports it: a write before it listens is not reported
        fs.writeFileSync(probe.fsPath, String(Date.now()));
        return events.get('create')!.has(probe.toString()) || events.get('change')!.has(probe.toString());
      },
      `a file watcher on ${path.basename(folder)} to be live (a folder made at once with its parents may never be watched: see makeWatchedFolder)`,
      15000,
      200,
    );
  } catch (e) {
    watcher.dispose();
    throw e;
  } finally {
    fs.rmSync(probe.fsPath, { force: true });
  }
  for (const set of events.values()) set.clear();
  return { events, dispose: () => watcher.dispose() };
}

/**
 * Another program deletes the file (a branch switch), and the test waits until VS Code's file watcher
 * has reported it — the event VS Code's own documents hear — so the next step meets the state a real
 * agent's next call would.
 */
export async function deleteOnDisk(...files: TestFile[]): Promise<void> {
  const watchers = await Promise.all([...new Set(files.map((f) => path.dirname(f.abs)))].map(liveWatcher));
  try {
    for (const f of files) fs.unlinkSync(f.abs);
    const deleted = () => new Set(watchers.flatMap((w) => [...w.events.get('delete')!]));
    await waitFor(
      () => files.every((f) => deleted().has(f.uri.toString())),
      `the file watcher to report the deletion of ${files.map((f) => f.rel).join(', ')}`,
      15000,
    );
  } finally {
    for (const w of watchers) w.dispose();
  }
}

/**
 * Makes a folder one level at a time, each level only once VS Code's watcher has reported it: a tree made
 * at once (`mkdir -p`) can be missed below its first new level by the workspace's recursive watcher, and
 * then no watcher ever reports a change in it (seen: every folder of the outcomes suite's first
 * configuration stayed silent).
 */
export async function makeWatchedFolder(folder: string): Promise<void> {
  const missing: string[] = [];
  for (let d = folder; !fs.existsSync(d); d = path.dirname(d)) missing.unshift(d);
  for (const d of missing) {
    const watcher = await liveWatcher(path.dirname(d));
    const uri = vscode.Uri.file(d);
    try {
      fs.mkdirSync(d);
      let madeAt = Date.now();
      await waitFor(
        () => {
          if (hasReported(watcher, uri)) return true;
          // made again (still empty: nothing is in it yet) until the watcher reports it: a creation it missed is
          // never reported (seen once in a clean-clone run, the first folder of a fresh host)
          if (Date.now() - madeAt > WATCHER_REMAKE_MS) {
            fs.rmdirSync(d);
            fs.mkdirSync(d);
            madeAt = Date.now();
          }
          return false;
        },
        `the file watcher to report ${path.relative(workspaceRoot(), d)}`,
        15000,
        200,
      );
    } finally {
      watcher.dispose();
    }
  }
}

/** How long a folder made for `makeWatchedFolder` waits for its report before it is made again. */
const WATCHER_REMAKE_MS = 3000;

/** Whether a live watcher (`liveWatcher`) has reported the file as made or changed. */
function hasReported(watcher: { events: Map<string, Set<string>> }, uri: vscode.Uri): boolean {
  return watcher.events.get('change')!.has(uri.toString()) || watcher.events.get('create')!.has(uri.toString());
}

/** Waits until a live watcher (`liveWatcher`) has reported the file as made or changed. */
export async function reportedBy(watcher: { events: Map<string, Set<string>> }, f: { rel: string; uri: vscode.Uri }): Promise<void> {
  await waitFor(() => hasReported(watcher, f.uri), `the file watcher to report ${f.rel}`, 15000);
}

/**
 * Waits until VS Code's file watcher has reported the file (made just before by the test): every change
 * written to a watched place before it has been reported by then too.
 */
export async function watcherHasSeen(f: TestFile): Promise<void> {
  const watcher = await liveWatcher(path.dirname(f.abs));
  try {
    // written again once the watcher listens: the file was made before it was
    fs.writeFileSync(f.abs, fs.readFileSync(f.abs));
    await reportedBy(watcher, f);
  } finally {
    watcher.dispose();
  }
}

export async function openInEditor(f: TestFile): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(f.uri);
  return vscode.window.showTextDocument(doc, { preview: false });
}

/**
 * The user's typing, unsaved: replaces `search` (first occurrence) in the open document's buffer
 * with `replacement` through `workspace.applyEdit`, exactly like an edit in the editor.
 */
export async function userEdit(doc: vscode.TextDocument, search: string, replacement: string): Promise<void> {
  const text = doc.getText();
  const at = text.indexOf(search);
  assert.ok(at >= 0, `test setup: ${JSON.stringify(search)} is in ${doc.uri.fsPath}`);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(doc.positionAt(at), doc.positionAt(at + search.length)), replacement);
  assert.ok(await vscode.workspace.applyEdit(edit), 'the user edit applies');
  assert.ok(doc.isDirty, 'the user edit leaves the document dirty');
}

export function docFor(f: TestFile): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === f.uri.toString());
}

/** Reverts every dirty document (so no save prompt or hot-exit state remains) and closes all editors. */
/**
 * Until the clean document `doc` holds what its file now holds on disk (`holds`): VS Code loads a change another program
 * made late, and now and then, for a file renamed over (`sed -i`), not at all — then the user reverts it (File: Revert
 * File, which for a clean document only loads the file), as the user would on seeing the old text.
 */
export async function loadedFromDisk(doc: vscode.TextDocument, holds: (text: string) => boolean, what: string): Promise<void> {
  try {
    await waitFor(() => holds(doc.getText()), what, 5000);
  } catch {
    assert.ok(!doc.isDirty, `${what}: the document is clean, so a revert only loads the file`);
    await vscode.window.showTextDocument(doc, { preview: false });
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await waitFor(() => holds(doc.getText()), `${what}, after File: Revert File`, 5000);
  }
}

export async function revertAndCloseAll(): Promise<void> {
  for (const doc of vscode.workspace.textDocuments) {
    if (!doc.isDirty || doc.isClosed) continue;
    try {
      await vscode.window.showTextDocument(doc, { preview: false });
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    } catch {
      // best effort: the next test uses its own files anyway
    }
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

// ---------------------------------------------------------------------------------------------
// settings (workspace scope, reset in teardown)

const changedSettings = new Map<string, { section: string; key: string }>();

/** Sets a setting in the workspace (`.vscode/settings.json` of the run's fresh workspace); undone in teardown. */
export async function setConfig(section: string, key: string, value: unknown): Promise<void> {
  changedSettings.set(`${section}.${key}`, { section, key });
  await vscode.workspace.getConfiguration(section, null).update(key, value, vscode.ConfigurationTarget.Workspace);
  await waitFor(
    () => JSON.stringify(vscode.workspace.getConfiguration(section, null).get(key)) === JSON.stringify(value),
    `setting ${section}.${key} = ${JSON.stringify(value)}`,
  );
  // (the extension host fires onDidChangeConfiguration in the same step that changes the value: its listeners have run)
}

export const setSetting = (key: 'enabled' | 'ownWriteKeepsMark' | 'maxReadLines', value: unknown) => setConfig('editGuard', key, value);

export async function resetSettings(): Promise<void> {
  for (const { section, key } of changedSettings.values()) {
    await vscode.workspace.getConfiguration(section, null).update(key, undefined, vscode.ConfigurationTarget.Workspace);
    await waitFor(
      () => vscode.workspace.getConfiguration(section, null).inspect(key)?.workspaceValue === undefined,
      `setting ${section}.${key} reset`,
    );
  }
  changedSettings.clear();
}

/** Per-test cleanup shared by every suite. */
/**
 * Claude Code's hook entries in this workspace and Copilot's hooks file at user level (which the Copilot CLI runs),
 * in place, with this window's bridge listening: the two agents that the suites of writers at once run (`on`), or out.
 */
export async function guardClaudeCodeAndCopilotCli(on: boolean): Promise<void> {
  const config = vscode.workspace.getConfiguration('editGuard', null);
  await config.update('guardClaudeCode', on ? 'workspace' : undefined, vscode.ConfigurationTarget.Workspace);
  await config.update('guardCopilotTools', on ? 'user' : undefined, vscode.ConfigurationTarget.Global);
  if (!on) return;
  await waitFor(
    () =>
      fs.existsSync(path.join(workspaceRoot(), '.claude', 'settings.local.json')) &&
      fs.existsSync(path.join(os.homedir(), '.copilot', 'hooks', 'agent-edit-guard.json')) &&
      process.env.AGENT_EDIT_GUARD_STATE,
    "Claude Code's hook entries, Copilot's hooks file and the bridge",
    10_000,
    50,
  );
}

/**
 * The user answers VS Code's save conflict ("the content of the file is newer") as its notification offers: Compare
 * (a diff of the file on disk with their buffer), then "Accept your changes" in that diff, which saves the buffer
 * over the newer file. The compare editor goes; the user's own editor of the file stays.
 */
export async function overwriteFromCompare(document: vscode.TextDocument): Promise<void> {
  const onDisk = document.uri.with({
    path: path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'editguard-conflict-')), path.basename(document.uri.path)),
  });
  fs.writeFileSync(onDisk.fsPath, fs.readFileSync(document.uri.fsPath));
  await vscode.commands.executeCommand('vscode.diff', onDisk, document.uri, 'file on disk ↔ your version');
  await vscode.commands.executeCommand('workbench.files.action.acceptLocalChanges', document.uri);
  const compares = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.original.toString() === onDisk.toString());
  if (compares.length > 0) await vscode.window.tabGroups.close(compares, true);
  fs.rmSync(path.dirname(onDisk.fsPath), { recursive: true, force: true });
}

export async function cleanUp(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  await revertAndCloseAll();
  await resetSettings();
}

// ---------------------------------------------------------------------------------------------
// diagnostics

export function guardDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === DIAGNOSTIC_SOURCE);
}

export function diagnosticCode(d: vscode.Diagnostic): string | number | undefined {
  return typeof d.code === 'object' && d.code !== null ? d.code.value : d.code;
}

// ---------------------------------------------------------------------------------------------
// the rendered page (status bar) through the Playwright driver

/** The rendered body of the Agent Edits view. */
export const AGENT_EDITS_VIEW_SELECTOR = '.pane:has(.pane-header[aria-label^="Agent Edits"]) .pane-body';

/** The rendered DOM id of our status bar item: `<extension id>.<item id>`. */
export const STATUS_ITEM_SELECTOR = '.part.statusbar [id="editguard.agent-edit-guard.editGuard.readMarks"]';

/** The rendered text of our status bar item (the $(shield) codicon renders as an icon, not text). */
export async function statusBarText(): Promise<string> {
  const answer = (await ui({ action: 'text', selector: STATUS_ITEM_SELECTOR, timeout: 2000 })) as { text?: string; error?: string };
  if (answer?.error) throw new Error(`UI driver: ${answer.error}`);
  return answer?.text ?? '';
}

/**
 * The rendered tooltip of our status bar item, hovered as a mouse does it (the workbench shows an
 * item's hover on mouseover, after a delay): its text, or '' when no hover showed within 2 s.
 */
export async function statusBarTooltip(): Promise<string> {
  const pointer = (types: string[]) =>
    `(() => { const el = document.querySelector(${JSON.stringify(STATUS_ITEM_SELECTOR)}); const target = el && (el.querySelector('a') || el); if (!target) return false; for (const type of ${JSON.stringify(types)}) target.dispatchEvent(new MouseEvent(type, { bubbles: true })); return true; })()`;
  // away first: a hover still open from an earlier look would show the tooltip it was opened with
  await ui({ action: 'eval', js: pointer(['mouseout', 'mouseleave']) });
  const over = (await ui({ action: 'eval', js: pointer(['mouseenter', 'mouseover']) })) as { value?: boolean; error?: string };
  if (!over?.value) throw new Error(`UI driver: no status bar item to hover (${safeJson(over)})`);
  const answer = (await ui({ action: 'text', selector: '.workbench-hover, .monaco-hover', timeout: 2000 })) as { text?: string };
  return (answer?.text ?? '').replace(/\u00a0/g, ' ');
}

// ---------------------------------------------------------------------------------------------
// real chat turns through the test-only @scripted participant

export interface ScriptedCall {
  tool: ToolName;
  input: Record<string, unknown>;
}

export interface ScriptedResult {
  tool: string;
  input: unknown;
  text: string;
  json?: ToolJson;
  error?: string;
}

export interface ScriptedRequest {
  prompt: string;
  id: string;
  token: unknown;
  results: ScriptedResult[];
  done?: unknown;
  error?: string;
}

function scriptedRequests(): ScriptedRequest[] {
  const ext = vscode.extensions.getExtension<{ requests: ScriptedRequest[] }>(SCRIPTED_AGENT_ID);
  assert.ok(ext, `test-only extension ${SCRIPTED_AGENT_ID} is installed in the test host`);
  assert.ok(ext.isActive && ext.exports && Array.isArray(ext.exports.requests), `${SCRIPTED_AGENT_ID} exports { requests }`);
  return ext.exports.requests;
}

/**
 * The extension hosts whose @scripted takes requests now: each writes a file when it can
 * (test/scripted-agent/extension.js `announceReady`). A window the test opens itself is ready when a
 * host not in `known` shows up: typed before then, "@scripted …" would reach the chat setup instead.
 */
export function scriptedAgentHosts(): Set<string> {
  const dir = process.env.EDITGUARD_ACK_DIR;
  if (!dir) return new Set();
  return new Set(fs.readdirSync(dir).filter((f) => f.startsWith('scripted-agent-ready-')));
}

/** Waits until an extension host not in `known` (another window's, or a reloaded one's) has @scripted ready; returns it. */
export async function scriptedAgentReadyIn(known: ReadonlySet<string>, window: TestWindow, what: string): Promise<string> {
  return waitFor(() => [...scriptedAgentHosts()].find((h) => !known.has(h)), `@scripted ready in ${what}`, 120000, 250, window);
}

export async function activateScriptedAgent(): Promise<void> {
  const ext = vscode.extensions.getExtension(SCRIPTED_AGENT_ID);
  assert.ok(ext, `test-only extension ${SCRIPTED_AGENT_ID} is installed in the test host`);
  await ext.activate();
}

/** Starts a new chat session in the chat view. */
export async function newChat(): Promise<void> {
  // the command resolves once the new session is the widget's: VS Code's own chat actions send their query right after it
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
}

/**
 * One real chat turn: `@scripted {calls}` submitted in the chat view; the participant calls the tools
 * with the request's real toolInvocationToken and (unless ids: false) chatRequestId = request.id.
 * Resolves with the participant's record of the request once it is done.
 */
export async function chatTurn(calls: ScriptedCall[], options: { ids?: boolean; parallel?: boolean } = {}): Promise<ScriptedRequest> {
  await activateScriptedAgent();
  const before = scriptedRequests().length;
  const script: Record<string, unknown> = { calls };
  if (options.ids === false) script.ids = false;
  if (options.parallel) script.parallel = true;
  await vscode.commands.executeCommand('workbench.action.chat.open', {
    query: '@scripted ' + JSON.stringify(script),
    blockOnResponse: true,
    modelSelector: { vendor: FAKE_MODEL_VENDOR },
  });
  const request = await waitFor(
    () => {
      const all = scriptedRequests();
      const last = all.at(-1);
      return all.length > before && last && last.done ? last : undefined;
    },
    'the @scripted chat turn to finish',
    20000,
  );
  assert.ok(!request.error, `@scripted could not run the script: ${request.error}`);
  assert.strictEqual(request.results.length, calls.length, `every scripted call ran: ${safeJson(request.results)}`);
  request.results.forEach((r, i) => {
    assert.ok(!r.error, `call ${i} (${r.tool}) did not throw: ${r.error}`);
    assert.ok(r.json, `call ${i} (${r.tool}) returned a JSON part: ${safeJson(r)}`);
  });
  return request;
}

export const call = {
  read: (filePath: string, range: { offset?: number; limit?: number } = {}): ScriptedCall => ({
    tool: READ,
    input: { filePath, ...range },
  }),
  write: (filePath: string, content: string, append?: boolean): ScriptedCall => ({
    tool: WRITE,
    input: append === undefined ? { filePath, content } : { filePath, content, append },
  }),
  replace: (filePath: string, oldString: string, newString: string): ScriptedCall => ({
    tool: REPLACE,
    input: { filePath, oldString, newString },
  }),
};

/** A small source file the chat and Copilot scenarios (and their screenshots) edit. */
export const GREETING_TS = [
  'export interface Greeting {',
  '  name: string;',
  '  punctuation: string;',
  '}',
  '',
  'export function greet(g: Greeting): string {',
  '  return `Hello, ${g.name}${g.punctuation}`;',
  '}',
  '',
].join('\n');

/** The text of a notification that contains `words`: a toast, or (once toasts hid themselves) the notification centre's item. */
export async function notification(words: string): Promise<string> {
  const item = `.notification-list-item:has-text(${JSON.stringify(words)}) >> visible=true`;
  const shown = async () => (await ui({ action: 'count', selector: item })).count > 0;
  await waitFor(shown, `a notification "${words}"`, 5000, 200).catch(async () => {
    await vscode.commands.executeCommand('notifications.showList');
    await waitFor(shown, `"${words}" in the notification centre`, 10000, 200);
  });
  return (await ui({ action: 'text', selector: item })).text as string;
}
