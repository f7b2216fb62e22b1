// pi (the coding agent `@mariozechner/pi-coding-agent`) as the gate sees it (test/pi/FACTS.md). pi has no
// command hooks: our extension, loaded into pi's own process (plugin.ts), sends each of its events the gate
// needs in the shape of VS Code's hook payloads, with pi's tool names and the path resolved as pi resolves it:
// `UserPromptSubmit` (pi's `before_agent_start`), `PreToolUse` (`tool_call`, which can block), `PostToolUse`
// (`tool_result`), `PreCompact` (`session_before_compact`) and `ModelRequest` (`turn_start`: the model is
// asked again, so every call of its last response has run). pi runs the calls of one response at once, so
// each tool event names its call (`tool_use_id`). It reads and writes the disk itself, past the editor.
import {
  denyPreToolUse,
  type AgentHooks,
  type HookEvent,
  readVsCodeFormat,
  record,
  SHELL_VERB,
  shellToolEvent,
  str,
  type TouchedFile,
} from '../../../hooks/event';

/** The id its events are sent under. */
export const PI = 'pi';

/** `read{path}`, `edit{path, edits: [{oldText, newText}]}` (older models send one `oldText`/`newText`), `write{path, content}`. */
export const FILE_TOOLS = ['read', 'edit', 'write'] as const;
/** `bash{command}`: the files a command writes are checked as edits (rule 16). */
export const SHELL_TOOL = 'bash';
/** The tools whose events the plugin sends. */
export const GATED_TOOLS = [...FILE_TOOLS, SHELL_TOOL] as const;

/**
 * The texts an `edit` will look for: each `edits[].oldText`, and the one `oldText` older models send (pi folds it
 * into `edits`). pi matches them after folding line endings and, failing that, loosely (trailing blanks, quote
 * marks): rule 12 holds it to the file as written, line endings and trailing blanks aside.
 */
function quotesOf(input: Record<string, unknown>): string[] {
  const edits = Array.isArray(input.edits) ? input.edits : [];
  const quotes = edits.map((e) => str(record(e)?.oldText)).filter((q): q is string => q !== undefined);
  const legacy = str(input.oldText);
  return legacy !== undefined ? [...quotes, legacy] : quotes;
}

function piToolEvent(
  when: 'before' | 'after',
  chat: string,
  tool: string,
  input: Record<string, unknown>,
  call: string | undefined,
): HookEvent {
  const withCall = call !== undefined ? { call } : {};
  if (tool === SHELL_TOOL) return shellToolEvent(when, chat, tool, input, withCall);
  if (!(FILE_TOOLS as readonly string[]).includes(tool))
    return { kind: 'ignore', why: `${tool || 'a tool'} is not one of pi's file tools`, chat };
  const file = str(input.path);
  if (!file) return { kind: 'ignore', why: `${tool} names no file`, chat };
  if (tool === 'read') return { kind: `${when}-read`, chat, tool, files: [file], ...withCall };
  // an edit changes a file that must exist; a write makes one, or overwrites one (then checked like an edit)
  const touched: TouchedFile =
    tool === 'edit' ? { path: file, intent: 'change', quotes: quotesOf(input) } : { path: file, intent: 'create' };
  return { kind: `${when}-edit`, chat, tool, files: [touched], ...withCall };
}

/** One event as plugin.ts sends it; `ModelRequest` and anything else are nothing for the gate but the chat's next event. */
export function parsePiEvent(payload: unknown): HookEvent {
  return readVsCodeFormat(payload, (when, { chat, tool, input, p }) => piToolEvent(when, chat, tool, input, str(p.tool_use_id)));
}

const TOOL_VERB: Record<string, string> = { read: 'read', edit: 'edit', write: 'write', [SHELL_TOOL]: SHELL_VERB };

/** pi: it reads and writes the disk itself, its sessions are its own chats, and one response's calls run at once. */
export const piAgent: AgentHooks = {
  id: PI,
  name: 'pi',
  writesDisk: true,
  ownChats: true,
  parallelCalls: true,
  toolNames: GATED_TOOLS,
  parse: parsePiEvent,
  verb: (tool) => TOOL_VERB[tool] ?? tool,
  deny: denyPreToolUse,
};
