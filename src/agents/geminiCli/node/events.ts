// Gemini CLI as the hooks bridge sees it (test/geminiCli/FACTS.md): its file tools, what each does, and
// what one of its hook events means for the gate. Its hooks have their own event names (`BeforeTool`,
// `AfterTool`, `BeforeAgent`) over the payload fields VS Code's hooks use too; a deny is
// `{"decision":"deny","reason":…}`, and the model reads "Tool execution blocked: <reason>". It reads and
// writes the disk itself, past the editor, and its payloads carry no turn: its `BeforeAgent`s are counted.
// Its `PreCompress` fires before every model request (trigger `auto`, whether or not it compresses), so it
// cannot say that the model lost what it read: the gate does not listen to it (docs/agents.md, its limits).
import { type FilePathTools, filePathToolEvent, type AgentHooks, type HookEvent, payloadHead, SHELL_VERB, str } from '../../../hooks/event';

/** The id its hook commands name. */
export const GEMINI_CLI = 'gemini-cli';

/** `replace` changes a file (or makes one, with an empty `old_string`); `write_file` makes or overwrites one. */
const TOOLS: FilePathTools = {
  agent: 'Gemini CLI',
  read: 'read_file',
  replace: 'replace',
  write: 'write_file',
  shell: 'run_shell_command',
};
export const GATED_TOOLS = [TOOLS.read, TOOLS.replace, TOOLS.write, TOOLS.shell] as const;

const TOOL_VERB: Record<string, string> = { read_file: 'read', replace: 'replace', write_file: 'write', [TOOLS.shell]: SHELL_VERB };

/** Its names of the events the gate listens to. */
export const GEMINI_EVENTS = { turn: 'BeforeAgent', before: 'BeforeTool', after: 'AfterTool' } as const;
export type GeminiHookEvent = (typeof GEMINI_EVENTS)[keyof typeof GEMINI_EVENTS];
/** Of those, the events of one tool call: their entries name the tools whose events the gate needs. */
export const GEMINI_TOOL_EVENTS: ReadonlySet<string> = new Set<GeminiHookEvent>([GEMINI_EVENTS.before, GEMINI_EVENTS.after]);

/**
 * Reads one hook payload of Gemini CLI: `read_file` marks (a range of lines too: the gate keeps whole-file
 * marks); `replace` changes the file and quotes its `old_string` (rule 12: Gemini CLI may correct a quote
 * it does not find with its model, so the quote must stand in the file as written), or makes the file
 * with an empty one; `write_file` makes a file or overwrites it.
 */
export function parseGeminiCliEvent(payload: unknown): HookEvent {
  const head = payloadHead(payload);
  if (!head.ok) return head.ignore;
  const { event, chat, tool, input, p } = head;
  switch (event) {
    case GEMINI_EVENTS.turn: {
      const prompt = str(p.prompt);
      return prompt === undefined ? { kind: 'turn', chat } : { kind: 'turn', chat, prompt };
    }
    case GEMINI_EVENTS.before:
    case GEMINI_EVENTS.after:
      return filePathToolEvent(TOOLS, event === GEMINI_EVENTS.before ? 'before' : 'after', chat, tool, input);
    default:
      return { kind: 'ignore', why: `${event} is not an event the gate uses`, chat };
  }
}

/** The hook answer that stops a `BeforeTool` call: the model reads "Tool execution blocked: <reason>". */
export const denyBeforeTool = (reason: string) => JSON.stringify({ decision: 'deny', reason });

/** Gemini CLI: it reads and writes the disk itself, and its sessions are its own chats. */
export const geminiCliAgent: AgentHooks = {
  id: GEMINI_CLI,
  name: 'Gemini CLI',
  writesDisk: true,
  ownChats: true,
  toolNames: GATED_TOOLS,
  parse: parseGeminiCliEvent,
  verb: (tool) => TOOL_VERB[tool] ?? tool,
  deny: denyBeforeTool,
};
