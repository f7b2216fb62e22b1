// The scripted model of the harness suite: an OpenAI-compatible inference endpoint (Chat Completions and
// Responses, streamed or not) whose answers the TEST gives, request by request, while the turn runs.
//
// The Copilot runtime's inference requests reach it through the proxy (proxy.ts: POST /chat/completions and
// /responses of the Copilot API). Each request is recorded in full and normalised (protocol.ts ModelRequest:
// the tools offered, the messages, this turn's tool results). A request of a scripted turn — its last user
// message carries `[[harness:<tag>]]` — is HELD until the test answers it through the control API
// (protocol.ts CONTROL): the test (test/harness/harness.ts `harnessTurn`) long-polls for the turn's next
// request and answers with tool calls or a text, so a step can look at what the model just received or act
// in the editor before it answers. Requests of no scripted turn (the runtime's summary for /compact ends with
// its own user message), and tagged ones that offer no tools (a side request), get a short text at once.
import type * as http from 'node:http';
import { ANSWER_TIMEOUT_MS, Answer, CONTROL, ModelRequest, OfferedTool, SeenMessage, tagOf, ToolCall, ToolResultSeen } from './protocol';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The text of a message content or a tool output: a string as is, text parts joined. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (typeof p === 'string' ? p : isObject(p) ? str(p.text) : '')).join('');
}

function parseArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

/** Adds an assistant part to the conversation: consecutive assistant items are one answer of the model. */
function pushAssistant(messages: SeenMessage[], text: string, calls: SeenMessage['calls'] = []): void {
  const last = messages.at(-1);
  if (last?.role === 'assistant') {
    last.text += text;
    last.calls = [...(last.calls ?? []), ...calls];
  } else messages.push({ role: 'assistant', text, ...(calls.length > 0 && { calls }) });
}

/** A Chat Completions body as the same normalised view as a Responses one. */
function readChat(body: Json): { system: string; tools: OfferedTool[]; messages: SeenMessage[] } {
  const messages: SeenMessage[] = [];
  const system: string[] = [];
  for (const m of Array.isArray(body.messages) ? body.messages : []) {
    if (!isObject(m)) continue;
    const role = str(m.role);
    if (role === 'system' || role === 'developer') system.push(textOf(m.content));
    if (role === 'tool') messages.push({ role: 'tool', text: textOf(m.content), callId: str(m.tool_call_id) });
    else if (role === 'assistant') {
      const calls = (Array.isArray(m.tool_calls) ? m.tool_calls : []).filter(isObject).map((c) => {
        const fn = isObject(c.function) ? c.function : isObject(c.custom) ? c.custom : {};
        return { id: str(c.id), name: str(fn.name), input: 'arguments' in fn ? parseArguments(fn.arguments) : fn.input };
      });
      pushAssistant(messages, textOf(m.content), calls);
    } else messages.push({ role, text: textOf(m.content) });
  }
  const tools = (Array.isArray(body.tools) ? body.tools : []).filter(isObject).map((t): OfferedTool => {
    const def = isObject(t.function) ? t.function : isObject(t.custom) ? t.custom : t;
    return { name: str(def.name), type: str(t.type), description: str(def.description), parameters: def.parameters, format: def.format };
  });
  return { system: system.join('\n'), tools, messages };
}

/** A Responses body: `instructions`, and `input` items (messages, calls, call outputs, reasoning). */
function readResponses(body: Json): { system: string; tools: OfferedTool[]; messages: SeenMessage[] } {
  const messages: SeenMessage[] = [];
  const input = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : body.input;
  for (const item of Array.isArray(input) ? input : []) {
    if (!isObject(item)) continue;
    switch (item.type) {
      case 'function_call':
        pushAssistant(messages, '', [{ id: str(item.call_id), name: str(item.name), input: parseArguments(item.arguments) }]);
        break;
      case 'custom_tool_call':
        pushAssistant(messages, '', [{ id: str(item.call_id), name: str(item.name), input: item.input }]);
        break;
      case 'function_call_output':
      case 'custom_tool_call_output':
        messages.push({ role: 'tool', text: textOf(item.output), callId: str(item.call_id) });
        break;
      case 'reasoning':
        pushAssistant(messages, '');
        break;
      default:
        if (item.role === 'assistant') pushAssistant(messages, textOf(item.content));
        else if (typeof item.role === 'string') messages.push({ role: item.role, text: textOf(item.content) });
    }
  }
  const tools = (Array.isArray(body.tools) ? body.tools : []).filter(isObject).map((t): OfferedTool => ({
    name: str(t.name),
    type: str(t.type),
    description: str(t.description),
    parameters: t.parameters,
    format: t.format,
  }));
  return { system: str(body.instructions), tools, messages };
}

/** Records one inference request: the normalised conversation, its turn's tag and step, this turn's tool results. */
export function recordRequest(n: number, path: string, headers: http.IncomingHttpHeaders, raw: string): ModelRequest {
  let body: Json = {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isObject(parsed)) body = parsed;
  } catch {}
  const api = /\/responses$/.test(path) ? 'responses' : 'chat';
  const { system, tools, messages } = api === 'chat' ? readChat(body) : readResponses(body);
  // a scripted turn's requests end with its tagged prompt, or with tool results after it: a later user message
  // without a tag (the runtime's summary request for a compaction, say) starts a request of no scripted turn
  let start = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user') start = i;
  });
  if (start >= 0 && !tagOf(messages[start].text)) start = -1;
  const later = start >= 0 ? messages.slice(start + 1) : [];
  const calls = new Map<string, { name: string; input: unknown }>();
  for (const m of messages) for (const c of m.calls ?? []) calls.set(c.id, c);
  const toolResults: ToolResultSeen[] = later
    .filter((m) => m.role === 'tool')
    .map((m) => ({ callId: m.callId ?? '', name: calls.get(m.callId ?? '')?.name, input: calls.get(m.callId ?? '')?.input, text: m.text }));
  const { authorization: _secret, ...shown } = headers;
  return {
    n,
    at: Date.now(),
    api,
    path,
    model: typeof body.model === 'string' ? body.model : undefined,
    stream: body.stream === true,
    tag: start >= 0 ? tagOf(messages[start].text) : undefined,
    step: later.filter((m) => m.role === 'assistant').length,
    prompt: start >= 0 ? messages[start].text : undefined,
    system,
    tools,
    messages,
    toolResults,
    headers: shown,
    body,
  };
}

const callsOf = (answer: Answer): ToolCall[] => ('calls' in answer ? answer.calls : 'tool' in answer ? [answer] : []);
/** A rough token count (4 characters a token), for the usage the runtime keeps its context by. */
const tokens = (value: unknown) => Math.max(1, Math.ceil(JSON.stringify(value ?? '').length / 4));

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `harness-${Date.now()}` });
  res.end(JSON.stringify(body));
}

function startEvents(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-request-id': `harness-${Date.now()}` });
}

/** The answer as a Chat Completions response: one choice, with a text or tool calls. */
function sendChat(res: http.ServerResponse, rec: ModelRequest, answer: Answer): void {
  const id = `chatcmpl-harness-${rec.n}`;
  const created = Math.floor(Date.now() / 1000);
  const model = rec.model ?? 'harness';
  const text = 'text' in answer ? answer.text : null;
  const toolCalls = callsOf(answer).map((c, i) =>
    typeof c.input === 'string'
      ? { id: `call_${rec.n}_${i}`, type: 'custom', custom: { name: c.tool, input: c.input } }
      : { id: `call_${rec.n}_${i}`, type: 'function', function: { name: c.tool, arguments: JSON.stringify(c.input) } },
  );
  const finish = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: tokens(rec.body), completion_tokens: tokens(answer), total_tokens: tokens(rec.body) + tokens(answer) };
  if (!rec.stream) {
    const message = { role: 'assistant', content: text, ...(toolCalls.length > 0 && { tool_calls: toolCalls }) };
    sendJson(res, 200, { id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finish }], usage });
    return;
  }
  startEvents(res);
  const chunk = (delta: Json, finishReason: string | null, extra: Json = {}) =>
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`,
    );
  chunk({ role: 'assistant', content: text ?? '' }, null);
  toolCalls.forEach((call, index) => chunk({ tool_calls: [{ index, ...call }] }, null));
  chunk({}, finish, { usage });
  res.end('data: [DONE]\n\n');
}

/** The answer as a Responses response: a message item, or one call item per tool call (custom for a string input). */
function sendResponses(res: http.ServerResponse, rec: ModelRequest, answer: Answer): void {
  const output: Json[] =
    'text' in answer
      ? [
          {
            type: 'message',
            id: `msg_harness_${rec.n}`,
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: answer.text, annotations: [] }],
          },
        ]
      : callsOf(answer).map((c, i) =>
          typeof c.input === 'string'
            ? { type: 'custom_tool_call', id: `ctc_harness_${rec.n}_${i}`, call_id: `call_${rec.n}_${i}`, name: c.tool, input: c.input }
            : {
                type: 'function_call',
                id: `fc_harness_${rec.n}_${i}`,
                call_id: `call_${rec.n}_${i}`,
                name: c.tool,
                arguments: JSON.stringify(c.input),
                status: 'completed',
              },
        );
  const usage = {
    input_tokens: tokens(rec.body),
    output_tokens: tokens(answer),
    total_tokens: tokens(rec.body) + tokens(answer),
    input_tokens_details: { cached_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  };
  const response = {
    id: `resp_harness_${rec.n}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    model: rec.model ?? 'harness',
    status: 'completed',
    output,
    usage,
  };
  if (!rec.stream) {
    sendJson(res, 200, response);
    return;
  }
  startEvents(res);
  let sequence = 0;
  const event = (type: string, data: Json) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
  event('response.created', { response: { ...response, status: 'in_progress', output: [], usage: null } });
  event('response.in_progress', { response: { ...response, status: 'in_progress', output: [], usage: null } });
  output.forEach((item, output_index) => {
    const item_id = item.id;
    if (item.type === 'message') {
      const text = answer && 'text' in answer ? answer.text : '';
      event('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
      event('response.content_part.added', {
        item_id,
        output_index,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
      event('response.output_text.delta', { item_id, output_index, content_index: 0, delta: text });
      event('response.output_text.done', { item_id, output_index, content_index: 0, text });
      event('response.content_part.done', { item_id, output_index, content_index: 0, part: (item.content as Json[])[0] });
    } else if (item.type === 'function_call') {
      event('response.output_item.added', { output_index, item: { ...item, arguments: '', status: 'in_progress' } });
      event('response.function_call_arguments.delta', { item_id, output_index, delta: item.arguments });
      event('response.function_call_arguments.done', { item_id, output_index, arguments: item.arguments });
    } else {
      event('response.output_item.added', { output_index, item: { ...item, input: '' } });
      event('response.custom_tool_call_input.delta', { item_id, output_index, delta: item.input });
      event('response.custom_tool_call_input.done', { item_id, output_index, input: item.input });
    }
    event('response.output_item.done', { output_index, item });
  });
  event('response.completed', { response });
  res.end();
}

interface Held {
  rec: ModelRequest;
  answer(answer: Answer): void;
}

export class ScriptedModel {
  /** every inference request, oldest first */
  readonly requests: ModelRequest[] = [];
  private held: Held[] = [];
  private waiting: Array<{ tag: string; take(h: Held | undefined): void }> = [];

  /** `onRecord` hears each request when it arrives and again once it is answered (the run's log). */
  constructor(private readonly onRecord: (rec: ModelRequest) => void = () => undefined) {}

  /** An inference request (POST …/chat/completions or …/responses) with its body read. */
  inference(req: http.IncomingMessage, res: http.ServerResponse, raw: string): void {
    const path = (req.url ?? '').split('?')[0];
    const rec = recordRequest(this.requests.length + 1, path, req.headers, raw);
    this.requests.push(rec);
    this.onRecord(rec);
    const send = (a: Answer) => {
      rec.answer = a;
      this.onRecord(rec);
      if (rec.api === 'chat') sendChat(res, rec, a);
      else sendResponses(res, rec, a);
    };
    if (!rec.tag || rec.tools.length === 0) {
      send({ text: rec.tag ? 'Scripted harness model: a side request.' : 'Scripted harness model: no scripted turn.' });
      return;
    }
    let done = false;
    const timer = setTimeout(
      () =>
        answer({
          text: `Scripted harness model: nobody answered request ${rec.n} of [[harness:${rec.tag}]] within ${ANSWER_TIMEOUT_MS} ms.`,
        }),
      ANSWER_TIMEOUT_MS,
    );
    const answer = (a: Answer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      this.held = this.held.filter((h) => h.rec !== rec);
      send(a);
    };
    // the runtime gave up on the request (a cancelled turn): nothing to answer
    res.on('close', () => {
      if (!done) {
        done = true;
        clearTimeout(timer);
        this.held = this.held.filter((h) => h.rec !== rec);
      }
    });
    const held = { rec, answer };
    const waiter = this.waiting.find((w) => w.tag === rec.tag);
    this.held.push(held);
    if (waiter) {
      this.waiting = this.waiting.filter((w) => w !== waiter);
      waiter.take(held);
    }
  }

  /** The control API (protocol.ts CONTROL); answers false for a path that is not its own. */
  control(req: http.IncomingMessage, res: http.ServerResponse, raw: string): boolean {
    const url = new URL(req.url ?? '/', 'http://control');
    const tag = url.searchParams.get('tag') ?? undefined;
    switch (url.pathname) {
      case CONTROL.next: {
        const found = this.held.find((h) => h.rec.tag === tag);
        if (found || !tag) {
          sendJson(res, found ? 200 : 400, found?.rec ?? { error: 'tag= is required' });
          return true;
        }
        const waitMs = Math.min(Number(url.searchParams.get('waitMs')) || 5000, 60_000);
        const waiter = {
          tag,
          take: (h: Held | undefined) => {
            clearTimeout(timer);
            if (h) sendJson(res, 200, h.rec);
            else res.writeHead(204).end();
          },
        };
        const timer = setTimeout(() => {
          this.waiting = this.waiting.filter((w) => w !== waiter);
          waiter.take(undefined);
        }, waitMs);
        // the test stopped waiting (its turn ended): a later request must not be handed to a closed socket
        res.on('close', () => {
          clearTimeout(timer);
          this.waiting = this.waiting.filter((w) => w !== waiter);
        });
        this.waiting.push(waiter);
        return true;
      }
      case CONTROL.answer: {
        let body: { n?: number; answer?: Answer } = {};
        try {
          body = JSON.parse(raw) as typeof body;
        } catch {}
        const held = this.held.find((h) => h.rec.n === body.n);
        if (!held || !body.answer) {
          sendJson(res, 404, { error: `request ${body.n} is not waiting for an answer` });
          return true;
        }
        held.answer(body.answer);
        sendJson(res, 200, { ok: true });
        return true;
      }
      case CONTROL.requests:
        sendJson(
          res,
          200,
          this.requests.filter((r) => tag === undefined || r.tag === tag),
        );
        return true;
    }
    return false;
  }
}
