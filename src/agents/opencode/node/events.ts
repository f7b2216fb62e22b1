// opencode (the `opencode-ai` CLI) as the gate sees it (test/opencode/FACTS.md). opencode has no command hooks:
// our plugin (plugin.ts, loaded into opencode's own process) sends each event the gate needs in the shape of VS
// Code's hook payloads, with opencode's tool names and every path resolved as opencode resolves it:
// `UserPromptSubmit` (`chat.message`), `ModelRequest` (`chat.params` of the chat's own agent),
// `PreToolUse` (`tool.execute.before`, which refuses by throwing), `PostToolUse` (`tool.execute.after`, only for a
// call that ran) and `PreCompact` (`experimental.session.compacting`). opencode runs one response's calls at
// once. It reads and writes the disk itself, past the editor.
import {
  denyPreToolUse,
  type AgentHooks,
  type HookEvent,
  readVsCodeFormat,
  SHELL_VERB,
  shellToolEvent,
  str,
  type TouchedFile,
} from '../../../hooks/event';
import { filesOfPatch } from '../../../hooks/patch';

/** The id its events are sent under. */
export const OPENCODE = 'opencode';

/**
 * `read{filePath, offset?, limit?}`, `edit{filePath, oldString, newString, replaceAll?}` (an empty `oldString`
 * makes the file), `write{filePath, content}`, and `apply_patch{patchText}` (offered instead of `edit` and `write`
 * to GPT models).
 */
export const FILE_TOOLS = ['read', 'edit', 'write', 'apply_patch'] as const;
/** `bash{command, workdir?}`: the files a command writes are checked as edits (rule 16). */
export const SHELL_TOOL = 'bash';
/** The tools whose events the plugin sends. */
export const GATED_TOOLS = [...FILE_TOOLS, SHELL_TOOL] as const;

function touchedBy(tool: string, input: Record<string, unknown>): TouchedFile[] {
  if (tool === 'apply_patch') return filesOfPatch(str(input.patchText) ?? '');
  const file = str(input.filePath);
  if (file === undefined) return [];
  const quote = tool === 'edit' ? str(input.oldString) : undefined;
  // an edit quotes what it replaces (opencode matches a quote it does not find loosely: rule 12 holds it to the
  // file as written); a write, or an edit without a quote, makes the file or overwrites it
  return [quote !== undefined ? { path: file, intent: 'change', quotes: [quote] } : { path: file, intent: 'create' }];
}

function opencodeToolEvent(
  when: 'before' | 'after',
  chat: string,
  tool: string,
  input: Record<string, unknown>,
  call: string | undefined,
): HookEvent {
  const withCall = call !== undefined ? { call } : {};
  if (tool === SHELL_TOOL) return shellToolEvent(when, chat, tool, input, withCall);
  if (!(FILE_TOOLS as readonly string[]).includes(tool))
    return { kind: 'ignore', why: `${tool || 'a tool'} is not one of opencode's file tools`, chat };
  if (tool === 'read') {
    const file = str(input.filePath);
    if (file === undefined) return { kind: 'ignore', why: 'read names no file', chat };
    return { kind: `${when}-read`, chat, tool, files: [file], ...withCall };
  }
  const files = touchedBy(tool, input);
  if (files.length === 0) return { kind: 'ignore', why: `${tool} names no file`, chat };
  return { kind: `${when}-edit`, chat, tool, files, ...withCall };
}

/** One event as plugin.ts sends it; `ModelRequest` and anything else are nothing for the gate but the chat's next event. */
export function parseOpencodeEvent(payload: unknown): HookEvent {
  return readVsCodeFormat(payload, (when, { chat, tool, input, p }) => opencodeToolEvent(when, chat, tool, input, str(p.tool_use_id)));
}

const TOOL_VERB: Record<string, string> = { read: 'read', edit: 'edit', write: 'write', apply_patch: 'patch', [SHELL_TOOL]: SHELL_VERB };

/** opencode: it reads and writes the disk itself, its sessions are its own chats, and one response's calls run at once. */
export const opencodeAgent: AgentHooks = {
  id: OPENCODE,
  name: 'opencode',
  writesDisk: true,
  ownChats: true,
  parallelCalls: true,
  toolNames: GATED_TOOLS,
  parse: parseOpencodeEvent,
  verb: (tool) => TOOL_VERB[tool] ?? tool,
  deny: denyPreToolUse,
};
