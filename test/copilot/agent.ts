// Helpers of the Copilot suite: starts the built-in GitHub Copilot Chat, runs real agent-mode turns against
// the scripted fake model (test/copilot/fake-model), and reads what Copilot sent that model.
// Everything here drives the real VS Code and the real Copilot agent loop: no mocks.
import type { ReadMarkInfo } from '../../src/api';
import {
  docFor,
  EXTENSION_ID,
  READ,
  REPLACE,
  revertAndCloseAll,
  safeJson,
  sleep,
  userEdit,
  waitFor,
  watcherHasSeen,
  liveWatcher,
  makeWatchedFolder,
  reportedBy,
  WRITE,
  workspaceRoot,
  type TestFile,
} from '../integration/helpers';
import { driverAvailable, ui } from '../integration/ui';
import * as vscode from 'vscode';
import * as assert from 'assert';

export const COPILOT_ID = 'GitHub.copilot-chat';
export const FAKE_MODEL_ID = 'editguard-test.copilot-fake-model';
export const FAKE_VENDOR = 'editguard-fake';
/** our custom agent (agents/guarded.agent.md), as chat.open's `mode` names it */
export const GUARDED_AGENT = 'Guarded';
/** the fake model most tests use (test/copilot/fake-model) */
export const FAKE_MODEL = 'copilot-fake';

// the integration suite's names and waiting helpers, shared
export { EXTENSION_ID, liveWatcher, makeWatchedFolder, READ, REPLACE, reportedBy, safeJson, sleep, waitFor, watcherHasSeen, WRITE };

// ---------------------------------------------------------------------------------------------
// what the fake model records (test/copilot/fake-model/extension.js)

export type Part =
  | { type: 'text'; text: string }
  | { type: 'toolCall'; callId: string; name: string; input: unknown }
  | { type: 'toolResult'; callId: string; isError?: boolean; content: Part[] }
  | { type: 'data'; mimeType: string; data?: string }
  | { type: 'other'; kind?: string; json?: string };

export interface ToolResultSeen {
  callId: string;
  name?: string;
  input?: Record<string, unknown>;
  /** the text the model received for this tool call */
  text: string;
  content: Part[];
}

export interface ModelRequest {
  n: number;
  at: number;
  model: string;
  tag?: string;
  step: number;
  tools: Array<{ name: string; description: string; inputSchema?: unknown }>;
  toolMode?: number;
  messages: Array<{ role: string; name?: string; parts: Part[] }>;
  toolResults: ToolResultSeen[];
  answer?: unknown;
  stepError?: string;
}

export type Step =
  | { tool: string; input: Record<string, unknown> }
  | { calls: Array<{ tool: string; input: Record<string, unknown> }> }
  | { text: string }
  | ((request: ModelRequest) => Step | Promise<Step>);

interface FakeModel {
  UNTAGGED: string;
  /** models whose names make Copilot offer other edit tools (sonnet: replace_string_in_file…, gpt: apply_patch), and one with a small context */
  MODELS: { sonnet: string; gpt: string; small: string };
  requests: ModelRequest[];
  script(tag: string, steps: Step[]): void;
  clear(): void;
}

export function fakeModel(): FakeModel {
  const ext = vscode.extensions.getExtension<FakeModel>(FAKE_MODEL_ID);
  assert.ok(ext, `test-only extension ${FAKE_MODEL_ID} is installed in the test host`);
  assert.ok(
    ext.isActive && ext.exports && Array.isArray(ext.exports.requests),
    `${FAKE_MODEL_ID} is active and exports { requests, script }`,
  );
  return ext.exports;
}

/** The latest tool result of the request's turn (what the model just received). */
export function lastResult(req: ModelRequest): ToolResultSeen {
  const r = req.toolResults.at(-1);
  assert.ok(r, `request ${req.n} of [[${req.tag}]] carries a tool result`);
  return r;
}

// ---------------------------------------------------------------------------------------------
// Copilot

/**
 * On a fresh profile the workbench disables the built-in Copilot Chat (chat setup not completed);
 * "Manage Language Models" (workbench.action.chat.manage) re-enables and starts it. It opens the
 * models editor: close it.
 */
export async function enableCopilot(): Promise<void> {
  const fake = vscode.extensions.getExtension(FAKE_MODEL_ID);
  assert.ok(fake, `test-only extension ${FAKE_MODEL_ID} is installed`);
  await fake.activate();
  if (!vscode.extensions.getExtension(COPILOT_ID)) await vscode.commands.executeCommand('workbench.action.chat.manage');
  const copilot = await waitFor(() => vscode.extensions.getExtension(COPILOT_ID), 'GitHub Copilot Chat to be enabled', 30000);
  await copilot.activate();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors'); // the models editor
  await waitFor(
    async () => (await vscode.lm.selectChatModels({ vendor: FAKE_VENDOR })).length > 0,
    'the fake model to be registered',
    10000,
  );
}

/** A suite's start: Copilot running with the fake model, our extension active, no editor open. */
export async function startCopilotSuite(): Promise<void> {
  await enableCopilot();
  await activateGuard();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

let tagCounter = 0;
export interface Turn {
  tag: string;
  /** what workbench.action.chat.open answered (the chat response, when blockOnResponse is set) */
  response: unknown;
  /** every model request of this turn, in order */
  requests: ModelRequest[];
}

/**
 * One real Copilot agent-mode turn: the query goes to the chat view in agent mode with the fake model
 * selected; Copilot's agent loop asks the model, runs the tool calls it answers with, passes the results
 * back, until the model answers with text. `steps` are the model's answers, one per model request.
 */
export async function agentTurn(
  name: string,
  steps: Step[],
  prompt = 'Do the scripted task.',
  options: { untagged?: boolean; model?: string; mode?: string } = {},
): Promise<Turn> {
  const fake = fakeModel();
  // the tag in the query picks the script; an untagged turn (nicer in a screenshot) uses the untagged script
  const tag = options.untagged ? fake.UNTAGGED : `${name}-${++tagCounter}`;
  fake.script(tag, steps);
  const before = fake.requests.length;
  const response = await Promise.race([
    vscode.commands.executeCommand('workbench.action.chat.open', {
      query: options.untagged ? prompt : `[[${tag}]] ${prompt}`,
      // 'agent', or a custom agent by name (GUARDED_AGENT)
      mode: options.mode ?? 'agent',
      blockOnResponse: true,
      // always name the model: the chat keeps the last one picked, and the suites use several
      modelSelector: { vendor: FAKE_VENDOR, id: options.model ?? FAKE_MODEL },
    }),
    sleep(120000).then(() => {
      throw new Error(`the Copilot turn [[${tag}]] did not finish within 120 s`);
    }),
  ]);
  const requests = fake.requests.slice(before).filter((r) => r.tag === tag);
  const errors = requests.filter((r) => r.stepError).map((r) => `step ${r.step}: ${r.stepError}`);
  assert.deepStrictEqual(errors, [], `a scripted step of [[${tag}]] failed`);
  assert.ok(requests.length > 0, `Copilot sent the fake model no request for [[${tag}]]; chat.open answered ${safeJson(response)}`);
  return { tag, response, requests };
}

/** A turn that stopped on a call waiting for the user's Allow (chat.open's answer then). */
export const waitsForTheUser = (response: unknown) => (response as { type?: string } | undefined)?.type === 'confirmation';

/**
 * The user clicks Allow on each call that asks, until the turn's script has answered its last request. Copilot's
 * run_in_terminal asks before a command that writes a file ("Run bash command? … File write operations detected"),
 * though the suites' settings turn `chat.tools.global.autoApprove` on; once allowed, it runs the command in a
 * terminal of the window. A step of the script that failed meanwhile fails the turn, as agentTurn fails the ones before.
 */
export async function allowUntil(ended: () => boolean, tag: string): Promise<void> {
  const errors = () =>
    fakeModel()
      .requests.filter((r) => r.tag === tag && r.stepError)
      .map((r) => `step ${r.step}: ${r.stepError}`);
  const end = Date.now() + 120_000;
  while (!ended() && errors().length === 0) {
    if (Date.now() > end) throw new Error(`the Copilot turn [[${tag}]] did not end within 120 s of the user's Allow`);
    await vscode.commands.executeCommand('workbench.action.chat.acceptTool');
    await sleep(200);
  }
  assert.deepStrictEqual(errors(), [], `a scripted step of [[${tag}]] failed`);
}

/** Starts a new chat session in the chat view. */
export async function newChat(): Promise<void> {
  // the command resolves once the new session is the widget's: VS Code's own chat actions send their query right after it
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
}

/** The tool results the model received in this turn, in order (from its last request). */
export function resultsOf(turn: Turn): ToolResultSeen[] {
  const last = turn.requests.at(-1);
  assert.ok(last);
  return last.toolResults;
}

// ---------------------------------------------------------------------------------------------
// our extension

export async function activateGuard(): Promise<{ readMarks(): ReadMarkInfo[] }> {
  const ext = vscode.extensions.getExtension<{ readMarks(): ReadMarkInfo[] }>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is the extension under development`);
  return ext.activate();
}

export async function marksFor(uri: vscode.Uri): Promise<ReadMarkInfo[]> {
  const api = await activateGuard();
  return api
    .readMarks()
    .filter((m) => vscode.Uri.parse(m.uri).toString() === uri.toString())
    .sort((a, b) => a.at - b.at);
}

// ---------------------------------------------------------------------------------------------
// files (the shared helpers of the integration suite: workspaceRoot, docFor, userEdit, revertAndCloseAll; the driver's ui)

export { docFor, driverAvailable, revertAndCloseAll, ui, userEdit, workspaceRoot };

export type { TestFile };

export { diskText, makeFileAt } from '../integration/helpers';
