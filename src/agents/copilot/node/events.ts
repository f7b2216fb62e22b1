// Copilot's Local agent (Copilot Chat's agent loop in the extension host) as the hooks bridge sees it:
// its file tools by their model-facing names, what each does, and what one of its hook events means
// for the gate. Payload shapes were recorded from Copilot Chat 0.67's real agent loop
// (docs/design.md §VS Code and Copilot facts); every field is read defensively.
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
import { COPILOT } from '../../../hooks/channels';
import { filesOfPatch } from '../../../hooks/patch';

/** The id its hook commands name: Copilot's hooks file, which the Copilot harness runs too (channels.ts). */
export { COPILOT };

/** Copilot's built-in read tool, by its model-facing name. */
export const READ_TOOL = 'read_file';

/** Its terminal tool: the files a command writes are checked as edits (rule 16). */
export const SHELL_TOOL = 'run_in_terminal';

/** Copilot's built-in edit tools the gate stands in front of, by their model-facing names. */
export const EDIT_TOOLS = [
  'replace_string_in_file',
  'multi_replace_string_in_file',
  'insert_edit_into_file',
  'apply_patch',
  'create_file',
] as const;
export type CopilotEditTool = (typeof EDIT_TOOLS)[number];
const isEditTool = (name: string): name is CopilotEditTool => (EDIT_TOOLS as readonly string[]).includes(name);

/** What each of Copilot's file tools does, in the word a refusal uses ("your patch"). */
export const TOOL_VERB: Record<CopilotEditTool | typeof READ_TOOL | typeof SHELL_TOOL, string> = {
  [READ_TOOL]: 'read',
  [SHELL_TOOL]: SHELL_VERB,
  replace_string_in_file: 'replace',
  multi_replace_string_in_file: 'replace',
  insert_edit_into_file: 'edit',
  apply_patch: 'patch',
  create_file: 'write',
};

/** Copilot's internal tool ids, in case a hook reports those instead of the model-facing names. */
const INTERNAL_NAMES: Record<string, CopilotEditTool | typeof READ_TOOL | typeof SHELL_TOOL> = {
  copilot_readFile: READ_TOOL,
  copilot_runInTerminal: SHELL_TOOL,
  copilot_replaceString: 'replace_string_in_file',
  copilot_multiReplaceString: 'multi_replace_string_in_file',
  copilot_insertEdit: 'insert_edit_into_file',
  copilot_applyPatch: 'apply_patch',
  copilot_createFile: 'create_file',
};

/** Every name a hook may give the read and edit tools: the events of other tools change nothing for the gate. */
export const GATED_TOOL_NAMES: readonly string[] = [READ_TOOL, SHELL_TOOL, ...EDIT_TOOLS, ...Object.keys(INTERNAL_NAMES)];

const toolNameOf = (name: string): string => INTERNAL_NAMES[name] ?? name;

/** Reads one hook payload of Copilot's Local agent. */
export function parseCopilotEvent(payload: unknown): HookEvent {
  return readVsCodeFormat(payload, (when, head) => {
    const { chat, input } = head;
    const tool = toolNameOf(head.tool);
    if (tool === SHELL_TOOL) return shellToolEvent(when, chat, tool, input);
    if (tool === READ_TOOL) {
      const file = str(input.filePath);
      if (!file) return { kind: 'ignore', why: 'read_file without a filePath', chat };
      return { kind: `${when}-read`, chat, tool, files: [file] };
    }
    if (!isEditTool(tool)) return { kind: 'ignore', why: `${tool || 'a tool'} is not a built-in file tool`, chat };
    const files = filesOfEdit(tool, input);
    if (files.length === 0) return { kind: 'ignore', why: `${tool} names no file`, chat };
    return { kind: `${when}-edit`, chat, tool, files };
  });
}

/** The files one built-in edit call would touch, each once, in order. */
export function filesOfEdit(tool: CopilotEditTool, input: Record<string, unknown>): TouchedFile[] {
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
 * Copilot's Local agent: it edits through the editor (its edits land in VS Code's documents), and its
 * chats are VS Code chats, shared with the guarded tools. A denial reaches the model as "Tool
 * execution denied: <reason>".
 */
export const copilotAgent: AgentHooks = {
  id: COPILOT,
  name: 'Copilot',
  writesDisk: false,
  ownChats: false,
  toolNames: GATED_TOOL_NAMES,
  parse: parseCopilotEvent,
  verb: (tool) => TOOL_VERB[toolNameOf(tool) as keyof typeof TOOL_VERB] ?? tool,
  deny: denyPreToolUse,
};
