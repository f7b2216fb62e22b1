// What a hook event of Copilot's agent loop means for the gate: which files a built-in tool reads or
// is about to change. Pure: the hook payload (JSON from the hook's stdin) in, a plain event out; and
// the hook's answer that stops a call.
// Payload shapes were recorded from Copilot Chat 0.67's real agent loop (README "Guarding Copilot's
// own edit tools"); every field is read defensively, since hooks are a preview feature.

/** Copilot's built-in read tool, by its model-facing name. */
export const READ_TOOL = 'read_file';

/** Copilot's built-in edit tools the gate stands in front of, by their model-facing names. */
export const EDIT_TOOLS = [
  'replace_string_in_file',
  'multi_replace_string_in_file',
  'insert_edit_into_file',
  'apply_patch',
  'create_file',
] as const;
export type BuiltinEditTool = (typeof EDIT_TOOLS)[number];
const isEditTool = (name: string): name is BuiltinEditTool => (EDIT_TOOLS as readonly string[]).includes(name);

/** What each of Copilot's file tools does, in the word a refusal uses ("your patch"). */
export const TOOL_VERB: Record<BuiltinEditTool | ClaudeEditTool | typeof READ_TOOL | typeof CLAUDE_READ_TOOL, string> = {
  Read: 'read',
  Edit: 'edit',
  MultiEdit: 'edit',
  Write: 'write',
  NotebookEdit: 'edit',
  [READ_TOOL]: 'read',
  replace_string_in_file: 'replace',
  multi_replace_string_in_file: 'replace',
  insert_edit_into_file: 'edit',
  apply_patch: 'patch',
  create_file: 'write',
};

/** Copilot's internal tool ids, in case a hook reports those instead of the model-facing names. */
const INTERNAL_NAMES: Record<string, BuiltinEditTool | typeof READ_TOOL> = {
  copilot_readFile: READ_TOOL,
  copilot_replaceString: 'replace_string_in_file',
  copilot_multiReplaceString: 'multi_replace_string_in_file',
  copilot_insertEdit: 'insert_edit_into_file',
  copilot_applyPatch: 'apply_patch',
  copilot_createFile: 'create_file',
};

/**
 * Claude Code's file tools (test/claude/FACTS.md): its hooks have Copilot's shape, and it reads and
 * writes the disk itself, past the editor. `MultiEdit` is gone from Claude Code 2.1 but costs nothing
 * to keep; `NotebookEdit` is reached through its tool search.
 */
export const CLAUDE_READ_TOOL = 'Read';
export const CLAUDE_EDIT_TOOLS = ['Edit', 'Write', 'MultiEdit', 'NotebookEdit'] as const;
export type ClaudeEditTool = (typeof CLAUDE_EDIT_TOOLS)[number];
const isClaudeEditTool = (name: string): name is ClaudeEditTool => (CLAUDE_EDIT_TOOLS as readonly string[]).includes(name);

/** The agents whose hooks the bridge answers, and how the user knows them. */
export type Agent = 'copilot' | 'claude-code';
export const AGENT_NAMES: Record<Agent, string> = { copilot: 'Copilot', 'claude-code': 'Claude Code' };

/** Every name a hook may give the read and edit tools: the events of other tools change nothing for the gate. */
export const GATED_TOOL_NAMES: readonly string[] = [READ_TOOL, ...EDIT_TOOLS, ...Object.keys(INTERNAL_NAMES)];

/**
 * A file a tool call touches. `create`: the call means to make a new file (allowed when it does not
 * exist). `quotes`: for the two replace tools, the non-empty `oldString`s aimed at the file, in order
 * (rule 12: each must stand in the file as written); the other tools quote nothing exactly.
 */
export interface TouchedFile {
  path: string;
  intent: 'change' | 'create';
  quotes?: string[];
}

/** A file tool of an agent whose hooks the bridge answers. */
export type GatedEditTool = BuiltinEditTool | ClaudeEditTool;

/** `agent`: whose hook it is (Claude Code's payloads carry a `prompt_id`, and its tools have names of their own). */
export type HookEvent =
  /** the user sent a message: a new turn of that chat begins; `prompt`, the message as Copilot passes it (`request.prompt`) */
  | { kind: 'turn'; chat: string; agent: Agent; prompt?: string }
  /** a read is about to run: the version it will show is the text now (the disk's, for an agent that reads the disk) */
  | { kind: 'before-read'; chat: string; agent: Agent; files: string[] }
  /** a read ran */
  | { kind: 'after-read'; chat: string; agent: Agent; files: string[] }
  /** an edit is about to run: check each file */
  | { kind: 'before-edit'; chat: string; agent: Agent; tool: GatedEditTool; files: TouchedFile[] }
  /** an edit ran: the agent's own write */
  | { kind: 'after-edit'; chat: string; agent: Agent; tool: GatedEditTool; files: TouchedFile[] }
  /** the chat is about to be compacted: the model loses the text it read */
  | { kind: 'compact'; chat: string; agent: Agent }
  /** nothing for the gate; `chat` when the payload names one (its event still tells that the chat's earlier tool is done) */
  | { kind: 'ignore'; why: string; chat?: string };

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const record = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

function toolNameOf(name: string): string {
  return INTERNAL_NAMES[name] ?? name;
}

/** Reads one hook payload. Anything unexpected is `ignore` (the hook then allows the call). */
export function parseHookEvent(payload: unknown): HookEvent {
  const p = record(payload);
  if (!p) return { kind: 'ignore', why: 'the payload is not a JSON object' };
  const event = str(p.hook_event_name);
  const chat = str(p.session_id);
  if (!event) return { kind: 'ignore', why: 'no hook_event_name' };
  if (!chat) return { kind: 'ignore', why: `${event} without a session_id` };
  const toolName = str(p.tool_name) ?? '';
  const agent: Agent =
    str(p.prompt_id) !== undefined || toolName === CLAUDE_READ_TOOL || isClaudeEditTool(toolName) ? 'claude-code' : 'copilot';
  switch (event) {
    case 'UserPromptSubmit': {
      const prompt = str(p.prompt);
      return prompt === undefined ? { kind: 'turn', chat, agent } : { kind: 'turn', chat, agent, prompt };
    }
    case 'PreCompact':
      return { kind: 'compact', chat, agent };
    case 'PreToolUse':
    case 'PostToolUse': {
      const input = record(p.tool_input) ?? {};
      const when = event === 'PreToolUse' ? 'before' : 'after';
      if (agent === 'claude-code') return claudeToolEvent(toolName, input, chat, when);
      const tool = toolNameOf(toolName);
      if (tool === READ_TOOL) {
        const file = str(input.filePath);
        if (!file) return { kind: 'ignore', why: 'read_file without a filePath', chat };
        return { kind: `${when}-read`, chat, agent, files: [file] };
      }
      if (!isEditTool(tool)) return { kind: 'ignore', why: `${tool || 'a tool'} is not a built-in file tool`, chat };
      const files = filesOfEdit(tool, input);
      if (files.length === 0) return { kind: 'ignore', why: `${tool} names no file`, chat };
      return { kind: `${when}-edit`, chat, agent, tool, files };
    }
    default:
      return { kind: 'ignore', why: `${event} is not an event the gate uses`, chat };
  }
}

/**
 * A tool event of Claude Code: `Read` marks, `Edit`/`MultiEdit`/`NotebookEdit` change a file, and
 * `Write` creates one or overwrites it (a write like any other when the file exists). Its Edit quotes
 * exactly (Claude Code refuses an old_string it does not find), so rule 12 has nothing to check.
 */
function claudeToolEvent(tool: string, input: Record<string, unknown>, chat: string, when: 'before' | 'after'): HookEvent {
  const file = str(input.file_path) ?? str(input.notebook_path);
  if (tool === CLAUDE_READ_TOOL)
    return file
      ? { kind: `${when}-read`, chat, agent: 'claude-code', files: [file] }
      : { kind: 'ignore', why: 'Read without a file_path', chat };
  if (!isClaudeEditTool(tool)) return { kind: 'ignore', why: `${tool || 'a tool'} is not one of Claude Code's file tools`, chat };
  if (!file) return { kind: 'ignore', why: `${tool} names no file`, chat };
  return {
    kind: `${when}-edit`,
    chat,
    agent: 'claude-code',
    tool,
    files: [{ path: file, intent: tool === 'Write' ? 'create' : 'change' }],
  };
}

/** The files one built-in edit call would touch, each once, in order. */
export function filesOfEdit(tool: BuiltinEditTool, input: Record<string, unknown>): TouchedFile[] {
  const files: TouchedFile[] = [];
  const add = (path: string | undefined, intent: TouchedFile['intent']) => {
    if (!path) return;
    const known = files.find((f) => f.path === path);
    // a patch that adds a file and then updates it changes it: the stricter intent wins
    if (known) known.intent = known.intent === 'change' || intent === 'change' ? 'change' : 'create';
    else files.push({ path, intent });
  };
  /** a replacement of `filePath`: its oldString is a quote (an empty one is the tool's own error, not looked for) */
  const replacement = (r: Record<string, unknown> | undefined) => {
    const path = str(r?.filePath);
    add(path, 'change');
    const file = files.find((f) => f.path === path);
    if (!file) return;
    file.quotes ??= [];
    const quote = str(r?.oldString);
    if (quote !== undefined) file.quotes.push(quote);
  };
  switch (tool) {
    case 'replace_string_in_file':
      replacement(input);
      break;
    case 'insert_edit_into_file':
      add(str(input.filePath), 'change');
      break;
    case 'create_file':
      add(str(input.filePath), 'create');
      break;
    case 'multi_replace_string_in_file':
      for (const r of Array.isArray(input.replacements) ? input.replacements : []) replacement(record(r));
      break;
    case 'apply_patch':
      for (const f of filesOfPatch(str(input.input) ?? '')) add(f.path, f.intent);
      break;
  }
  return files;
}

/**
 * The files named by a patch in the `*** Begin Patch` format of `apply_patch`: `Update File` and
 * `Delete File` change an existing file, `Add File` and `Move to` (a rename's target) create one.
 */
export function filesOfPatch(patch: string): TouchedFile[] {
  const files: TouchedFile[] = [];
  for (const line of patch.split(/\r?\n/)) {
    const m = /^\*\*\* (Update File|Delete File|Add File|Move to):\s*(.+?)\s*$/.exec(line);
    if (!m) continue;
    files.push({ path: m[2], intent: m[1] === 'Add File' || m[1] === 'Move to' ? 'create' : 'change' });
  }
  return files;
}

/** The hook's stdout that stops a PreToolUse call; the model receives "Tool execution denied: <reason>". */
export function denyOutput(reason: string): string {
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
  });
}
