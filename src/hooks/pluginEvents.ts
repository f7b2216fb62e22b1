// The agents with no command hooks of their own (pi, Cline, opencode), as the gate sees them: our plugin, loaded
// into the agent's process (src/agents/<agent>/node/plugin.ts), sends each event the gate needs in the shape of VS
// Code's hook payloads, every path resolved as the agent resolves it, and each tool event names its call
// (`tool_use_id`). What is the same for all of them is here, once: they read and write the disk themselves, past
// the editor; their sessions are their own chats; one response's calls may run at once; a call is settled at its
// own result. Each agent's events.ts says only what is its own: its id and name, its tools and what each touches.
import { denyPreToolUse, type AgentHooks, type HookEvent, readVsCodeFormat, shellToolEvent, str, type TouchedFile } from './event';

/** One agent whose plugin sends its events: what its events.ts declares. */
export interface PluginAgent {
  /** the id its events are sent under */
  id: string;
  /** how the user knows it; it names the agent in the reason a tool is ignored */
  name: string;
  /** its file tools, whose calls are reads or edits */
  fileTools: readonly string[];
  /** its shell tool: the files its commands write are checked as edits (rule 16) */
  shellTool: string;
  /**
   * The files a call of one of its file tools touches: `read`, the files a read shows; `edit`, what an edit
   * changes or makes. An empty list: the call names no file (nothing for the gate).
   */
  filesOf(tool: string, input: Record<string, unknown>): { read: string[] } | { edit: TouchedFile[] };
  /** what each of its tools does, in the word a refusal and a label use ("edit", "patch") */
  verbs: Readonly<Record<string, string>>;
  /** the longest it lets a plugin's hook take (`AgentHooks.answerWithinMs`) */
  answerWithinMs?: number;
}

/** One tool event of the agent's, `call` its id of the call. */
function pluginToolEvent(
  agent: PluginAgent,
  when: 'before' | 'after',
  chat: string,
  tool: string,
  input: Record<string, unknown>,
  call: string | undefined,
): HookEvent {
  const withCall = call !== undefined ? { call } : {};
  if (tool === agent.shellTool) return shellToolEvent(when, chat, tool, input, withCall);
  if (!agent.fileTools.includes(tool)) return { kind: 'ignore', why: `${tool || 'a tool'} is not one of ${agent.name}'s file tools`, chat };
  const touched = agent.filesOf(tool, input);
  const files = 'read' in touched ? touched.read : touched.edit;
  if (files.length === 0) return { kind: 'ignore', why: `${tool} names no file`, chat };
  return 'read' in touched
    ? { kind: `${when}-read`, chat, tool, files: touched.read, ...withCall }
    : { kind: `${when}-edit`, chat, tool, files: touched.edit, ...withCall };
}

/**
 * How the hook router reads and answers the agent: one event as its plugin sends it (`ModelRequest` and anything
 * else are nothing for the gate but the chat's next event), a deny as VS Code's.
 */
export function pluginAgentHooks(agent: PluginAgent): AgentHooks {
  return {
    id: agent.id,
    name: agent.name,
    writesDisk: true,
    ownChats: true,
    parallelCalls: true,
    ...(agent.answerWithinMs !== undefined ? { answerWithinMs: agent.answerWithinMs } : {}),
    // the tools whose events its plugin sends
    toolNames: [...agent.fileTools, agent.shellTool],
    parse: (payload) =>
      readVsCodeFormat(payload, (when, { chat, tool, input, p }) => pluginToolEvent(agent, when, chat, tool, input, str(p.tool_use_id))),
    verb: (tool) => agent.verbs[tool] ?? tool,
    deny: denyPreToolUse,
  };
}
