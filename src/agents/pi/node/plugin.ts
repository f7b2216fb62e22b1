// Our extension inside pi's own process (bundled to dist/plugins/pi.js; the file pi loads, extensionFile.ts,
// requires it): each event of pi's the gate needs goes to the window as events.ts reads it, over the hooks
// bridge's wire (src/hooks/windowClient.ts: the window pi descends from, else the one whose folder holds the
// file), one connection per event and no process. A `tool_call` the window refuses is blocked with its reason,
// which is what pi's model reads. Whatever goes wrong, the call is let through (fail-open), as with the hooks.
import * as os from 'node:os';
import * as path from 'node:path';
import { FAILURE_EVENT, MODEL_REQUEST } from '../../../hooks/event';
import { askWindowAbout, type ClientEnvironment } from '../../../hooks/windowClient';
import { GATED_TOOLS, PI } from './events';

/** What our handlers use of pi's extension API (docs/extensions.md of pi; test/pi/FACTS.md). */
export interface PiContext {
  cwd: string;
  sessionManager: { getSessionId(): string };
}
type Handler = (event: Record<string, unknown>, ctx: PiContext) => Promise<unknown>;
export interface PiExtensionApi {
  on(event: string, handler: Handler): void;
}

/** A path as pi's tools resolve it (its `resolveToCwd`): a leading `@` dropped, odd spaces made plain, `~` the home, then from the cwd. */
export function resolvedAsPi(file: string, cwd: string): string {
  const plain = (file.startsWith('@') ? file.slice(1) : file).replace(/[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g, ' ');
  const expanded = plain === '~' ? os.homedir() : plain.startsWith('~/') ? os.homedir() + plain.slice(1) : plain;
  return path.resolve(cwd, expanded);
}

const isFileTool = (name: unknown) => (GATED_TOOLS as readonly unknown[]).includes(name);

/** pi's extension factory: the handlers of the events the gate needs. `env`: pi's own (where a window's address may be). */
export function attach(pi: PiExtensionApi, env: ClientEnvironment = process.env): void {
  const send = (ctx: PiContext, fields: Record<string, unknown>) =>
    askWindowAbout(PI, { session_id: ctx.sessionManager.getSessionId(), cwd: ctx.cwd, ...fields }, env);
  const toolFields = (hookEvent: string, event: Record<string, unknown>, ctx: PiContext) => {
    const input = typeof event.input === 'object' && event.input !== null ? (event.input as Record<string, unknown>) : {};
    return {
      hook_event_name: hookEvent,
      tool_name: event.toolName,
      tool_input: typeof input.path === 'string' ? { ...input, path: resolvedAsPi(input.path, ctx.cwd) } : input,
      tool_use_id: event.toolCallId,
    };
  };
  pi.on('before_agent_start', async (event, ctx) => {
    await send(ctx, { hook_event_name: 'UserPromptSubmit', prompt: event.prompt });
    return undefined;
  });
  pi.on('turn_start', async (_event, ctx) => {
    await send(ctx, { hook_event_name: MODEL_REQUEST });
  });
  pi.on('tool_call', async (event, ctx) => {
    if (!isFileTool(event.toolName)) return undefined;
    // a refusal blocks the call with its reason, which is what pi's model reads
    const reason = await send(ctx, toolFields('PreToolUse', event, ctx));
    return reason === undefined ? undefined : { block: true, reason };
  });
  pi.on('tool_result', async (event, ctx) => {
    // a call its tool failed read and wrote nothing: the gate frees its file at once, and marks nothing
    if (isFileTool(event.toolName)) await send(ctx, toolFields(event.isError === true ? FAILURE_EVENT : 'PostToolUse', event, ctx));
    return undefined;
  });
  pi.on('session_before_compact', async (_event, ctx) => {
    await send(ctx, { hook_event_name: 'PreCompact' });
    return undefined;
  });
}
