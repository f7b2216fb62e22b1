// Claude Code as the hooks bridge sees it (test/claudeCode/FACTS.md): its file tools, what each does, and
// what one of its hook events means for the gate. Its hooks have the shape of VS Code's, and it reads
// and writes the disk itself, past the editor.
import { denyPreToolUse, type AgentHooks, type HookEvent, readVsCodeFormat, SHELL_VERB, shellToolEvent, str } from '../../../hooks/event';

/** The id its hook commands name. */
export const CLAUDE_CODE = 'claude-code';

/**
 * Its file tools. `MultiEdit` is gone from Claude Code 2.1 but costs nothing to keep; `NotebookEdit`
 * is reached through its tool search.
 */
export const READ_TOOL = 'Read';
export const EDIT_TOOLS = ['Edit', 'Write', 'MultiEdit', 'NotebookEdit'] as const;
type ClaudeEditTool = (typeof EDIT_TOOLS)[number];
const isEditTool = (name: string): name is ClaudeEditTool => (EDIT_TOOLS as readonly string[]).includes(name);
export const FILE_TOOLS = [READ_TOOL, ...EDIT_TOOLS] as const;
/** Its shell tool: the files a command writes are checked as edits (rule 16). */
export const SHELL_TOOL = 'Bash';
/** The tools whose hook events the gate needs: its entries' matcher. */
export const GATED_TOOLS = [...FILE_TOOLS, SHELL_TOOL] as const;

const TOOL_VERB: Record<(typeof GATED_TOOLS)[number], string> = {
  Bash: SHELL_VERB,
  Read: 'read',
  Edit: 'edit',
  MultiEdit: 'edit',
  Write: 'write',
  NotebookEdit: 'edit',
};

/**
 * Reads one hook payload of Claude Code: `Read` marks, `Edit`/`MultiEdit`/`NotebookEdit` change a
 * file, and `Write` creates one or overwrites it (a write like any other when the file exists). Its
 * Edit quotes exactly (Claude Code refuses an old_string it does not find), so rule 12 has nothing to check.
 */
export function parseClaudeCodeEvent(payload: unknown): HookEvent {
  return readVsCodeFormat(payload, (when, { chat, tool, input }) => {
    const file = str(input.file_path) ?? str(input.notebook_path);
    if (tool === SHELL_TOOL) return shellToolEvent(when, chat, tool, input);
    if (tool === READ_TOOL)
      return file ? { kind: `${when}-read`, chat, tool, files: [file] } : { kind: 'ignore', why: 'Read without a file_path', chat };
    if (!isEditTool(tool)) return { kind: 'ignore', why: `${tool || 'a tool'} is not one of Claude Code's file tools`, chat };
    if (!file) return { kind: 'ignore', why: `${tool} names no file`, chat };
    return { kind: `${when}-edit`, chat, tool, files: [{ path: file, intent: tool === 'Write' ? 'create' : 'change' }] };
  });
}

/** Claude Code: it reads and writes the disk itself, and its sessions are its own chats. */
export const claudeCodeAgent: AgentHooks = {
  id: CLAUDE_CODE,
  name: 'Claude Code',
  writesDisk: true,
  ownChats: true,
  toolNames: GATED_TOOLS,
  parse: parseClaudeCodeEvent,
  verb: (tool) => TOOL_VERB[tool as keyof typeof TOOL_VERB] ?? tool,
  deny: denyPreToolUse,
};
