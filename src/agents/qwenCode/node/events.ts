// Qwen Code (a fork of Gemini CLI that speaks OpenAI's API) as the hooks bridge sees it
// (test/qwenCode/FACTS.md): its file tools, what each does, and what one of its hook events means for the
// gate. Its hooks have the shape and the event names of Claude Code's (VS Code's format), with its own tool
// names; each payload carries the turn (`prompt_id`), and its `UserPromptSubmit` fires again, with an empty
// prompt, before every model request of a turn. It reads and writes the disk itself, past the editor.
import {
  denyPreToolUse,
  type FilePathTools,
  filePathToolEvent,
  type AgentHooks,
  type HookEvent,
  readVsCodeFormat,
  record,
  SHELL_VERB,
  str,
} from '../../../hooks/event';

/** The id its hook commands name. */
export const QWEN_CODE = 'qwen-code';

/** `edit` changes a file (or makes one, with an empty `old_string`); `write_file` makes or overwrites one. */
const TOOLS: FilePathTools = { agent: 'Qwen Code', read: 'read_file', replace: 'edit', write: 'write_file', shell: 'run_shell_command' };
export const GATED_TOOLS = [TOOLS.read, TOOLS.replace, TOOLS.write, TOOLS.shell] as const;

const TOOL_VERB: Record<string, string> = { read_file: 'read', edit: 'edit', write_file: 'write', [TOOLS.shell]: SHELL_VERB };

/**
 * Reads one hook payload of Qwen Code: `read_file` marks (a range of lines too); `edit` changes the file and
 * quotes its `old_string` (rule 12: as Gemini CLI, it may correct a quote it does not find), or makes the
 * file with an empty one; `write_file` makes a file or overwrites it. Every event is of its `prompt_id`'s turn.
 */
export function parseQwenCodeEvent(payload: unknown): HookEvent {
  const event = readVsCodeFormat(payload, (when, { chat, tool, input }) => filePathToolEvent(TOOLS, when, chat, tool, input));
  const turn = str(record(payload)?.prompt_id);
  return turn !== undefined && event.kind !== 'ignore' && event.kind !== 'compact' && event.kind !== 'guarded-call'
    ? { ...event, turn }
    : event;
}

/** Qwen Code: it reads and writes the disk itself, and its sessions are its own chats. */
export const qwenCodeAgent: AgentHooks = {
  id: QWEN_CODE,
  name: 'Qwen Code',
  writesDisk: true,
  ownChats: true,
  toolNames: GATED_TOOLS,
  parse: parseQwenCodeEvent,
  verb: (tool) => TOOL_VERB[tool] ?? tool,
  // the model reads the reason alone
  deny: denyPreToolUse,
};
