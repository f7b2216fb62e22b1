// What the three tools share: turning a call into a `CallContext`, validating input into clear
// errors, and turning the core's outcome into a `LanguageModelToolResult`.
import * as vscode from 'vscode';
import { CancelledError, type CallContext, type Guard, type Logger } from '../core/guard';
import { resolveToolPath, type WorkspaceFolderInfo } from '../core/paths';
import type { ErrorCode, ResultData, ToolName, ToolOutcome } from '../core/types';
import { sessionKeyOf, turnOf } from './session';

export interface ToolEnvironment {
  guard: Guard;
  log: Logger;
  allowOutsideWorkspace(): boolean;
  /** A tool ran for this chat: the status bar follows the latest one. */
  onActivity(session: string): void;
}

export function workspaceFolders(): WorkspaceFolderInfo[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => ({ name: f.name, fsPath: f.uri.fsPath }));
}

/** Input validation result: the value, or a message naming the problem in words a model can act on. */
export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

export const fail = (message: string): Checked<never> => ({ ok: false, message });

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
  if (v === undefined || v === null) return fail(`${key} is missing. It is required.`);
  if (typeof v !== 'string') return fail(`${key} must be a string, got ${typeof v === 'object' ? 'an object' : JSON.stringify(v)}.`);
  return { ok: true, value: v };
}

/** The path shown in `prepareInvocation` messages (no side effects). */
export function displayPathOf(input: unknown): string {
  const filePath = (input as { filePath?: unknown } | undefined)?.filePath;
  const resolved = resolveToolPath(filePath, workspaceFolders(), true);
  return resolved.ok ? resolved.display : String(filePath ?? '?');
}

export function toResult(outcome: ToolOutcome): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([
    new vscode.LanguageModelTextPart(outcome.text),
    vscode.LanguageModelDataPart.json(outcome.data),
  ]);
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
  env.onActivity(session);
  const input = options.input;
  const rawPath = typeof (input as { filePath?: unknown })?.filePath === 'string' ? (input as { filePath: string }).filePath : '';
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return toResult(errorOutcome(tool, rawPath, 'invalid-input', 'The input must be a JSON object with the fields of this tool.'));
  }
  const resolved = resolveToolPath((input as Record<string, unknown>).filePath, workspaceFolders(), env.allowOutsideWorkspace());
  if (!resolved.ok) return toResult(errorOutcome(tool, rawPath, resolved.code, resolved.message));
  const checked = validate(input as Record<string, unknown>);
  if (!checked.ok) return toResult(errorOutcome(tool, resolved.display, 'invalid-input', checked.message));
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
    return toResult(errorOutcome(tool, resolved.display, 'internal', `An internal error stopped the call; nothing was changed by it. (${e instanceof Error ? e.message : String(e)})`));
  }
}
