// pi (the coding agent `@mariozechner/pi-coding-agent`) as the gate sees it (test/pi/FACTS.md). pi has no
// command hooks: our extension, loaded into pi's own process (plugin.ts), sends each of its events the gate
// needs in the shape of VS Code's hook payloads, with pi's tool names and the path resolved as pi resolves it:
// `UserPromptSubmit` (pi's `before_agent_start`), `PreToolUse` (`tool_call`, which can block), `PostToolUse`
// (`tool_result`), `PreCompact` (`session_before_compact`) and `ModelRequest` (`turn_start`: the model is
// asked again, so every call of its last response has run). pi runs the calls of one response at once, so
// each tool event names its call (`tool_use_id`). It reads and writes the disk itself, past the editor.
import { record, SHELL_VERB, str } from '../../../hooks/event';
import { pluginAgentHooks } from '../../../hooks/pluginEvents';

/** The id its events are sent under. */
export const PI = 'pi';

/** `read{path}`, `edit{path, edits: [{oldText, newText}]}` (older models send one `oldText`/`newText`), `write{path, content}`. */
export const FILE_TOOLS = ['read', 'edit', 'write'] as const;
/** `bash{command}`: the files a command writes are checked as edits (rule 16). */
export const SHELL_TOOL = 'bash';
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

/**
 * The file a call of pi's file tools touches: an edit changes a file that must exist; a write makes one, or
 * overwrites one (then checked like an edit).
 */
function filesOf(tool: string, input: Record<string, unknown>) {
  const file = str(input.path);
  if (file === undefined) return { read: [] };
  if (tool === 'read') return { read: [file] };
  return {
    edit: [
      tool === 'edit' ? { path: file, intent: 'change' as const, quotes: quotesOf(input) } : { path: file, intent: 'create' as const },
    ],
  };
}

/** pi: it reads and writes the disk itself, its sessions are its own chats, and one response's calls run at once. */
export const piAgent = pluginAgentHooks({
  id: PI,
  name: 'pi',
  fileTools: FILE_TOOLS,
  shellTool: SHELL_TOOL,
  filesOf,
  verbs: { read: 'read', edit: 'edit', write: 'write', [SHELL_TOOL]: SHELL_VERB },
});
/** The tools whose events the plugin sends. */
export const GATED_TOOLS = piAgent.toolNames;
/** One event as plugin.ts sends it. */
export const parsePiEvent = piAgent.parse;
