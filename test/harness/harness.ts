// Helpers of the harness suite: real chat turns of the Copilot harness (VS Code's Agent Host, the Copilot
// runtime that writes the disk itself), answered by the scripted model of test/harness/node (reached through
// its control API, $EDITGUARD_HARNESS_MODEL_URL); files; the test-only recording tool. Hook files whose commands
// record what they got are hookRecorder.ts's. Everything here drives the real VS Code and the real runtime: no mocks.
//
// A turn, from a test:
//   const turn = await harnessTurn('view then edit', [view(f.abs), edit(f.abs, 'hello', 'HELLO'), say('done')]);
// Step i answers the model request that asks for the turn's i-th answer; a step may be a function of that
// request (what the model just received), run while the turn waits, e.g. to type in an editor first.
import * as assert from 'assert';
import * as http from 'http';
import * as vscode from 'vscode';
import { fileRef, safeJson, sleep, type TestFile, waitFor, workspaceRoot } from '../integration/helpers';
import {
  Answer,
  CONTROL,
  HARNESS_VENDOR,
  ModelId,
  ModelRequest,
  MODEL_URL_ENV,
  MODELS,
  tagged,
  ToolResultSeen,
  TrafficRecord,
} from './node/protocol';

export { MODEL_URL_ENV, MODELS, safeJson, sleep, waitFor, workspaceRoot };
export type { ModelRequest, ToolResultSeen };
export { denyOutput, HookRecorder } from './hookRecorder';
export type { HookEntry, HookEvent, HookRecord, HookRule } from './hookRecorder';

// ---------------------------------------------------------------------------------------------
// the model's answers

/** One answer of the scripted model, or a function of the request that computes it. */
export type Step = Answer | ((request: ModelRequest) => Answer | Promise<Answer>);

/** The runtime's file tools, by the names it offers them under (absolute paths, as its own prompt asks). */
export const view = (file: string): Answer => ({ tool: 'view', input: { path: file } });
export const edit = (file: string, oldStr: string, newStr: string): Answer => ({
  tool: 'edit',
  input: { path: file, old_str: oldStr, new_str: newStr },
});
export const create = (file: string, text: string): Answer => ({ tool: 'create', input: { path: file, file_text: text } });
/** The codex model's freeform tool: the patch is the whole input. */
export const applyPatch = (patch: string): Answer => ({ tool: 'apply_patch', input: patch });
export const say = (text: string): Answer => ({ text });

// ---------------------------------------------------------------------------------------------
// the scripted model's control API

function controlUrl(): string {
  const url = process.env[MODEL_URL_ENV];
  assert.ok(url, `${MODEL_URL_ENV} is set: the harness suite runs under scripts/host/run-harness.sh`);
  return url;
}

interface Reply {
  status: number;
  body: string;
}

/** One request to the control API; `cancel` drops it (a long poll the test no longer needs). */
function control(method: 'GET' | 'POST', pathAndQuery: string, body?: unknown): { reply: Promise<Reply>; cancel(): void } {
  let req: http.ClientRequest | undefined;
  const reply = new Promise<Reply>((resolve, reject) => {
    req = http.request(controlUrl() + pathAndQuery, { method, headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
  return { reply, cancel: () => req?.destroy() };
}

async function controlJson<T>(method: 'GET' | 'POST', pathAndQuery: string, body?: unknown): Promise<T> {
  const { status, body: text } = await control(method, pathAndQuery, body).reply;
  assert.strictEqual(status, 200, `${method} ${pathAndQuery}: ${text}`);
  return JSON.parse(text) as T;
}

/** Every inference request the runtime sent for turn `tag` (all of them without a tag), oldest first. */
export const modelRequests = (tag?: string) =>
  controlJson<ModelRequest[]>('GET', CONTROL.requests + (tag ? `?tag=${encodeURIComponent(tag)}` : ''));

/** Every request that went through the proxy: which hosts and paths the runtime called. */
export const proxyTraffic = () => controlJson<TrafficRecord[]>('GET', CONTROL.traffic);

// ---------------------------------------------------------------------------------------------
// chats and turns

export interface Turn {
  tag: string;
  /** what workbench.action.chat.open answered once the turn was done */
  response: unknown;
  /** the turn's model requests, oldest first, with what each was answered */
  requests: ModelRequest[];
  /** the tool results the model received in the turn (those of its last request) */
  results: ToolResultSeen[];
}

/**
 * A new chat in the chat view. With `chat.defaultToCopilotHarness` (test/harness/user-settings.json) a new
 * chat is a Copilot harness session; its first turn starts the runtime's session.
 */
export async function newHarnessChat(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
}

let turns = 0;
// every test file is bundled with its own copy of this module: the tags of different files must differ too
const fileMark = Math.random().toString(36).slice(2, 6);

/**
 * One real turn of the Copilot harness in the current chat: the prompt goes to the chat view with the
 * scripted model selected (`model`: MODELS.standard, or MODELS.codex for `apply_patch`); each model request
 * of the turn is answered by the next step. Resolves once the chat says the turn is done
 * (`blockOnResponse`) and the model has given its last answer; fails after `limitMs`.
 */
export async function harnessTurn(
  name: string,
  steps: Step[],
  options: { prompt?: string; model?: ModelId; limitMs?: number } = {},
): Promise<Turn> {
  const tag = `${name.replace(/[^\w.-]+/g, '-').slice(0, 40)}-${fileMark}${++turns}`;
  const limitMs = options.limitMs ?? 120_000;
  const started = Date.now();
  const end = started + limitMs;
  const problems: string[] = [];
  // always name the model: a chat keeps the one picked last, and the harness's list starts with "Auto", which the suite does not serve
  const modelSelector = { vendor: HARNESS_VENDOR, id: options.model ?? MODELS.standard };
  // the chat knows the harness's models a moment after the window opens: chat.open with a model and no query
  // selects it, or fails at once (sending nothing) while the model is not listed yet
  await waitFor(
    () => Promise.resolve(vscode.commands.executeCommand('workbench.action.chat.open', { modelSelector })).then(() => true),
    `the chat to list the harness model ${modelSelector.id}`,
    60_000,
    250,
  );
  const chatDone = Promise.resolve(
    vscode.commands.executeCommand('workbench.action.chat.open', {
      query: tagged(tag, options.prompt ?? 'Do the scripted task.'),
      blockOnResponse: true,
      modelSelector,
    }),
  ).then(
    (response) => ({ response }),
    (err: unknown) => ({ response: undefined, error: err }),
  );
  let finalAnswered = false;
  let outcome: { response: unknown; error?: unknown } | undefined;
  // serve the turn's model requests until the chat says the turn is over and the model said its last word
  while (!(outcome && finalAnswered)) {
    if (Date.now() > end) {
      throw new Error(
        `the harness turn [[harness:${tag}]] did not finish within ${limitMs} ms (chat answered: ${outcome ? 'yes' : 'no'}; last answer given: ${finalAnswered})`,
      );
    }
    const poll = control('GET', `${CONTROL.next}?tag=${encodeURIComponent(tag)}&waitMs=3000`);
    const first = await Promise.race([outcome ? new Promise<never>(() => undefined) : chatDone, poll.reply]);
    if (!('status' in first)) {
      poll.cancel();
      poll.reply.catch(() => undefined);
      outcome = first;
      // a turn that failed before the model was asked (or after a request nobody will answer) is over too
      if (!finalAnswered && (await modelRequests(tag)).every((r) => r.answer)) finalAnswered = true;
      continue;
    }
    if (first.status === 204) continue;
    assert.strictEqual(first.status, 200, `the scripted model's control API: ${first.body}`);
    const request = JSON.parse(first.body) as ModelRequest;
    const step = steps[request.step];
    let answer: Answer;
    if (step === undefined) {
      problems.push(`the turn asked for answer ${request.step + 1}, the script has ${steps.length}`);
      answer = say(`(the script of [[harness:${tag}]] has no step ${request.step})`);
    } else if (typeof step === 'function') {
      try {
        answer = await step(request);
      } catch (err) {
        problems.push(`step ${request.step} threw: ${String((err as Error)?.stack ?? err)}`);
        answer = say(`(step ${request.step} of the script failed)`);
      }
    } else answer = step;
    await controlJson('POST', CONTROL.answer, { n: request.n, answer });
    if ('text' in answer) finalAnswered = true;
  }
  const requests = await modelRequests(tag);
  // one line per turn in the run's output: where a slow run spends its time
  console.log(
    `[harness] turn [[harness:${tag}]]: ${requests.length} model request(s); first after ${requests.length ? requests[0].at - started : '-'} ms, done after ${Date.now() - started} ms`,
  );
  if (outcome.error) throw new Error(`workbench.action.chat.open failed for [[harness:${tag}]]: ${String(outcome.error)}`);
  assert.deepStrictEqual(problems, [], `the script of [[harness:${tag}]]`);
  assert.ok(
    requests.length > 0,
    `the harness sent the scripted model no request for [[harness:${tag}]]; chat.open answered ${safeJson(outcome.response)}`,
  );
  return { tag, response: outcome.response, requests, results: requests.at(-1)?.toolResults ?? [] };
}

/** Rejects when `promise` has not settled within `ms`, saying what it waited for. */
async function within<T>(promise: Thenable<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      Promise.resolve(promise),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `/compact` in the current chat: the Agent Host hands it to the runtime, which compacts the history. The
 * runtime's summary request carries no tag, so the scripted model answers it at once. Resolves with what
 * workbench.action.chat.open answered.
 */
export function compactChat(limitMs = 60_000): Promise<unknown> {
  return within(
    vscode.commands.executeCommand('workbench.action.chat.open', { query: '/compact', blockOnResponse: true }),
    limitMs,
    '/compact',
  );
}

/** The latest tool result of a request (what the model just received). */
export function lastResult(request: ModelRequest): ToolResultSeen {
  const r = request.toolResults.at(-1);
  assert.ok(r, `request ${request.n} of [[harness:${request.tag}]] carries a tool result`);
  return r;
}

// ---------------------------------------------------------------------------------------------
// files

export { fileRef, type TestFile };

export { diskText, makeFileAt } from '../integration/helpers';

// ---------------------------------------------------------------------------------------------
// the test-only recording tool (test/harness/tool-recorder)

export const TOOL_RECORDER_ID = 'editguard-test.harness-tool-recorder';
export const ECHO_TOOL = 'editguardHarness_echo';

/** One call of the echo tool: the option keys VS Code passed, their values as plain data (Uris as strings). */
export interface ToolCallRecord {
  at: number;
  optionKeys: string[];
  options: Record<string, unknown>;
  model?: { id: string; vendor: string; family: string };
  hasTokenizationOptions: boolean;
}

export async function echoToolCalls(): Promise<ToolCallRecord[]> {
  const ext = vscode.extensions.getExtension<{ calls: ToolCallRecord[] }>(TOOL_RECORDER_ID);
  assert.ok(ext, `test-only extension ${TOOL_RECORDER_ID} is installed in the test host`);
  return (await ext.activate()).calls;
}
