// A scripted fake of the Gemini API, the wire Gemini CLI speaks (test/geminiCli/geminiCli.ts points
// GOOGLE_GEMINI_BASE_URL here). Each model request that offers tools is answered by the test's `answer`
// function, which sees the conversation so far (the tool calls it made and the results the CLI sent
// back) and may wait before it answers; a request with no tools (a side request) gets a short text.
// Only Node's own modules.
//
// What the CLI calls (measured with @google/gemini-cli 0.61.0): `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`
// (server-sent `data: <GenerateContentResponse>` events) and, for side requests, `:generateContent`. A
// call's result comes back as a `functionResponse` part (`response.output`, or `response.error`: a call
// a hook denied reads "Tool execution blocked: <reason>").
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GeminiCallSeen {
  tool: string;
  args: Record<string, unknown>;
  /** the output the CLI sent back, or its error (undefined while the call is the last thing in the request) */
  result?: string;
  isError?: boolean;
}

export interface GeminiRequest {
  /** 1-based, in arrival order */
  n: number;
  /** the tool calls of this conversation so far, oldest first, each with its result */
  calls: GeminiCallSeen[];
  /** the tools the request offered the model */
  tools: string[];
}

/** A call, several calls in one response (a parallel batch), or a closing text. */
export type GeminiAnswer =
  { tool: string; args: Record<string, unknown> } | { calls: Array<{ tool: string; args: Record<string, unknown> }> } | { text: string };

export interface FakeGemini {
  /** the base URL for GOOGLE_GEMINI_BASE_URL, e.g. http://127.0.0.1:40123 */
  url: string;
  requests: GeminiRequest[];
  close(): Promise<void>;
}

interface Part {
  text?: string;
  functionCall?: { name?: string; args?: Record<string, unknown> };
  functionResponse?: { name?: string; response?: { output?: unknown; error?: unknown } };
}

/** The tool calls and their results, read from the conversation the CLI sent (a response follows its call). */
function callsOf(contents: Array<{ role?: string; parts?: Part[] }>): GeminiCallSeen[] {
  const calls: GeminiCallSeen[] = [];
  for (const c of contents)
    for (const part of c.parts ?? []) {
      if (part.functionCall) calls.push({ tool: part.functionCall.name ?? '', args: part.functionCall.args ?? {} });
      const response = part.functionResponse?.response;
      if (response) {
        // one response's calls are answered in their order: the first of that name still without a result
        const call = calls.find((k) => k.tool === part.functionResponse?.name && k.result === undefined);
        if (!call) continue;
        const error = response.error;
        call.isError = error !== undefined;
        call.result = String(
          error ?? (typeof response.output === 'string' ? response.output : JSON.stringify(response.output ?? response)),
        );
      }
    }
  return calls;
}

/** Starts the fake on 127.0.0.1. */
export async function startFakeGemini(answer: (request: GeminiRequest) => GeminiAnswer | Promise<GeminiAnswer>): Promise<FakeGemini> {
  const requests: GeminiRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = req.url ?? '';
        if (!/:(stream)?[gG]enerateContent/.test(url)) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { code: 404, message: `not faked: ${req.method} ${url}` } }));
          return;
        }
        let body: {
          contents?: Array<{ role?: string; parts?: Part[] }>;
          tools?: Array<{ functionDeclarations?: Array<{ name?: string }> }>;
        } = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          // an empty conversation
        }
        const tools = (body.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((d) => d.name ?? ''));
        let reply: GeminiAnswer = { text: 'ok' };
        if (tools.length > 0) {
          const request: GeminiRequest = { n: requests.length + 1, calls: callsOf(body.contents ?? []), tools };
          requests.push(request);
          try {
            reply = await answer(request);
          } catch (e) {
            reply = { text: `the test's answer failed: ${e instanceof Error ? e.message : String(e)}` };
          }
        }
        const calls = 'tool' in reply ? [reply] : 'calls' in reply ? reply.calls : [];
        const parts = 'text' in reply ? [{ text: reply.text }] : calls.map((c) => ({ functionCall: { name: c.tool, args: c.args } }));
        const response = {
          candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
          modelVersion: 'fake-model',
        };
        if (/streamGenerateContent/.test(url)) {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
          res.end(`data: ${JSON.stringify(response)}\r\n\r\n`);
        } else {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(response));
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
