// Helpers of the reliability suites (docs/reliability.md): exact before/after state of a file (disk bytes,
// buffer text, dirty flag), raw tool calls with any input (not only objects) and a cancellation
// token, what a chat was shown (reconstructed from numbered output or a refusal's diff), and the
// extension's own log file. Real VS Code API only.
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { applyPatch } from 'diff';
import { decodeResult, docFor, sha256, type TestFile, type ToolName, type ToolOutcome } from './helpers';

export interface FileState {
  exists: boolean;
  bytes?: Buffer;
  /** the open document's text and dirty flag, if VS Code holds the file */
  text?: string;
  dirty?: boolean;
}

export function stateOf(f: TestFile): FileState {
  const exists = fs.existsSync(f.abs);
  const doc = docFor(f);
  return {
    exists,
    bytes: exists && fs.statSync(f.abs).isFile() ? fs.readFileSync(f.abs) : undefined,
    text: doc && !doc.isClosed ? doc.getText() : undefined,
    dirty: doc && !doc.isClosed ? doc.isDirty : undefined,
  };
}

/** Disk bytes, buffer text and dirty flag are exactly as before. */
export function assertUnchanged(f: TestFile, before: FileState, what: string): void {
  const now = stateOf(f);
  assert.strictEqual(now.exists, before.exists, `${what}: the file's existence changed`);
  if (before.bytes)
    assert.ok(
      now.bytes && now.bytes.equals(before.bytes),
      `${what}: the bytes on disk changed (${JSON.stringify(now.bytes?.toString('utf8').slice(0, 200))})`,
    );
  if (before.text !== undefined) {
    assert.strictEqual(now.text, before.text, `${what}: the buffer text changed`);
    assert.strictEqual(now.dirty, before.dirty, `${what}: the dirty flag changed`);
  }
}

/** `vscode.lm.invokeTool` with any input at all (a model may send anything), decoded. */
export async function invokeRaw(tool: ToolName, input: unknown, token?: vscode.CancellationToken): Promise<ToolOutcome> {
  const result = await vscode.lm.invokeTool(tool, { input: input as object, toolInvocationToken: undefined }, token);
  return decodeResult(result);
}

const NUMBERED = /^\s*(\d+)\t(.*)$/;

/** Both line-ending forms of each text: a document holds one line ending, which numbered lines and diffs do not show. */
export const eitherEol = (texts: readonly string[]): string[] => [
  ...new Set(texts.flatMap((t) => [t.replace(/\r\n/g, '\n'), t.replace(/\r?\n/g, '\r\n')])),
];

/** The text a numbered rendering stands for (with and without a final line break, of either kind); undefined if none. */
export function textsFromNumbered(output: string): string[] | undefined {
  const rows = output
    .split(/\r?\n/)
    .filter((l) => NUMBERED.test(l))
    .map((l) => NUMBERED.exec(l)![2]);
  if (rows.length === 0) return / is empty\./.test(output) ? [''] : undefined;
  const body = rows.join('\n');
  return eitherEol([body, `${body}\n`]);
}

/** A refusal's unified diff applied to each text the chat saw before; undefined if it has no diff. */
export function textsFromDiff(output: string, previous: readonly string[]): string[] | undefined {
  const m = /```+diff\r?\n([\s\S]*?)\r?\n```+/.exec(output);
  if (!m) return undefined;
  const out = new Set<string>();
  for (const before of previous) {
    const after = applyPatch(before, m[1]);
    if (typeof after === 'string') out.add(after);
  }
  return eitherEol([...out]);
}

/** What a result showed the agent of the file's whole text: numbered content, or a diff on what it saw before. */
export function shownTexts(output: string, previous: readonly string[] = []): string[] | undefined {
  return textsFromNumbered(output) ?? textsFromDiff(output, previous);
}

export const hashesOf = (texts: readonly string[] | undefined) => new Set((texts ?? []).map(sha256));

// ---------------------------------------------------------------------------------------------
// the extension's log ("Agent Edit Guard", a LogOutputChannel)

/**
 * The log file of the "Agent Edit Guard" channel of THIS window. The offline host runs with HOME = the
 * run folder and `--user-data-dir <run>/user-data`; each extension host logs to
 * `user-data/logs/<time>/exthost<N>/editguard.agent-edit-guard/Agent Edit Guard.log`. A test that opens a
 * second window (agentEdits.test.ts) adds another exthost folder, so the newest file is not always ours:
 * ours is the one beside the `remoteexthost.log` that names this process's pid.
 */
export function guardLogFile(): string | undefined {
  const roots = [process.env.HOME, process.env.VSCODE_LOGS, process.env.VSCODE_LOG_PATH].filter((r): r is string => !!r);
  const files = logFilesNamed('Agent Edit Guard.log', roots);
  const started = `Extension host with pid ${process.pid} started`;
  const ours = files.find((f) => {
    try {
      return fs.readFileSync(path.join(path.dirname(path.dirname(f)), 'remoteexthost.log'), 'utf8').includes(started);
    } catch {
      return false;
    }
  });
  // (under @vscode/test-electron the host's own log has another name: the newest file is the only one)
  return ours ?? files.sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
}

/** The run's files of this name under the roots (its logs folder lies a few levels down), skipping the big folders that hold none. */
export function logFilesNamed(name: string, roots: string[], maxDepth = 7): string[] {
  const found: string[] = [];
  const skip = new Set(['ws', 'extensions', 'node_modules', 'tmp', 'xdg-cache', 'acks', 'shots', 'transcripts', 'chatSessions']);
  const walk = (dir: string, depth: number) => {
    if (depth > maxDepth) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isFile() && e.name === name) found.push(p);
      else if (e.isDirectory() && !skip.has(e.name)) walk(p, depth + 1);
    }
  };
  for (const root of roots) walk(root, 0);
  return found;
}
