// A scripted fake of the OpenAI Responses API for driving the real Codex CLI headless and offline
// (test/codex/codexCli.ts points a custom model provider here: `wire_api = "responses"`, `base_url` on
// 127.0.0.1). The test sets a script; each model request of the run is answered by the next step, and every
// request is recorded, so a test can assert on what Codex sent the model (the tool outputs it passed back).
//
// What the CLI calls (measured with Codex 0.171.0, test/codex/FACTS.md): only `POST /v1/responses`, with
// `stream: true`, answered as server-sent events: `response.created`, per output item
// `response.output_item.added` (+ `response.output_text.delta` for a message) and `response.output_item.done`,
// then `response.completed` with `usage`. Codex's own compaction request (its `x-codex-turn-metadata`
// says `"request_kind":"compaction"`) is answered with a summary text and takes no step.
//
// Steps:
//   { shell, workdir?, id? }   the shell tool, `exec_command {cmd, workdir?}` (hooks see it as `Bash`)
//   { patch, id? }             the freeform `apply_patch` tool, with the raw patch
//   { text }                   a final message: the model ends its turn
//   (each may carry `inputTokens`, the usage it reports: enough of it makes Codex compact)
//   (request) => step          computed when the request arrives: the test can read the tool output Codex
//                              just sent back, or change a file, before answering
// A request past the script's end gets a final text saying so. Only Node's own modules.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** `inputTokens`: the usage the answer reports (enough of it makes Codex compact before its next request, under `model_auto_compact_token_limit`) */
export type StepAnswer = ({ shell: string; workdir?: string; id?: string } | { patch: string; id?: string } | { text: string }) & {
  inputTokens?: number;
};
export type Step = StepAnswer | ((request: RecordedRequest) => StepAnswer | Promise<StepAnswer>);

export interface RecordedRequest {
  n: number;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: { input?: Array<Record<string, unknown>>; tools?: Array<Record<string, unknown>>; [key: string]: unknown };
  kind: 'turn' | 'compaction' | 'other';
  /** the outputs of tool calls Codex sent back with this request: { call_id, output } */
  outputs: Array<{ callId: string; output: string }>;
}

export interface FakeResponses {
  /** `http://127.0.0.1:<port>/v1` */
  readonly baseUrl: string;
  /** the steps of the next run(s), taken in order from the next request on */
  script(steps: Step[]): void;
  readonly requests: RecordedRequest[];
  /** what the model got back for a call, by the call id the step gave (or `call_<n>`) */
  outputOf(callId: string): string | undefined;
  /** forget the recorded requests and the script */
  clear(): void;
  close(): Promise<void>;
}

let calls = 0;

export async function startFakeResponses(): Promise<FakeResponses> {
  const requests: RecordedRequest[] = [];
  let steps: Step[] = [];
  let next = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        let body: RecordedRequest['body'] = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordedRequest['body'];
        } catch {
          // not JSON: recorded as an empty body
        }
        const path = (req.url ?? '').split('?')[0];
        const compaction =
          /"request_kind":"compaction"/.test(String(req.headers['x-codex-turn-metadata'] ?? '')) ||
          lastUserText(body).includes('CONTEXT CHECKPOINT COMPACTION');
        const record: RecordedRequest = {
          n: requests.length + 1,
          url: req.url ?? '',
          headers: req.headers,
          body,
          kind: req.method === 'POST' && path.endsWith('/responses') ? (compaction ? 'compaction' : 'turn') : 'other',
          outputs: (body.input ?? [])
            .filter((i) => i.type === 'function_call_output' || i.type === 'custom_tool_call_output')
            .map((i) => ({ callId: String(i.call_id), output: typeof i.output === 'string' ? i.output : JSON.stringify(i.output) })),
        };
        requests.push(record);
        if (record.kind === 'other') {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `fake: no route for ${req.method} ${req.url}` } }));
          return;
        }
        let answer: StepAnswer;
        if (compaction) answer = { text: 'SUMMARY OF THE CONVERSATION SO FAR (fake)' };
        else {
          const step = steps[next++];
          try {
            answer =
              step === undefined ? { text: 'fake: the script has no more steps' } : typeof step === 'function' ? await step(record) : step;
          } catch (e) {
            answer = { text: `fake: the script failed: ${e instanceof Error ? e.message : String(e)}` };
          }
        }
        stream(res, record.n, answer);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    script: (s) => {
      steps = s;
      next = 0;
    },
    requests,
    outputOf: (callId) => {
      for (const r of requests) for (const o of r.outputs) if (o.callId === callId) return o.output;
      return undefined;
    },
    clear: () => {
      requests.length = 0;
      steps = [];
      next = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One answer as Codex reads a streamed response. */
function stream(res: http.ServerResponse, n: number, answer: StepAnswer): void {
  const item = itemOf(answer);
  const id = `resp_${n}`;
  const send = (event: string, data: Record<string, unknown>) =>
    res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  send('response.created', { response: { id, object: 'response', status: 'in_progress', output: [] } });
  const full = { id: `item_${n}`, status: 'completed', ...item };
  send('response.output_item.added', { output_index: 0, item: { ...full, status: 'in_progress' } });
  if (item.type === 'message')
    send('response.output_text.delta', { output_index: 0, item_id: full.id, content_index: 0, delta: (answer as { text: string }).text });
  send('response.output_item.done', { output_index: 0, item: full });
  send('response.completed', {
    response: {
      id,
      object: 'response',
      status: 'completed',
      output: [],
      usage: {
        input_tokens: answer.inputTokens ?? 100,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 10,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: (answer.inputTokens ?? 100) + 10,
      },
    },
  });
  res.end();
}

function itemOf(answer: StepAnswer): Record<string, unknown> {
  if ('shell' in answer) {
    const args: Record<string, unknown> = { cmd: answer.shell };
    if (answer.workdir !== undefined) args.workdir = answer.workdir;
    return { type: 'function_call', name: 'exec_command', arguments: JSON.stringify(args), call_id: answer.id ?? `call_${++calls}` };
  }
  if ('patch' in answer)
    return { type: 'custom_tool_call', name: 'apply_patch', input: answer.patch, call_id: answer.id ?? `call_${++calls}` };
  return { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: answer.text, annotations: [] }] };
}

function lastUserText(body: RecordedRequest['body']): string {
  const users = (body.input ?? []).filter((i) => i.type === 'message' && i.role === 'user');
  const content = users.at(-1)?.content;
  return Array.isArray(content) ? content.map((c: { text?: string }) => c.text ?? '').join('') : '';
}
