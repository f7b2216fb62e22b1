// The Copilot runtime's hook payloads: the runtime of the GitHub Copilot SDK runs a chat of VS Code's Agent Host
// (the Copilot harness, test/harness/FACTS.md) and is the GitHub Copilot CLI in a terminal (test/copilotCli/FACTS.md).
// Both run the entries of Copilot's hooks file (`~/.copilot/hooks`, a git root's `.github/hooks`) in VS Code's
// format, with Claude Code's tool names: `view` is `Read {path}`, `edit` is `Edit {path, old_str, new_str}`,
// `create` is `Write {path, file_text}`, and a codex-family model's `apply_patch` is `Edit` with the raw patch as its
// whole input; a call its own tool failed ends in `PostToolUseFailure`. Its payloads carry no `tool_use_id` and no
// `transcript_path` where the Local agent's do: that is how the bridge tells them from the Local agent's. Shared by
// the two agents that read them (src/agents/copilotHarness, src/agents/copilotCli), which differ in who runs them.
import {
  denyPreToolUse,
  type AgentHooks,
  type HookEvent,
  type HookOrigin,
  readVsCodeFormat,
  record,
  SHELL_VERB,
  shellToolEvent,
  str,
  type TouchedFile,
} from './event';
import { COPILOT } from './channels';
import { filesOfPatch } from './patch';
import { ownToolId, TOOL_REFERENCE_NAMES } from '../core/toolIds';

const READ_TOOL = 'Read';
/** Its shell tool, under Claude Code's name as its other tools are (and its own, should a version report that). */
const SHELL_TOOLS = ['Bash', 'bash'];
const TOOL_VERB: Record<string, string> = { Read: 'read', Edit: 'edit', Write: 'write', Bash: SHELL_VERB, bash: SHELL_VERB };

/** Is this payload the Copilot runtime's, not the Local agent's (both run the entries of Copilot's hooks file)? */
export function isRuntimePayload(payload: unknown): boolean {
  const p = record(payload);
  if (!p) return false;
  switch (str(p.hook_event_name)) {
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return p.tool_use_id === undefined;
    case 'UserPromptSubmit':
    case 'SessionStart':
      return p.transcript_path === undefined;
    default:
      // PreCompact and Stop carry the same fields in both: the chat's earlier events tell
      return false;
  }
}

/**
 * The executable the GitHub Copilot CLI runs its hooks from, as the OS names a hook's parent process (the npm
 * package's native binary and the standalone one). The Copilot harness runs them from the SDK's
 * `copilot-runtime`; a hook whose client could not read its parent is taken for the harness's.
 */
export const COPILOT_CLI_PROCESSES: readonly string[] = ['copilot', 'copilot.exe'];
export const ranByCopilotCli = (origin: HookOrigin) => origin.parent !== undefined && COPILOT_CLI_PROCESSES.includes(origin.parent);

/** Reads one hook payload of the Copilot runtime. */
export function parseRuntimeEvent(payload: unknown): HookEvent {
  return readVsCodeFormat(payload, (when, { chat, tool, p }) => {
    if (ownToolId(tool))
      return when === 'before'
        ? { kind: 'guarded-call', chat, call: { tool, input: p.tool_input } }
        : { kind: 'ignore', why: `${tool} ran`, chat };
    // the whole input: a codex-family model's apply_patch sends the patch as a string
    const input = p.tool_input;
    // its payloads name no call: the tool and its input, the same in a call's PreToolUse and PostToolUse, stand for it
    const call = `${tool} ${JSON.stringify(input)}`;
    // every PreToolUse of one model response carries one timestamp, and a later response's a later one (measured:
    // test/copilotCli/FACTS.md, test/harness/facts.test.ts): a call of a later response is no sibling (rule 14)
    const response = when === 'before' ? str(p.timestamp) : undefined;
    const of = response !== undefined ? { call, response } : { call };
    if (SHELL_TOOLS.includes(tool)) return shellToolEvent(when, chat, tool, record(input) ?? {}, of);
    if (tool === READ_TOOL) {
      const file = str(record(input)?.path);
      return file ? { kind: `${when}-read`, chat, tool, files: [file], ...of } : { kind: 'ignore', why: 'Read without a path', chat };
    }
    const files = filesOfEdit(tool, input);
    if (files === undefined) return { kind: 'ignore', why: `${tool || 'a tool'} is not one of the Copilot runtime's file tools`, chat };
    if (files.length === 0) return { kind: 'ignore', why: `${tool} names no file`, chat };
    return { kind: `${when}-edit`, chat, tool, files, ...of };
  });
}

/** The files an edit tool of the runtime touches; undefined for a tool that is not one. */
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
 * An agent that runs on the Copilot runtime: it reads and writes the disk itself, its chats are its own (no guarded
 * tool shares their ids), and it runs one response's calls at once (every PreToolUse of a response comes before the
 * first write lands). `claims`: which of the runtime's payloads are this agent's.
 */
export function copilotRuntimeAgent(agent: {
  id: string;
  name: string;
  claims(payload: unknown, origin: HookOrigin): boolean;
}): AgentHooks {
  return {
    id: agent.id,
    name: agent.name,
    channel: COPILOT,
    writesDisk: true,
    ownChats: true,
    parallelCalls: true,
    claims: agent.claims,
    // its file tools, and ours by the names it calls them (their hooks announce the calls)
    toolNames: [READ_TOOL, 'Edit', 'Write', ...SHELL_TOOLS, ...Object.keys(TOOL_REFERENCE_NAMES)],
    parse: parseRuntimeEvent,
    verb: (tool) => TOOL_VERB[tool] ?? tool,
    deny: denyPreToolUse,
  };
}
