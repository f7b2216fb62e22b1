// What the harness suite's test side (test/harness/*.ts, in the extension host) and the scripted model
// (scriptedModel.ts, in the servers' own Node process) both know: the model ids, the tag a turn's prompt
// carries, the shape of a recorded request and of an answer, and the control API's paths. Types and
// constants only: both sides bundle it.

/** The models the fake Copilot API lists (GET /models); a test picks one with `modelSelector.id`. */
export const MODELS = {
  /** over /chat/completions: the runtime offers it `view`, `create` and `edit` */
  standard: 'harness-gpt',
  /**
   * over /responses: the runtime offers it `apply_patch` as a freeform tool (and `view`, no `edit` or `create`).
   * The runtime picks the tools by the model's id, not by its family: the id must start with `gpt-5`.
   */
  codex: 'gpt-5.1-codex-harness',
} as const;
export type ModelId = (typeof MODELS)[keyof typeof MODELS];

/** The session type of the Copilot harness (VS Code's Agent Host), as `modelSelector.vendor` names it. */
export const HARNESS_VENDOR = 'agent-host-copilotcli';

/** The environment variable that gives the extension host the scripted model's control address. */
export const MODEL_URL_ENV = 'EDITGUARD_HARNESS_MODEL_URL';

/** A turn's prompt starts with `[[harness:<tag>]]`; the tag names the turn whose requests the test answers. */
export const tagOf = (text: string): string | undefined => /\[\[harness:([\w.-]+)\]\]/.exec(text)?.[1];
export const tagged = (tag: string, prompt: string) => `[[harness:${tag}]] ${prompt}`;

/** One tool call of an answer. `input` is a string for a freeform (custom) tool such as the codex `apply_patch`. */
export interface ToolCall {
  tool: string;
  input: Record<string, unknown> | string;
}

/** What the model answers to one request: tool calls (one or several) or a final text. */
export type Answer = ToolCall | { calls: ToolCall[] } | { text: string };

/** A tool the request offered the model. */
export interface OfferedTool {
  name: string;
  /** `function`, or `custom` (freeform input) on /responses */
  type: string;
  description: string;
  /** the JSON schema of a function tool's input */
  parameters?: unknown;
  /** a custom tool's input format (e.g. a grammar) */
  format?: unknown;
}

/** A message of the conversation as the model received it, the same for both APIs. */
export interface SeenMessage {
  role: string;
  text: string;
  /** the tool calls of an assistant message */
  calls?: Array<{ id: string; name: string; input: unknown }>;
  /** set on a tool result: the call it answers */
  callId?: string;
}

/** A tool result of the turn, with the call it answers. */
export interface ToolResultSeen {
  callId: string;
  name?: string;
  input?: unknown;
  /** the text the model received */
  text: string;
}

/** One inference request the runtime sent, as recorded. */
export interface ModelRequest {
  /** 1-based, in arrival order */
  n: number;
  at: number;
  api: 'chat' | 'responses';
  /** the path it arrived on, e.g. /chat/completions */
  path: string;
  model?: string;
  stream: boolean;
  /** the tag of the turn (its last user message carries it); undefined for a request of no scripted turn */
  tag?: string;
  /** which answer of the turn this request asks for: the model's answers since the tagged prompt */
  step: number;
  /** the text of the tagged user message */
  prompt?: string;
  /** the system prompt (chat: the system messages; responses: `instructions`) */
  system: string;
  tools: OfferedTool[];
  messages: SeenMessage[];
  /** the tool results since the tagged prompt, oldest first */
  toolResults: ToolResultSeen[];
  /** the request's headers, without `authorization` */
  headers: Record<string, string | string[] | undefined>;
  /** the request body as sent */
  body: unknown;
  /** what was answered, once it was */
  answer?: Answer;
}

/** One request the proxy saw (any host), for a test that asks what the runtime called. */
export interface TrafficRecord {
  at: number;
  host: string;
  method: string;
  path: string;
  /** how the proxy answered: a status, `model` (handed to the scripted model) or `refused` (a host it does not serve) */
  answer: number | 'model' | 'refused';
}

/**
 * The control API of the scripted model (plain HTTP on 127.0.0.1, $EDITGUARD_HARNESS_MODEL_URL):
 *   GET  /control/next?tag=T&waitMs=N   the oldest request of turn T that waits for its answer (JSON ModelRequest),
 *                                       or 204 when none arrived within N ms
 *   POST /control/answer                { n, answer }: answers request n (the runtime gets it at once)
 *   GET  /control/requests?tag=T        every recorded request of turn T (all requests without `tag`)
 *   GET  /control/traffic               every request the proxy saw (TrafficRecord[])
 * A tagged request waits for its answer; one nobody answers within ANSWER_TIMEOUT_MS gets a text that says
 * so, and the turn ends. A request of no scripted turn (a title, a summary) is answered at once with a text.
 */
export const CONTROL = { next: '/control/next', answer: '/control/answer', requests: '/control/requests', traffic: '/control/traffic' };
export const ANSWER_TIMEOUT_MS = 90_000;
