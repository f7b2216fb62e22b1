// Qwen Code (a fork of Gemini CLI that speaks OpenAI's API) as the hooks bridge sees it
// (test/qwenCode/FACTS.md): its file tools, what each does, and what one of its hook events means for the
// gate. Its hooks have the shape and the event names of Claude Code's (VS Code's format), with its own tool
// names; each payload carries the turn (`prompt_id`), and its `UserPromptSubmit` fires again, with an empty
// prompt, before every model request of a turn. It reads and writes the disk itself, past the editor.
import { denyPreToolUse, type HookAgent, type HookEvent, readVsCodeFormat, replacedIn, str } from '../../../hooks/event';

/** The id its hook commands name. */
export const QWEN_CODE = 'qwen-code';

export const READ_TOOL = 'read_file';
/** `edit` changes a file (or makes one, with an empty `old_string`); `write_file` makes or overwrites one. */
export const EDIT_TOOLS = ['edit', 'write_file'] as const;
export const FILE_TOOLS = [READ_TOOL, ...EDIT_TOOLS] as const;

const TOOL_VERB: Record<(typeof FILE_TOOLS)[number], string> = { read_file: 'read', edit: 'edit', write_file: 'write' };

/**
 * Reads one hook payload of Qwen Code: `read_file` marks (a range of lines too); `edit` changes the file and
 * quotes its `old_string` (rule 12: as Gemini CLI, it may correct a quote it does not find), or makes the
 * file with an empty one; `write_file` makes a file or overwrites it. Every event is of its `prompt_id`'s turn.
 */
export function parseQwenCodeEvent(payload: unknown): HookEvent {
  const event = readVsCodeFormat(payload, (when, { chat, tool, input }) => {
    const file = str(input.file_path);
    if (tool === READ_TOOL)
      return file ? { kind: `${when}-read`, chat, tool, files: [file] } : { kind: 'ignore', why: 'read_file without a file_path', chat };
    if (!(EDIT_TOOLS as readonly string[]).includes(tool))
      return { kind: 'ignore', why: `${tool || 'a tool'} is not one of Qwen Code's file tools`, chat };
    if (!file) return { kind: 'ignore', why: `${tool} names no file`, chat };
    return {
      kind: `${when}-edit`,
      chat,
      tool,
      files: [tool === 'write_file' ? { path: file, intent: 'create' } : replacedIn(file, input.old_string)],
    };
  });
  const turn = str((payload as { prompt_id?: unknown }).prompt_id);
  return turn !== undefined && event.kind !== 'ignore' && event.kind !== 'compact' && event.kind !== 'guarded-call'
    ? { ...event, turn }
    : event;
}

/** Qwen Code: it reads and writes the disk itself, and its sessions are its own chats. */
export const qwenCodeAgent: HookAgent = {
  id: QWEN_CODE,
  name: 'Qwen Code',
  writesDisk: true,
  ownChats: true,
  toolNames: FILE_TOOLS,
  parse: parseQwenCodeEvent,
  verb: (tool) => TOOL_VERB[tool as keyof typeof TOOL_VERB] ?? tool,
  // the model reads the reason alone
  deny: denyPreToolUse,
};
