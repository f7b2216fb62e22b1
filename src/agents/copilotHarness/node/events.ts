// The Copilot harness (VS Code's Agent Host: a Copilot chat run by the Copilot SDK's runtime, outside
// the extension host) as the hooks bridge sees it (test/harness/FACTS.md). It runs the hook entries of
// Copilot's hooks file (`~/.copilot/hooks`, a git root's `.github/hooks`) in VS Code's format, with
// Claude Code's tool names: `view` is `Read {path}`, `edit` is `Edit {path, old_str, new_str}`,
// `create` is `Write {path, file_text}`, and a codex-family model's `apply_patch` is `Edit` with the raw
// patch as its whole input. It reads and writes the disk itself, and calls our guarded tools by their
// reference names. Its payloads carry no `tool_use_id` and no `transcript_path` where the Local
// agent's do: that is how the bridge tells the two apart on the hooks file they share.
import { COPILOT } from '../../../hooks/channels';
import { denyPreToolUse, type HookAgent, type HookEvent, readVsCodeFormat, record, str, type TouchedFile } from '../../../hooks/event';
import { filesOfPatch } from '../../../hooks/patch';
import { ownToolId, TOOL_REFERENCE_NAMES } from '../../../core/toolIds';

export const COPILOT_HARNESS = 'copilot-harness';

const READ_TOOL = 'Read';
const TOOL_VERB: Record<string, string> = { Read: 'read', Edit: 'edit', Write: 'write' };

/** Is this payload the harness's, not the Local agent's (both run the entries of Copilot's hooks file)? */
export function isHarnessPayload(payload: unknown): boolean {
  const p = record(payload);
  if (!p) return false;
  switch (str(p.hook_event_name)) {
    case 'PreToolUse':
    case 'PostToolUse':
      return p.tool_use_id === undefined;
    case 'UserPromptSubmit':
    case 'SessionStart':
      return p.transcript_path === undefined;
    default:
      // PreCompact and Stop carry the same fields in both: the chat's earlier events tell
      return false;
  }
}

/** Reads one hook payload of the Copilot harness. */
export function parseHarnessEvent(payload: unknown): HookEvent {
  return readVsCodeFormat(payload, (when, { chat, tool, p }) => {
    if (ownToolId(tool))
      return when === 'before'
        ? { kind: 'guarded-call', chat, call: { tool, input: p.tool_input } }
        : { kind: 'ignore', why: `${tool} ran`, chat };
    // the whole input: a codex-family model's apply_patch sends the patch as a string
    const input = p.tool_input;
    // its payloads name no call: the tool and its input, the same in a call's PreToolUse and PostToolUse, stand for it
    const call = `${tool} ${JSON.stringify(input)}`;
    if (tool === READ_TOOL) {
      const file = str(record(input)?.path);
      return file ? { kind: `${when}-read`, chat, tool, files: [file], call } : { kind: 'ignore', why: 'Read without a path', chat };
    }
    const files = filesOfEdit(tool, input);
    if (files === undefined) return { kind: 'ignore', why: `${tool || 'a tool'} is not one of the harness's file tools`, chat };
    if (files.length === 0) return { kind: 'ignore', why: `${tool} names no file`, chat };
    return { kind: `${when}-edit`, chat, tool, files, call };
  });
}

/** The files an edit tool of the harness touches; undefined for a tool that is not one. */
function filesOfEdit(tool: string, input: unknown): TouchedFile[] | undefined {
  if (tool === 'Edit') {
    // a codex-family model's apply_patch: the patch is the whole input
    if (typeof input === 'string') return filesOfPatch(input);
    const file = str(record(input)?.path);
    return file ? [{ path: file, intent: 'change' }] : [];
  }
  if (tool === 'Write') {
    const file = str(record(input)?.path);
    return file ? [{ path: file, intent: 'create' }] : [];
  }
  return undefined;
}

/**
 * The Copilot harness: it reads and writes the disk itself, its chats are its own (no guarded tool shares
 * their ids), and it runs one response's calls at once (their PreToolUse hooks all come before the first
 * write lands: the Copilot CLI, the same runtime, measured in test/outcomes).
 */
export const copilotHarnessAgent: HookAgent = {
  id: COPILOT_HARNESS,
  name: 'Copilot harness',
  channel: COPILOT,
  writesDisk: true,
  ownChats: true,
  parallelCalls: true,
  claims: isHarnessPayload,
  // its file tools, and ours by the names it calls them (their hooks announce the calls)
  toolNames: [READ_TOOL, 'Edit', 'Write', ...Object.keys(TOOL_REFERENCE_NAMES)],
  parse: parseHarnessEvent,
  verb: (tool) => TOOL_VERB[tool] ?? tool,
  deny: denyPreToolUse,
};
