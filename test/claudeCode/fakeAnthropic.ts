// A scripted fake of the Anthropic Messages API for driving the real Claude Code CLI headless and offline
// (test/claudeCode/claudeCli.ts starts the CLI with ANTHROPIC_BASE_URL pointing here). Same idea as the Copilot
// suite's fake model (test/copilot/fake-model/extension.js): the test sets a script, each model request of a
// turn is answered by the next step, and every request is recorded in full so a test can assert on exactly
// what Claude Code sent the model (the tools it offered, the tool results it passed back).
//
// What the CLI calls (measured with Claude Code 2.1.332, see FACTS.md): `POST /v1/messages?beta=true` with
// `stream: true`, answered as server-sent events (message_start, content_block_start / _delta / _stop,
// message_delta with the stop reason, message_stop). A non-streaming request (none seen so far) gets the same
// message as one JSON body; `POST /v1/messages/count_tokens` gets an estimate; anything else is recorded
// and answered 404 in the API's error shape.
//
// Steps (one per model request of a turn, counted from the turn's prompt):
//   { tool, input, id? }          one tool_use block (stop_reason tool_use)
//   { calls: [{ tool, input, id? }, …] }   several tool_use blocks in one answer
//   { text }                      a final text (stop_reason end_turn); `text` may sit beside `tool`/`calls`
//   (request) => step             computed when the request arrives (may be async): the test can look at the
//                                 tool result the CLI just sent, or change a file on disk, before answering
// A request past the script's end gets a final text saying so. Compaction (the CLI's "create a detailed
// summary" request, e.g. for `/compact`) is answered with an <analysis>/<summary> text and does not use a
// step; requests that offer no tools get a short text. Only Node's own modules.
// The step count comes from the history (assistant messages since the last user message that is not a
// tool result), so each `claude -p` prompt, resumed or not, starts at step 0. A compaction inside a turn
// (automatic compaction) starts the count again, as the history then begins with the summary: a test that
// needs it should answer from the request (a step function) rather than by position.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A content block as the Messages API carries it (only the fields this fake reads are typed). */
export interface ContentBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: Record<string, unknown>;
  tool_use_id?: string;
  content?: string | ContentBlock[];
  is_error?: boolean;
  [key: string]: unknown;
}

export interface Message {
  role: 'user' | 'assistant' | 'system';
  content: string | ContentBlock[];
}

/** One tool_result block the CLI sent, with the tool_use it answers. */
export interface ToolResultSeen {
  toolUseId: string;
  /** the tool the matching tool_use block named (undefined if that block is no longer in the history) */
  name?: string;
  input?: Record<string, unknown>;
  /** the result's text as the model reads it (text blocks joined) */
  text: string;
  isError: boolean;
  content: string | ContentBlock[];
}

export type ToolCall = { tool: string; input: Record<string, unknown>; id?: string };
export type StepAnswer = (ToolCall & { text?: string }) | { calls: ToolCall[]; text?: string } | { text: string };
export type Step = StepAnswer | ((request: RecordedRequest) => StepAnswer | Promise<StepAnswer>);

export type RequestKind =
  /** a model request of a scripted turn */
  | 'turn'
  /** the CLI's conversation summary (`/compact`, or automatic compaction) */
  | 'compaction'
  /** a model request that offers no tools (a title, a side question) */
  | 'side'
  | 'count_tokens'
  | 'other';

export interface RecordedRequest {
  /** 1-based, in arrival order */
  n: number;
  at: number;
  method: string;
  /** the path with its query, e.g. /v1/messages?beta=true */
  url: string;
  headers: http.IncomingHttpHeaders;
  kind: RequestKind;
  /** the parsed JSON body (undefined for a body that is not JSON) */
  body?: Record<string, unknown>;
  model?: string;
  stream: boolean;
  system?: unknown;
  messages: Message[];
  /** the tools the request offered the model: name, description, input_schema */
  tools: Array<{ name: string; description?: string; input_schema?: unknown }>;
  /** which step of the turn answers this request: assistant messages since the turn's prompt */
  step: number;
  /** the text of the turn's prompt (the last user message that carries no tool_result) */
  prompt?: string;
  /** the tool results of this turn, oldest first */
  toolResults: ToolResultSeen[];
  /** what the fake answered (a step, or the text it made up) */
  answer?: StepAnswer;
  /** set when a step function threw: the answer is then a text saying so */
  stepError?: string;
}

export interface FakeAnthropic {
  /** the base URL for ANTHROPIC_BASE_URL, e.g. http://127.0.0.1:40123 */
  url: string;
  /** every request, oldest first */
  requests: RecordedRequest[];
  /** the steps that answer each turn's model requests from now on (each turn starts again at step 0) */
  script(steps: Step[]): void;
  /** the model requests of scripted turns only */
  turns(): RecordedRequest[];
  /** forgets the records (not the script) */
  clear(): void;
  close(): Promise<void>;
}

/** The text of a message's or a tool result's content: a string as is, text blocks joined. */
export function textOf(content: string | ContentBlock[] | undefined): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('');
}

const blocks = (m: Message): ContentBlock[] => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content);

/** Claude Code's summary request: the last user message asks for a summary in <summary> tags. */
const COMPACTION = /Your task is to create a detailed summary of the conversation so far/;

/** The summary this fake gives for a compaction request (the CLI retries once when <summary> is missing). */
export const COMPACTION_SUMMARY =
  '<analysis>Scripted fake.</analysis>\n<summary>The scripted task is in progress; earlier file reads are no longer in context.</summary>';

/** Reads a request into a record: turn start, step number, tool results. */
function record(n: number, req: http.IncomingMessage, raw: string): RecordedRequest {
  let body: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
  } catch {}
  const url = req.url ?? '';
  const messages = Array.isArray(body?.messages) ? (body.messages as Message[]) : [];
  const tools = Array.isArray(body?.tools) ? (body.tools as RecordedRequest['tools']) : [];
  // the turn starts at the last user message that is a prompt, not a tool result
  let start = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user' && !blocks(m).some((b) => b.type === 'tool_result')) start = i;
  });
  const later = messages.slice(start + 1);
  const calls = new Map<string, ContentBlock>();
  for (const m of messages) for (const b of blocks(m)) if (b.type === 'tool_use' && b.id) calls.set(b.id, b);
  const toolResults: ToolResultSeen[] = [];
  for (const m of later) {
    for (const b of blocks(m)) {
      if (b.type !== 'tool_result') continue;
      const call = calls.get(String(b.tool_use_id));
      toolResults.push({
        toolUseId: String(b.tool_use_id),
        name: call?.name,
        input: call?.input,
        text: textOf(b.content),
        isError: b.is_error === true,
        content: b.content ?? '',
      });
    }
  }
  const lastUser = messages.filter((m) => m.role === 'user').at(-1);
  const path = url.split('?')[0];
  let kind: RequestKind = 'other';
  if (path === '/v1/messages/count_tokens') kind = 'count_tokens';
  else if (path === '/v1/messages') {
    if (lastUser && COMPACTION.test(textOf(blocks(lastUser)))) kind = 'compaction';
    else kind = tools.length > 0 ? 'turn' : 'side';
  }
  return {
    n,
    at: Date.now(),
    method: req.method ?? '',
    url,
    headers: req.headers,
    kind,
    body,
    model: typeof body?.model === 'string' ? body.model : undefined,
    stream: body?.stream === true,
    system: body?.system,
    messages,
    tools,
    step: later.filter((m) => m.role === 'assistant').length,
    prompt: start >= 0 ? textOf(blocks(messages[start])) : undefined,
    toolResults,
  };
}

/** The assistant message for an answer: its content blocks and stop reason. */
function messageFor(rec: RecordedRequest, answer: StepAnswer): { content: ContentBlock[]; stopReason: 'tool_use' | 'end_turn' } {
  const calls = 'calls' in answer ? answer.calls : 'tool' in answer ? [answer] : [];
  const content: ContentBlock[] = [];
  if (answer.text) content.push({ type: 'text', text: answer.text });
  calls.forEach((c, i) => content.push({ type: 'tool_use', id: c.id ?? `toolu_fake_${rec.n}_${i}`, name: c.tool, input: c.input }));
  return { content, stopReason: calls.length > 0 ? 'tool_use' : 'end_turn' };
}

/** A rough token count (4 characters a token), enough for the CLI's context bookkeeping. */
const tokens = (value: unknown) => Math.max(1, Math.ceil(JSON.stringify(value ?? '').length / 4));

function sendMessage(res: http.ServerResponse, rec: RecordedRequest, answer: StepAnswer): void {
  const { content, stopReason } = messageFor(rec, answer);
  const id = `msg_fake_${rec.n}`;
  const model = rec.model ?? 'fake-model';
  const usage = {
    input_tokens: tokens(rec.messages),
    output_tokens: tokens(content),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  if (!rec.stream) {
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_fake_${rec.n}` });
    res.end(
      JSON.stringify({ id, type: 'message', role: 'assistant', model, content, stop_reason: stopReason, stop_sequence: null, usage }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_fake_${rec.n}` });
  const event = (type: string, data: Record<string, unknown>) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  event('message_start', {
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  content.forEach((block, index) => {
    if (block.type === 'text') {
      event('content_block_start', { index, content_block: { type: 'text', text: '' } });
      event('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else {
      event('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    event('content_block_stop', { index });
  });
  event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  event('message_stop', {});
  res.end();
}

/** Starts the fake on 127.0.0.1 (a free port). */
export async function startFakeAnthropic(): Promise<FakeAnthropic> {
  const requests: RecordedRequest[] = [];
  let steps: Step[] = [];

  async function answerFor(rec: RecordedRequest): Promise<StepAnswer> {
    if (rec.kind === 'compaction') return { text: COMPACTION_SUMMARY };
    if (rec.kind === 'side') return { text: 'Scripted fake: a side request.' };
    let step = steps[rec.step];
    if (typeof step === 'function') {
      try {
        step = await step(rec);
      } catch (e) {
        rec.stepError = String((e instanceof Error && e.stack) || e);
        return { text: `Scripted fake: step ${rec.step} threw: ${rec.stepError}` };
      }
    }
    return step ?? { text: `Scripted fake: the script has no step ${rec.step}; done.` };
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec = record(requests.length + 1, req, Buffer.concat(chunks).toString('utf8'));
      requests.push(rec);
      if (rec.kind === 'count_tokens') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: tokens([rec.system, rec.messages, rec.tools]) }));
        return;
      }
      if (rec.kind === 'other') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `scripted fake: no ${rec.method} ${rec.url}` } }),
        );
        return;
      }
      answerFor(rec).then(
        (answer) => {
          rec.answer = answer;
          sendMessage(res, rec, answer);
        },
        (e: unknown) => {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(e) } }));
        },
      );
    });
  });
  // the CLI keeps its connections alive; close() must not wait for them
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(next) {
      steps = next;
    },
    turns: () => requests.filter((r) => r.kind === 'turn'),
    clear() {
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
