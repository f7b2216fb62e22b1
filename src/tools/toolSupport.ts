// What the three tools share: turning a call into a `CallContext`, validating input into clear
// errors, and turning the core's outcome into a `LanguageModelToolResult`.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { PathSettings } from '../config';
import { CancelledError, type CallContext, type Guard, type Logger } from '../core/guard';
import { type FileFacts, policeToolPath, type WorkspaceFolderInfo } from '../core/paths';
import type { ErrorCode, ResultData, ToolName, ToolOutcome } from '../core/types';
import { MAX_DOCUMENT_BYTES } from '../core/documents';
import { sessionKeyOf, turnOf } from './session';

export interface ToolEnvironment {
  guard: Guard;
  log: Logger;
  pathSettings(): PathSettings;
  /** A tool ran for this chat, in this turn: the status bar follows the latest chat. */
  onActivity(session: string, turn?: string): void;
}

export function workspaceFolders(): WorkspaceFolderInfo[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => ({ name: f.name, fsPath: f.uri.fsPath }));
}

/** Input validation result: the value, or a message naming the problem in words a model can act on. */
export type Checked<T> = { ok: true; value: T } | { ok: false; message: string; code?: ErrorCode };

export const fail = (message: string, code?: ErrorCode): Checked<never> => ({ ok: false, message, code });

/** Names models often use instead of ours (Copilot's own tools, other agents' tools). */
const LOOKALIKES: Record<string, string[]> = {
  filePath: ['path', 'file_path', 'filepath', 'file', 'filename', 'fileName', 'uri'],
  content: ['contents', 'text', 'data', 'new_content', 'newContent', 'file_text', 'code'],
  oldString: ['old_string', 'oldStr', 'old_str', 'old', 'search', 'find', 'oldText'],
  newString: ['new_string', 'newStr', 'new_str', 'new', 'replace', 'replacement', 'newText'],
};

function lookalikeHint(input: Record<string, unknown>, key: string): string {
  const used = (LOOKALIKES[key] ?? []).find((k) => k in input);
  return used ? ` You passed "${used}": this tool calls it "${key}".` : '';
}

export function optionalInteger(input: Record<string, unknown>, key: string, min: number): Checked<number | undefined> {
  const v = input[key];
  if (v === undefined || v === null) return { ok: true, value: undefined };
  if (typeof v !== 'number' || !Number.isInteger(v)) return fail(`${key} must be a whole number, got ${JSON.stringify(v)}.`);
  if (v < min) return fail(`${key} must be at least ${min}, got ${v}.`);
  return { ok: true, value: v };
}

export function optionalBoolean(input: Record<string, unknown>, key: string): Checked<boolean> {
  const v = input[key];
  if (v === undefined || v === null) return { ok: true, value: false };
  if (typeof v !== 'boolean') return fail(`${key} must be true or false, got ${JSON.stringify(v)}.`);
  return { ok: true, value: v };
}

export function requiredString(input: Record<string, unknown>, key: string): Checked<string> {
  const v = input[key];
  if (v === undefined || v === null) return fail(`${key} is missing. It is required.${lookalikeHint(input, key)}`);
  if (typeof v !== 'string') return fail(`${key} must be a string, got ${typeof v === 'object' ? 'an object' : JSON.stringify(v)}.`);
  if (v.length > MAX_DOCUMENT_BYTES) return fail(`${key} is ${v.length} characters long; the most a document can hold here is 50 MiB.`, 'too-large');
  return { ok: true, value: v };
}

export type ResolvedCallPath =
  | {
      ok: true;
      /** The path as given (not canonicalised): the file the tools open and the user sees. */
      fsPath: string;
      /** Where the path really leads, every symbolic link resolved. */
      realPath: string;
      display: string;
      protectedBy: string | undefined;
      /** Set when only the real target matched `protectedBy`: the target, as shown. */
      protectedTarget: string | undefined;
    }
  | { ok: false; code: ErrorCode; message: string };

/** The file system's answers to the path policy's questions, asked fresh on every call. */
const diskFacts: FileFacts = {
  exists: (p) => {
    try {
      fs.lstatSync(p); // lstat: a dangling link is something too
      return true;
    } catch {
      return false;
    }
  },
  realpath: (p) => {
    try {
      return fs.realpathSync.native(p);
    } catch {
      return undefined;
    }
  },
  readlink: (p) => {
    try {
      return fs.readlinkSync(p);
    } catch {
      return undefined;
    }
  },
};

/** Resolves and polices a call's `filePath` (DESIGN path policy; no side effects). */
export function resolveCallPath(input: Record<string, unknown>, tool: ToolName, settings: PathSettings): ResolvedCallPath {
  if (input.filePath === undefined && lookalikeHint(input, 'filePath')) {
    return { ok: false, code: 'invalid-input', message: `filePath is missing. It is required.${lookalikeHint(input, 'filePath')}` };
  }
  const policed = policeToolPath(input.filePath, {
    folders: workspaceFolders(),
    allowOutsideWorkspace: settings.allowOutsideWorkspace,
    writes: tool !== 'editGuard_readFile',
    facts: diskFacts,
    protectedFiles: (fsPath) => settings.protectedFiles(fsPath),
  });
  if (!policed.ok) return policed;
  const { fsPath, realPath, display, protectedBy, protectedTarget } = policed;
  return { ok: true, fsPath, realPath, display, protectedBy, protectedTarget };
}

/** `prepareInvocation` for all three tools: the progress message, and the user's say for protected files. */
export function prepare(tool: ToolName, input: unknown, settings: PathSettings, message: (path: string) => string): vscode.PreparedToolInvocation {
  const record = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const resolved = resolveCallPath(record, tool, settings);
  const path = resolved.ok ? resolved.display : typeof record.filePath === 'string' ? record.filePath : '?';
  const prepared: vscode.PreparedToolInvocation = { invocationMessage: new vscode.MarkdownString(message(path)) };
  if (resolved.ok && resolved.protectedBy) {
    const reading = tool === 'editGuard_readFile';
    prepared.confirmationMessages = {
      title: reading ? 'Let the agent read a protected file?' : 'Let the agent change a protected file?',
      message: new vscode.MarkdownString(
        `The agent wants to ${reading ? 'read' : 'change'} \`${path}\`. ${
          resolved.protectedTarget === undefined ? 'It matches' : `It leads through a symbolic link to \`${resolved.protectedTarget}\`, which matches`
        } the protected pattern \`${resolved.protectedBy}\` (\`editGuard.protectedFiles\`): such files often hold secrets or tool settings.`,
      ),
    };
  }
  return prepared;
}

export function toResult(outcome: ToolOutcome): vscode.LanguageModelToolResult {
  // a lead (a refusal's headline) goes in a part of its own: Copilot swaps each part over 8 KB for a
  // pointer to a file, and the model must see "BLOCKED" whatever happens to the rest
  const texts = outcome.lead && outcome.text.startsWith(outcome.lead) ? [outcome.lead, outcome.text.slice(outcome.lead.length)] : [outcome.text];
  return new vscode.LanguageModelToolResult([...texts.map((t) => new vscode.LanguageModelTextPart(t)), vscode.LanguageModelDataPart.json(outcome.data)]);
}

function errorOutcome(tool: ToolName, path: string, code: ErrorCode, message: string): ToolOutcome {
  const data: ResultData = { status: 'error', tool, path, code, message };
  return { text: `ERROR (${code}): ${message}`, data };
}

/**
 * Runs one tool call: resolves the chat, the turn and the path, validates input, runs `body`
 * against the core. Never throws for bad input or a blocked write; only cancellation throws.
 */
export async function runTool<T>(
  env: ToolEnvironment,
  tool: ToolName,
  options: vscode.LanguageModelToolInvocationOptions<unknown>,
  token: vscode.CancellationToken,
  validate: (input: Record<string, unknown>) => Checked<T>,
  body: (call: CallContext, value: T) => Promise<ToolOutcome>,
): Promise<vscode.LanguageModelToolResult> {
  // taken first: marks stamped by calls that run while this one waits do not count for it (rule 9)
  const arrival = env.guard.store.watermark;
  const session = sessionKeyOf(options.toolInvocationToken);
  const turn = turnOf(options);
  env.onActivity(session, turn);
  const input = options.input;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return toResult(errorOutcome(tool, '', 'invalid-input', `The input must be a JSON object with the fields of ${tool}, got ${JSON.stringify(input)}.`));
  }
  const record = input as Record<string, unknown>;
  const rawPath = typeof record.filePath === 'string' ? record.filePath : '';
  const resolved = resolveCallPath(record, tool, env.pathSettings());
  if (!resolved.ok) return toResult(errorOutcome(tool, rawPath, resolved.code, resolved.message));
  const checked = validate(record);
  if (!checked.ok) return toResult(errorOutcome(tool, resolved.display, checked.code ?? 'invalid-input', checked.message));
  if (tool !== 'editGuard_readFile' && !vscode.workspace.isTrusted) {
    return toResult(errorOutcome(tool, resolved.display, 'untrusted', 'This workspace is not trusted, so agent writes are refused. Reading still works. The user can trust the workspace with the command "Workspaces: Manage Workspace Trust".'));
  }
  if (token.isCancellationRequested) throw new vscode.CancellationError();

  const call: CallContext = {
    tool,
    session,
    turn,
    uri: vscode.Uri.file(resolved.fsPath).toString(),
    path: resolved.display,
    arrival,
    isCancelled: () => token.isCancellationRequested,
  };
  try {
    return toResult(await body(call, checked.value));
  } catch (e) {
    if (e instanceof CancelledError || e instanceof vscode.CancellationError) throw new vscode.CancellationError();
    env.log.error(e instanceof Error ? e : String(e));
    return toResult(errorOutcome(tool, resolved.display, 'internal', `An internal error stopped the call (${e instanceof Error ? e.message : String(e)}). It is in the "Agent Edit Guard" log. Read the file again before changing it.`));
  }
}
