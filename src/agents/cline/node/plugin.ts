// Our plugin inside Cline's plugin sandbox (bundled to dist/plugins/cline.js; the file Cline loads, pluginFile.ts,
// requires it): each event of Cline's the gate needs goes to the window as events.ts reads it, over the hooks
// bridge's wire (src/hooks/windowClient.ts: the window Cline descends from, else the one whose folder holds the
// file), one connection per event and no process. A `beforeTool` the window refuses is skipped with its reason,
// which Cline's model reads. Cline fails the whole run when a hook throws or takes 3 s, so every hook here
// catches all and asks within CLINE_HOOK_MS; whatever goes wrong, the call is let through (fail-open).
import * as path from 'node:path';
import { FAILURE_EVENT, MODEL_REQUEST } from '../../../hooks/event';
import { askWindowAbout, type ClientEnvironment } from '../../../hooks/windowClient';
import { CLINE, CLINE_HOOK_MS, GATED_TOOLS } from './events';

/** What our hooks read of Cline's (its `AgentRuntimeHooks` payloads; test/cline/FACTS.md). */
export interface ClineSnapshot {
  agentId?: string;
  parentAgentId?: string | null;
  conversationId?: string;
  messages?: unknown[];
}
export interface ClineToolCall {
  snapshot?: ClineSnapshot;
  toolCall?: { toolCallId?: string; toolName?: string };
  input?: unknown;
  /** `afterTool`'s: a call skipped (ours or another plugin's) or failed is an error */
  result?: { isError?: boolean; output?: unknown };
}
export interface ClineEvent {
  type?: string;
  message?: string;
  metadata?: { kind?: string; phase?: string };
}
export interface ClinePlugin {
  name: string;
  manifest: { capabilities: string[] };
  setup(api: unknown, ctx: { session?: { sessionId?: string } } | undefined): void;
  hooks: {
    beforeRun(e: { snapshot?: ClineSnapshot }): Promise<undefined>;
    beforeModel(e: { snapshot?: ClineSnapshot }): Promise<undefined>;
    beforeTool(e: ClineToolCall): Promise<{ skip: true; reason: string } | undefined>;
    afterTool(e: ClineToolCall): Promise<undefined>;
    onEvent(e: ClineEvent): Promise<void>;
  };
}

/** Its name in Cline's plugin list. */
export const PLUGIN_NAME = 'agent-edit-guard';

/** The user's words of a run: the last user message of its snapshot, without the `<user_input>` wrapper Cline adds. */
export function promptOf(snapshot: ClineSnapshot | undefined): string | undefined {
  const users = (snapshot?.messages ?? []).filter(
    (m): m is { role: string; content: unknown } => (m as { role?: unknown })?.role === 'user',
  );
  const content = users.at(-1)?.content;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((c) => (c as { text?: unknown })?.text ?? '').join('')
        : '';
  const inner = /<user_input[^>]*>([\s\S]*?)<\/user_input>/.exec(text);
  const words = (inner ? inner[1] : text).trim();
  return words.length > 0 ? words : undefined;
}

/** A tool's input with its paths as Cline resolves them: from the session's folder (the sandbox's cwd). */
export function resolvedAsCline(tool: string, input: unknown, cwd: string): Record<string, unknown> {
  const given = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const resolve = (p: unknown) => (typeof p === 'string' && p.length > 0 ? path.resolve(cwd, p) : p);
  if (tool === 'editor') return { ...given, path: resolve(given.path) };
  if (tool === 'read_files' && Array.isArray(given.files))
    return {
      ...given,
      files: given.files.map((f: unknown) =>
        typeof f === 'object' && f !== null ? { ...f, path: resolve((f as { path?: unknown }).path) } : f,
      ),
    };
  return given;
}

const isFileTool = (name: unknown): name is string => (GATED_TOOLS as readonly unknown[]).includes(name);

/** Cline calls `afterTool` for a call that did not run (skipped) or failed too: nothing was read or written then. */
export const ran = (result: ClineToolCall['result']) =>
  result?.isError !== true && (result?.output as { success?: unknown } | undefined)?.success !== false;

/** The plugin Cline loads. `env`: the sandbox's own (where a window's address may be); `cwd`: the session's folder. */
export function clinePlugin(env: ClientEnvironment = process.env, cwd: () => string = () => process.cwd()): ClinePlugin {
  let session: string | undefined;
  // a sub-agent (`spawn_agent`) has read nothing of its parent's: its own chat
  const chatOf = (snapshot: ClineSnapshot | undefined) => {
    const chat = session ?? snapshot?.conversationId ?? 'cline';
    return snapshot?.parentAgentId ? `${chat}/${snapshot.agentId ?? 'agent'}` : chat;
  };
  const send = async (snapshot: ClineSnapshot | undefined, fields: Record<string, unknown>): Promise<string | undefined> => {
    try {
      return await askWindowAbout(CLINE, { session_id: chatOf(snapshot), cwd: cwd(), ...fields }, env, CLINE_HOOK_MS);
    } catch {
      return undefined;
    }
  };
  const toolFields = (hookEvent: string, e: ClineToolCall) => ({
    hook_event_name: hookEvent,
    tool_name: e.toolCall?.toolName,
    tool_input: resolvedAsCline(e.toolCall?.toolName ?? '', e.input, cwd()),
    tool_use_id: e.toolCall?.toolCallId,
  });
  return {
    name: PLUGIN_NAME,
    manifest: { capabilities: ['hooks'] },
    setup(_api, ctx) {
      session = ctx?.session?.sessionId || undefined;
    },
    hooks: {
      async beforeRun({ snapshot }) {
        await send(snapshot, { hook_event_name: 'UserPromptSubmit', prompt: promptOf(snapshot) });
        return undefined;
      },
      async beforeModel({ snapshot }) {
        await send(snapshot, { hook_event_name: MODEL_REQUEST });
        return undefined;
      },
      async beforeTool(e) {
        if (!isFileTool(e.toolCall?.toolName)) return undefined;
        const reason = await send(e.snapshot, toolFields('PreToolUse', e));
        return reason === undefined ? undefined : { skip: true, reason };
      },
      async afterTool(e) {
        // a call that was skipped or failed read and wrote nothing: the gate frees its file at once, and marks nothing
        if (isFileTool(e.toolCall?.toolName)) await send(e.snapshot, toolFields(ran(e.result) ? 'PostToolUse' : FAILURE_EVENT, e));
        return undefined;
      },
      // compaction has no hook of its own: Cline announces it, then summarises the chat
      async onEvent(e) {
        if (e?.type === 'status-notice' && e.metadata?.kind === 'auto_compaction' && e.metadata.phase === 'started')
          await send(undefined, { hook_event_name: 'PreCompact' });
      },
    },
  };
}
