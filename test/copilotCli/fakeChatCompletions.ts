// A scripted fake of the OpenAI Chat Completions API, the wire the GitHub Copilot CLI speaks to a custom
// provider (test/copilotCli/copilotCli.ts points COPILOT_PROVIDER_BASE_URL here). Each model request of a
// run is answered by the test's `answer` function, which sees the conversation so far (the tool calls it
// made and the results the CLI sent back) and may wait before it answers — that is how a test holds an
// agent at a chosen point. Only Node's own modules.
//
// What the CLI calls (measured with @github/copilot 1.0.102): `POST /v1/chat/completions` with
// `stream: true`, answered as server-sent `chat.completion.chunk`s ending `data: [DONE]`; `GET /v1/models`.
// A tool's result comes back as a `tool` message (`tool_call_id`, `content`); a call a hook denied
// reads "Denied by preToolUse hook: <reason>".
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ToolCallSeen {
  id: string;
  tool: string;
  args: Record<string, unknown>;
  /** the result the CLI sent back (undefined while the call is the last thing in the request) */
  result?: string;
}

export interface ChatRequest {
  /** 1-based, in arrival order */
  n: number;
  /** the tool calls of this conversation so far, oldest first, each with its result */
  calls: ToolCallSeen[];
  /** the tools the request offered the model */
  tools: string[];
}

/** A call, several calls in one response (a parallel batch), or a closing text. */
export type ChatAnswer =
  { tool: string; args: Record<string, unknown> } | { calls: Array<{ tool: string; args: Record<string, unknown> }> } | { text: string };

export interface FakeChatCompletions {
  /** the base URL for COPILOT_PROVIDER_BASE_URL, e.g. http://127.0.0.1:40123/v1 */
  url: string;
  requests: ChatRequest[];
  close(): Promise<void>;
}

interface WireMessage {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ id: string; function?: { name?: string; arguments?: string } }>;
  tool_call_id?: string;
}

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : '')).join('')
      : '';

function parseArgs(text: string | undefined): Record<string, unknown> {
  try {
    const v = JSON.parse(text ?? '{}') as unknown;
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The tool calls and their results, read from the conversation the CLI sent. */
function callsOf(messages: WireMessage[]): ToolCallSeen[] {
  const calls: ToolCallSeen[] = [];
  for (const m of messages) {
    if (m.role === 'assistant')
      for (const c of m.tool_calls ?? []) calls.push({ id: c.id, tool: c.function?.name ?? '', args: parseArgs(c.function?.arguments) });
    if (m.role === 'tool') {
      const call = calls.find((c) => c.id === m.tool_call_id);
      if (call) call.result = textOf(m.content);
    }
  }
  return calls;
}

/**
 * Starts the fake on 127.0.0.1. `answer` is asked for every request that offers tools (a request with
 * none — a title, a summary — gets a short text).
 */
export async function startFakeChatCompletions(
  answer: (request: ChatRequest) => ChatAnswer | Promise<ChatAnswer>,
): Promise<FakeChatCompletions> {
  const requests: ChatRequest[] = [];
  let ids = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        if (req.method === 'GET' && /\/models/.test(req.url ?? '')) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ object: 'list', data: [{ id: 'fake-model', object: 'model', owned_by: 'tests' }] }));
          return;
        }
        if (!/chat\/completions/.test(req.url ?? '')) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `not faked: ${req.method} ${req.url}` } }));
          return;
        }
        let body: { messages?: WireMessage[]; tools?: Array<{ function?: { name?: string } }>; stream?: boolean; model?: string } = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          // an empty conversation
        }
        const tools = (body.tools ?? []).map((t) => t.function?.name ?? '');
        const request: ChatRequest = { n: requests.length + 1, calls: callsOf(body.messages ?? []), tools };
        requests.push(request);
        let reply: ChatAnswer;
        try {
          reply = tools.length === 0 ? { text: 'ok' } : await answer(request);
        } catch (e) {
          reply = { text: `the test's answer failed: ${e instanceof Error ? e.message : String(e)}` };
        }
        const id = `chatcmpl-${++ids}`;
        const created = Math.floor(Date.now() / 1000);
        const calls = 'tool' in reply ? [reply] : 'calls' in reply ? reply.calls : [];
        const toolCalls = calls.map((c, i) => ({
          id: i === 0 ? `call_${ids}` : `call_${ids}_${i}`,
          type: 'function',
          function: { name: c.tool, arguments: JSON.stringify(c.args) },
        }));
        const finish = toolCalls.length > 0 ? 'tool_calls' : 'stop';
        const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
        const message =
          toolCalls.length > 0
            ? { role: 'assistant', content: null, tool_calls: toolCalls }
            : { role: 'assistant', content: (reply as { text: string }).text };
        if (body.stream === false) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              id,
              object: 'chat.completion',
              created,
              model: body.model,
              choices: [{ index: 0, message, finish_reason: finish }],
              usage,
            }),
          );
          return;
        }
        const delta =
          toolCalls.length > 0
            ? { role: 'assistant', tool_calls: toolCalls.map((c, index) => ({ index, ...c })) }
            : { role: 'assistant', content: message.content };
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        for (const chunk of [
          { id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: null }] },
          {
            id,
            object: 'chat.completion.chunk',
            created,
            model: body.model,
            choices: [{ index: 0, delta: {}, finish_reason: finish }],
            usage,
          },
        ])
          res.write(`data: ${JSON.stringify(chunk)}\n\n`);
        res.end('data: [DONE]\n\n');
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
