// One call of our tools, from VS Code's invocation to the core and back: the chat and turn, the
// path, the input checked against the tool's schema, workspace trust, then the core's outcome as a
// `LanguageModelToolResult`. Never throws for bad input or a blocked write; only cancellation throws.
import * as vscode from 'vscode';
import type { PathSettings } from '../config';
import type { ExpectedCalls } from '../chat/expectedCalls';
import { type ChatSessions, turnOf } from '../chat/session';
import type { GuardedTools } from '../core/guardedTools';
import { CALL, errorText } from '../core/messages';
import { CancelledError, type CallContext, type Logger } from '../core/ports';
import { OWN_TOOL_VERB, TOOL_IDS, type OwnToolId } from '../core/toolIds';
import type { ErrorCode, ResultData, ToolOutcome } from '../core/types';
import { resolveCallPath } from './callPath';
import { checkInput } from './input';

export interface ToolEnvironment {
  tools: GuardedTools;
  sessions: ChatSessions;
  /** the calls another agent's hook announced with the chat and turn they are of (the Copilot harness's) */
  expected?: ExpectedCalls;
  log: Logger;
  pathSettings(): PathSettings;
  /** A tool ran for this chat, in this turn: the status bar follows the latest chat. */
  onActivity(session: string, turn?: string): void;
}

export function toResult(outcome: ToolOutcome): vscode.LanguageModelToolResult {
  // a lead (a refusal's headline) goes in a part of its own: Copilot swaps each part over 8 KB for a
  // pointer to a file, and the model must see "BLOCKED" whatever happens to the rest
  const texts =
    outcome.lead && outcome.text.startsWith(outcome.lead) ? [outcome.lead, outcome.text.slice(outcome.lead.length)] : [outcome.text];
  const result = new vscode.LanguageModelToolResult([
    ...texts.map((t) => new vscode.LanguageModelTextPart(t)),
    vscode.LanguageModelDataPart.json(outcome.data),
  ]);
  // Without details the chat builds an input/output section from the parts and shows the JSON part
  // under every call as an attachment named file.bin. Details of our own replace that section: the
  // file the call read or was refused/allowed to change, as a link (docs/design.md §Surfaces).
  // `toolResultDetails` is read by VS Code without a proposal check, but only proposed API types it.
  const details = detailsOf(outcome.data);
  if (details) Object.assign(result, { toolResultDetails: details });
  return result;
}

/**
 * What the chat shows under a call of ours that went through: the file it read or wrote, as a link —
 * to the lines a ranged read showed or a change covers, when that is not the whole file — instead
 * of VS Code's input/output section, whose JSON part it shows as a `file.bin` attachment under
 * every call. A refusal or an error keeps that section (undefined here): its text is what the user
 * wants to see there, and VS Code offers no other way to show it (docs/design.md §Surfaces). Never
 * shown to the model.
 */
export function detailsOf(data: ResultData): Array<vscode.Uri | vscode.Location> | undefined {
  if (data.status !== 'ok') return undefined;
  if (!data.uri) return [];
  const uri = vscode.Uri.parse(data.uri);
  const { startLine, endLine, totalLines } = data;
  const ranged =
    startLine !== undefined && endLine !== undefined && !(startLine === 1 && endLine === totalLines)
      ? { start: startLine, end: endLine }
      : undefined;
  const lines = data.changedLines ?? ranged;
  if (!lines) return [uri];
  return [new vscode.Location(uri, new vscode.Range(lines.start - 1, 0, Math.max(lines.start, lines.end) - 1, 0))];
}

function errorResult(tool: OwnToolId, path: string, code: ErrorCode, message: string): vscode.LanguageModelToolResult {
  const data: ResultData = { status: 'error', tool, path, code, message };
  return toResult({ text: errorText(code, message), data });
}

export async function runTool<T>(
  env: ToolEnvironment,
  tool: OwnToolId,
  options: vscode.LanguageModelToolInvocationOptions<unknown>,
  token: vscode.CancellationToken,
  body: (call: CallContext, input: T) => Promise<ToolOutcome>,
): Promise<vscode.LanguageModelToolResult> {
  // taken first: marks stamped by calls that run while this one waits do not count for it (rule 9)
  const arrival = env.tools.arrival();
  // a call the harness made comes with no chat the extension host can name: its hook said which
  const announced = env.expected?.take(tool, options.input);
  const session = announced?.session ?? env.sessions.keyOf(options.toolInvocationToken);
  const turn = announced ? announced.turn : turnOf(options);
  env.onActivity(session, turn);
  const input = options.input;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return errorResult(tool, '', 'invalid-input', CALL.notAnObject(tool, input));
  }
  const record = input as Record<string, unknown>;
  const rawPath = typeof record.filePath === 'string' ? record.filePath : '';
  const resolved = resolveCallPath(record, tool, env.pathSettings());
  if (!resolved.ok) return errorResult(tool, rawPath, resolved.code, resolved.message);
  const checked = checkInput<T>(tool, record);
  if (!checked.ok) return errorResult(tool, resolved.display, checked.code ?? 'invalid-input', checked.message);
  if (tool !== TOOL_IDS.read && !vscode.workspace.isTrusted) return errorResult(tool, resolved.display, 'untrusted', CALL.untrusted);
  if (token.isCancellationRequested) throw new vscode.CancellationError();

  const call: CallContext = {
    tool,
    verb: OWN_TOOL_VERB[tool],
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
    return errorResult(tool, resolved.display, 'internal', CALL.internal(e instanceof Error ? e.message : String(e)));
  }
}
