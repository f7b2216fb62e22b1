// Our plugin inside opencode's own process (bundled to dist/plugins/opencode.js; the file opencode loads,
// pluginFile.ts, requires it): each event of opencode's the gate needs goes to the window as events.ts reads it,
// over the hooks bridge's wire (src/hooks/windowClient.ts: the window opencode descends from, else the one whose
// folder holds the file), one connection per event and no process. A `tool.execute.before` the window refuses
// throws its reason, which is what opencode's model reads. Whatever goes wrong, the call is let through
// (fail-open), as with the hooks.
import * as path from 'node:path';
import { MODEL_REQUEST } from '../../../hooks/event';
import { askWindowAbout, type ClientEnvironment } from '../../../hooks/windowClient';
import { GATED_TOOLS, OPENCODE } from './events';

/** What our hooks read of opencode's plugin API (`@opencode-ai/plugin`; test/opencode/FACTS.md). */
export interface OpencodeContext {
  /** the folder opencode runs in: its tools' relative paths start there */
  directory: string;
}
interface ToolInput {
  tool?: string;
  sessionID?: string;
  callID?: string;
  args?: unknown;
}
export interface OpencodeHooks {
  'chat.message'(input: { sessionID?: string }, output: { parts?: unknown[] }): Promise<void>;
  'chat.params'(input: { sessionID?: string; agent?: unknown }, output: unknown): Promise<void>;
  'tool.execute.before'(input: ToolInput, output: { args?: unknown }): Promise<void>;
  'tool.execute.after'(input: ToolInput, output: unknown): Promise<void>;
  'experimental.session.compacting'(input: { sessionID?: string }, output: unknown): Promise<void>;
}

/** The agents of opencode's own side requests, which are no step of the chat. */
const SIDE_AGENTS = ['title', 'summary', 'compaction'];

const isFileTool = (name: unknown): name is string => (GATED_TOOLS as readonly unknown[]).includes(name);

/** A tool's input with its path as opencode resolves it: from the folder it runs in. */
export function resolvedAsOpencode(input: unknown, directory: string): Record<string, unknown> {
  const given = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  return typeof given.filePath === 'string' && given.filePath.length > 0
    ? { ...given, filePath: path.resolve(directory, given.filePath) }
    : given;
}

/** The text of a user message's parts. */
const textOf = (parts: unknown[] | undefined) =>
  (parts ?? [])
    .map((p) => ((p as { type?: unknown })?.type === 'text' ? String((p as { text?: unknown }).text ?? '') : ''))
    .join('')
    .trim();

/** opencode's plugin function's result: the hooks. `env`: opencode's own (where a window's address may be). */
export function opencodeHooks(ctx: OpencodeContext, env: ClientEnvironment = process.env): OpencodeHooks {
  const directory = ctx?.directory || process.cwd();
  const send = (session: string | undefined, fields: Record<string, unknown>) =>
    askWindowAbout(OPENCODE, { session_id: session, cwd: directory, ...fields }, env);
  const toolFields = (hookEvent: string, input: ToolInput, args: unknown) => ({
    hook_event_name: hookEvent,
    tool_name: input.tool,
    tool_input: resolvedAsOpencode(args, directory),
    tool_use_id: input.callID,
  });
  return {
    async 'chat.message'(input, output) {
      await send(input?.sessionID, { hook_event_name: 'UserPromptSubmit', prompt: textOf(output?.parts) || undefined });
    },
    async 'chat.params'(input) {
      if (!SIDE_AGENTS.includes(String(input?.agent))) await send(input?.sessionID, { hook_event_name: MODEL_REQUEST });
    },
    async 'tool.execute.before'(input, output) {
      if (!isFileTool(input?.tool)) return;
      const reason = await send(input.sessionID, toolFields('PreToolUse', input, output?.args));
      // opencode's refusal: the error's message is the call's result
      if (reason !== undefined) throw new Error(reason);
    },
    async 'tool.execute.after'(input) {
      if (isFileTool(input?.tool)) await send(input.sessionID, toolFields('PostToolUse', input, input.args));
    },
    async 'experimental.session.compacting'(input) {
      await send(input?.sessionID, { hook_event_name: 'PreCompact' });
    },
  };
}
