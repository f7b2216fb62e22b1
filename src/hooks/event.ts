// What a hook event means for the gate, whichever agent sent it: which chat, which files a tool reads
// or is about to change. Each agent (src/agents/<agent>/node/) reads its own payloads into this shape
// and says how its refusals reach the model; the router of hook events (hookRouter.ts) knows nothing
// else of it. Pure: every field of a payload is read defensively, since hooks are preview features.

/**
 * A file a tool call touches. `create`: the call means to make a new file (allowed when it does not
 * exist). `quotes`: the texts the tool will look for in the file and replace (rule 12: each must stand
 * in the file as written); absent for a tool that quotes nothing exactly.
 */
export interface TouchedFile {
  path: string;
  intent: 'change' | 'create';
  quotes?: string[];
}

/**
 * `turn`, on the events of a turn: the agent's own id of the turn, when its payloads carry one (Codex's
 * `turn_id`); without it the gate counts the chat's `UserPromptSubmit`s (docs/design.md §Chat sessions and turns).
 * `call`: the agent's id of one tool call, the same in its events before and after (where it gives one).
 * `response`, before a call: the model response the call is of, for an agent whose payloads name no call but
 * tell one response's calls from the next one's (the Copilot runtime stamps every `PreToolUse` of one response
 * with one timestamp): a call of a later response is never taken for a sibling (rule 14).
 * `failed`, after a call: the agent's own tool failed or refused it — it showed nothing, wrote nothing.
 */
export type HookEvent =
  /** the user sent a message: a new turn of that chat begins; `prompt`, the message as the agent passes it */
  | { kind: 'turn'; chat: string; prompt?: string; turn?: string }
  /** a read is about to run: the version it will show is the text now (the disk's, for an agent that reads the disk) */
  | { kind: 'before-read'; chat: string; tool: string; files: string[]; turn?: string; call?: string; response?: string }
  /** a read ran (or, `failed`, did not) */
  | { kind: 'after-read'; chat: string; tool: string; files: string[]; turn?: string; call?: string; failed?: boolean }
  /** an edit is about to run: check each file */
  | { kind: 'before-edit'; chat: string; tool: string; files: TouchedFile[]; turn?: string; call?: string; response?: string }
  /** an edit ran: the agent's own write (or, `failed`, no write at all) */
  | { kind: 'after-edit'; chat: string; tool: string; files: TouchedFile[]; turn?: string; call?: string; failed?: boolean }
  /**
   * the agent's shell tool is about to run a command (`dir`: the folder the call names, else the payload's `cwd`):
   * the files it writes are checked as edits, a plain read of one file marks it (rule 16)
   */
  | { kind: 'before-shell'; chat: string; tool: string; command: string; dir?: string; turn?: string; call?: string; response?: string }
  /** a shell command ran (or, `failed`, the agent's tool did not run it) */
  | { kind: 'after-shell'; chat: string; tool: string; command: string; dir?: string; turn?: string; call?: string; failed?: boolean }
  /** the chat is about to be compacted: the model loses the text it read */
  | { kind: 'compact'; chat: string }
  /** one of our guarded tools is about to run in this chat: it learns the chat and turn from this */
  | { kind: 'guarded-call'; chat: string; call: GuardedToolCall }
  /** nothing for the gate; `chat` when the payload names one (its event still tells that the chat's earlier tool is done) */
  | { kind: 'ignore'; why: string; chat?: string };

/** The events before a tool call runs, and after it ran, of each kind of call: a read, an edit, a shell command. */
export type BeforeCall = Extract<HookEvent, { kind: 'before-read' | 'before-edit' | 'before-shell' }>;
export type AfterCall = Extract<HookEvent, { kind: 'after-read' | 'after-edit' | 'after-shell' }>;
export const isBeforeCall = (e: HookEvent): e is BeforeCall =>
  e.kind === 'before-read' || e.kind === 'before-edit' || e.kind === 'before-shell';
export const isAfterCall = (e: HookEvent): e is AfterCall => e.kind === 'after-read' || e.kind === 'after-edit' || e.kind === 'after-shell';

/** An agent whose hooks the bridge answers: what the gate needs to know of it. */
export interface AgentHooks {
  /** its id, as its hook commands name it (`copilot`, `claude-code`, `codex`) */
  readonly id: string;
  /** how the user knows it ("Copilot", "Claude Code", "Codex") */
  readonly name: string;
  /**
   * It reads and writes the disk itself, past the editor: what it read is the disk's text, and it must
   * not write under a buffer with unsaved changes (rule 13).
   */
  readonly writesDisk: boolean;
  /** Its chats are its own, not VS Code chats the guarded tools share: the surfaces name them by the agent. */
  readonly ownChats: boolean;
  /**
   * The tool calls of one model response may run at once (pi checks them all, then runs them together): a call's
   * effects are settled at its own result (its events name the `call`) or at the chat's next event of another
   * kind, never at a sibling's check. Absent: one tool at a time, so any next event means the last call is done.
   */
  readonly parallelCalls?: boolean;
  /**
   * The longest it lets a hook take before it fails the run (Cline: 3 s for a plugin's hook): the gate answers
   * within this, a wait for another chat's write included. Absent: `ANSWER_WITHIN_MS` (protocol.ts).
   */
  readonly answerWithinMs?: number;
  /**
   * The hook entries it runs, when they are another agent's: two hosts that read one hooks file (Copilot's
   * Local agent and the Copilot harness read `agent-edit-guard.json`) share its commands' agent id, and
   * each payload goes to the agent that claims it. Absent: its own entries (`id`).
   */
  readonly channel?: string;
  /**
   * Of the agents on one channel: is this payload this agent's? `origin`: what the hook's client saw of the
   * process that ran it (`HookOrigin`). A chat once claimed stays its agent's.
   */
  claims?(payload: unknown, origin: HookOrigin): boolean;
  /**
   * The tool names its hooks report for the tools the gate needs: the bash client asks the extension
   * about these (and drops other tools' events while their chat has nothing to settle).
   */
  readonly toolNames: readonly string[];
  /** One payload of its hooks, as the gate sees it. Anything unexpected is `ignore` (the call is then allowed). */
  parse(payload: unknown): HookEvent;
  /** What each of its tools does, in the word a refusal and a label use ("edit", "patch"). */
  verb(tool: string): string;
  /** The hook's stdout that stops a tool call before it runs, with the reason the model then reads. */
  deny(reason: string): string;
}

/**
 * What a hook's client saw of the program that ran it, besides the payload: the name of its parent process
 * (`parent`, as the OS names the executable: `copilot`, `copilot-runtime`), where the client could read it.
 * Two programs that run one hooks file with payloads of one shape (the Copilot CLI and the Copilot harness)
 * are told apart by it.
 */
export interface HookOrigin {
  parent?: string;
}

export const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
export const record = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/**
 * One of our own guarded tools, as another agent's hook names it (the Copilot harness calls them by
 * their reference names): the hook router tells the tool which chat and turn the call is of, since the
 * call itself arrives without a chat the extension host knows (src/chat/expectedCalls.ts).
 */
export interface GuardedToolCall {
  /** the name as the hook gave it (`guardedRead`, or the tool id) */
  tool: string;
  input: unknown;
}

/** The hook events the gate listens to, under the names VS Code's hooks, Claude Code's and Codex's share. */
export const GATED_HOOK_EVENTS = ['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PreCompact'] as const;
/**
 * `PostToolUseFailure`: a call the agent's own tool failed (Claude Code, Qwen Code, the Copilot runtime: test/copilotCli/FACTS.md).
 * Without it the call would be taken as done at the chat's next event, as if it had written (rule 14). VS Code
 * skips an event it does not know in a hooks file, so the Local agent reads the same file unharmed.
 */
export const FAILURE_EVENT = 'PostToolUseFailure';
/** The events of the agents that report a failed call: the gated ones and `PostToolUseFailure`. */
export const GATED_HOOK_EVENTS_WITH_FAILURES = [...GATED_HOOK_EVENTS, FAILURE_EVENT] as const;
export type HookEventName = (typeof GATED_HOOK_EVENTS_WITH_FAILURES)[number];
/** Of those, the events of one tool call: their entries name the tools whose events the gate needs. */
export const TOOL_EVENTS: ReadonlySet<string> = new Set<HookEventName>(['PreToolUse', 'PostToolUse', FAILURE_EVENT]);

/**
 * The common head of a VS Code-format payload (Copilot's and Claude Code's): its event and chat, or
 * why it is nothing for the gate; `tool` and `input` for a tool event.
 */
export function payloadHead(
  payload: unknown,
):
  | { ok: true; event: string; chat: string; tool: string; input: Record<string, unknown>; p: Record<string, unknown> }
  | { ok: false; ignore: HookEvent } {
  const p = record(payload);
  if (!p) return { ok: false, ignore: { kind: 'ignore', why: 'the payload is not a JSON object' } };
  const event = str(p.hook_event_name);
  const chat = str(p.session_id);
  if (!event) return { ok: false, ignore: { kind: 'ignore', why: 'no hook_event_name' } };
  if (!chat) return { ok: false, ignore: { kind: 'ignore', why: `${event} without a session_id` } };
  return { ok: true, event, chat, tool: str(p.tool_name) ?? '', input: record(p.tool_input) ?? {}, p };
}

type PayloadHead = Extract<ReturnType<typeof payloadHead>, { ok: true }>;

/**
 * One VS Code-format payload, read as every agent that speaks it reads it: a prompt starts a turn (with
 * its words), `PreCompact` is a compaction, and a tool event goes to the agent's own `toolEvent` (`when`:
 * before or after the tool ran); any other event is nothing for the gate.
 */
export function readVsCodeFormat(payload: unknown, toolEvent: (when: 'before' | 'after', head: PayloadHead) => HookEvent): HookEvent {
  const head = payloadHead(payload);
  if (!head.ok) return head.ignore;
  const { event, chat, p } = head;
  switch (event) {
    case 'UserPromptSubmit': {
      const prompt = str(p.prompt);
      return prompt === undefined ? { kind: 'turn', chat } : { kind: 'turn', chat, prompt };
    }
    case 'PreCompact':
      return { kind: 'compact', chat };
    case 'PreToolUse':
    case 'PostToolUse':
      return toolEvent(event === 'PreToolUse' ? 'before' : 'after', head);
    case FAILURE_EVENT: {
      const after = toolEvent('after', head);
      return isAfterCall(after) ? { ...after, failed: true } : after;
    }
    default:
      return { kind: 'ignore', why: `${event} is not an event the gate uses`, chat };
  }
}

/**
 * The event an in-process plugin sends when its agent asks the model again (pi's `turn_start`, Cline's
 * `beforeModel`): nothing for the gate but the chat's next event, so the calls of the last response have run.
 */
export const MODEL_REQUEST = 'ModelRequest';

/** The VS Code-format hook answer that stops a PreToolUse call (Copilot's, Claude Code's and Codex's hooks read it). */
export function denyPreToolUse(reason: string): string {
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
  });
}

/**
 * The file tools of an agent that names the file `file_path`, quotes the text it replaces in `old_string`
 * and writes whole files (Gemini CLI, Qwen Code); `agent` names it in the reason a tool is ignored.
 */
export interface FilePathTools {
  agent: string;
  read: string;
  replace: string;
  write: string;
  /** its shell tool (`command`, and the folder it runs in as `dir_path` or `directory`): rule 16 */
  shell: string;
}

/**
 * One tool event of such an agent: its read marks; its whole-file write makes a file or overwrites it; its
 * replace quotes its `old_string`, which must stand in the file as written (rule 12: Gemini CLI and Qwen Code
 * correct a quote they do not find with their model), or makes a new file with an empty one.
 */
export function filePathToolEvent(
  tools: FilePathTools,
  when: 'before' | 'after',
  chat: string,
  tool: string,
  input: Record<string, unknown>,
): HookEvent {
  if (tool === tools.shell) return shellToolEvent(when, chat, tool, input);
  if (tool !== tools.read && tool !== tools.replace && tool !== tools.write)
    return { kind: 'ignore', why: `${tool || 'a tool'} is not one of ${tools.agent}'s file or shell tools`, chat };
  const file = str(input.file_path);
  if (!file) return { kind: 'ignore', why: `${tool} names no file`, chat };
  if (tool === tools.read) return { kind: `${when}-read`, chat, tool, files: [file] };
  const quote = input.old_string;
  const touched: TouchedFile =
    tool === tools.replace && typeof quote === 'string' && quote !== ''
      ? { path: file, intent: 'change', quotes: [quote] }
      : { path: file, intent: 'create' };
  return { kind: `${when}-edit`, chat, tool, files: [touched] };
}

/** How a refusal and a label name a call of an agent's shell tool ("Claude Code shell command"). */
export const SHELL_VERB = 'shell command';

/**
 * One event of an agent's shell tool: the command as the model wrote it, and the folder it runs in where the call
 * names one (Gemini CLI's and Qwen Code's `dir_path`/`directory`, opencode's `workdir`), read as the payload's `cwd` reads.
 */
export function shellToolEvent(
  when: 'before' | 'after',
  chat: string,
  tool: string,
  input: Record<string, unknown>,
  of: { call?: string; response?: string; turn?: string } = {},
): HookEvent {
  // Cline's `run_commands` runs a list, one after the other
  const list = Array.isArray(input.commands) ? input.commands.filter((c): c is string => typeof c === 'string') : [];
  const command = str(input.command) ?? str(list.join('\n'));
  if (command === undefined) return { kind: 'ignore', why: `${tool} without a command`, chat };
  const dir = str(input.dir_path) ?? str(input.directory) ?? str(input.workdir) ?? str(input.cwd);
  const response = when === 'before' ? of.response : undefined;
  return {
    kind: `${when}-shell`,
    chat,
    tool,
    command,
    ...(dir !== undefined ? { dir } : {}),
    ...(of.turn !== undefined ? { turn: of.turn } : {}),
    ...(of.call !== undefined ? { call: of.call } : {}),
    ...(response !== undefined ? { response } : {}),
  };
}
