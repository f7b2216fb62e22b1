// OpenAI's Codex CLI as the hooks bridge sees it (test/codex/FACTS.md): it has no file-read tool — the
// model reads with its shell tool, which hooks see as `Bash` with `tool_input.command`, the command as
// the model wrote it — and edits with `apply_patch`, whose `tool_input.command` is the raw patch,
// applied by Codex on disk, in place, past the editor. Its payloads carry a `turn_id` per prompt, and a
// shell `workdir` becomes the payload's `cwd`, so every path here is relative to that `cwd`.
import {
  denyPreToolUse,
  type AgentHooks,
  type HookEvent,
  payloadHead,
  SHELL_VERB,
  shellToolEvent,
  str,
  type TouchedFile,
} from '../../../hooks/event';
import { filesOfPatch } from '../../../hooks/patch';

/** The id its hook commands name. */
export const CODEX = 'codex';

/** Its shell tool, as hooks name it, and its patch tool. */
export const SHELL_TOOL = 'Bash';
export const PATCH_TOOL = 'apply_patch';
/** The tools whose hook events the gate needs: the tool events' matcher and the bash client's filter. */
export const CODEX_TOOLS = [SHELL_TOOL, PATCH_TOOL] as const;

const TOOL_VERB: Record<string, string> = { [SHELL_TOOL]: SHELL_VERB, [PATCH_TOOL]: 'patch' };

/**
 * Reads one hook payload of Codex: `apply_patch` changes every file its patch updates or deletes and
 * creates every file it adds or moves to; a `Bash` command is an edit when it runs `apply_patch` itself
 * (Codex applies that patch without an `apply_patch` hook and without a PostToolUse), and otherwise a shell
 * command whose reads and writes the shell level reads (src/shell/effects.ts, rule 16).
 */
export function parseCodexEvent(payload: unknown): HookEvent {
  const head = payloadHead(payload);
  if (!head.ok) return head.ignore;
  const { event, chat, tool, input, p } = head;
  const turn = str(p.turn_id);
  const withTurn = <T extends HookEvent>(e: T): T => (turn === undefined ? e : { ...e, turn });
  switch (event) {
    case 'UserPromptSubmit': {
      const prompt = str(p.prompt);
      return withTurn(prompt === undefined ? { kind: 'turn', chat } : { kind: 'turn', chat, prompt });
    }
    case 'PreCompact':
      return { kind: 'compact', chat };
    case 'PreToolUse':
    case 'PostToolUse': {
      const when = event === 'PreToolUse' ? 'before' : 'after';
      const command = str(input.command);
      if (tool !== SHELL_TOOL && tool !== PATCH_TOOL)
        return { kind: 'ignore', why: `${tool || 'a tool'} is not Codex's shell or apply_patch`, chat };
      if (command === undefined) return { kind: 'ignore', why: `${tool} without a command`, chat };
      const files = tool === PATCH_TOOL ? filesOfPatch(command) : patchThroughShell(command);
      if (files !== undefined) {
        if (files.length === 0) return { kind: 'ignore', why: `${tool}: a patch that names no file`, chat };
        return withTurn({ kind: `${when}-edit`, chat, tool: PATCH_TOOL, files });
      }
      // what any other command writes or shows is the shell level's to read (rule 16)
      return shellToolEvent(when, chat, SHELL_TOOL, input, turn === undefined ? {} : { turn });
    }
    default:
      return { kind: 'ignore', why: `${event} is not an event the gate uses`, chat };
  }
}

// --- the shell commands the gate reads

/**
 * A shell command that runs `apply_patch` (or its alias `applypatch`) itself — as a heredoc,
 * `apply_patch <<'EOF'\n*** Begin Patch…\nEOF`, or with the patch as its argument — optionally after
 * `cd DIR &&`: the files its patch names (relative to DIR, when there is one). Codex intercepts such a
 * command and applies the patch itself (test/codex/FACTS.md). Undefined: the command is not one.
 */
export function patchThroughShell(command: string): TouchedFile[] | undefined {
  const m = /^\s*(?:cd\s+('[^']*'|"[^"$`\\]*"|[A-Za-z0-9_./@%+=:,-]+)\s*&&\s*)?(?:apply_patch|applypatch)(?=[\s<'"]|$)/.exec(command);
  if (!m || !command.includes('*** Begin Patch')) return undefined;
  const dir = m[1] === undefined ? undefined : m[1].replace(/^(['"])(.*)\1$/s, '$2');
  const files = filesOfPatch(command);
  return dir === undefined ? files : files.map((f) => ({ ...f, path: f.path.startsWith('/') ? f.path : joinPath(dir, f.path) }));
}

const joinPath = (dir: string, file: string) => `${dir.replace(/\/+$/, '')}/${file}`;

/** Codex: it reads (through its shell) and writes (apply_patch) the disk itself, and its sessions are its own chats. */
export const codexAgent: AgentHooks = {
  id: CODEX,
  name: 'Codex',
  writesDisk: true,
  ownChats: true,
  toolNames: CODEX_TOOLS,
  parse: parseCodexEvent,
  verb: (tool) => TOOL_VERB[tool] ?? tool,
  deny: denyPreToolUse,
};
