// The hooks file the bridge writes (`agent-edit-guard.json`, at user level or in a workspace folder):
// for each event the gate uses, one command. No secret and no address in it — those reach the
// command through the environment — so the file is the same for every window on this machine, and
// a window where the extension is not running pays one `sh` and one `cat` per hook: the command's
// first test finds no address, and only the payload is read, before any client starts (docs/design.md §Surfaces). Pure, so its
// exact text is unit-tested.
import { ENV } from '../bridgeProtocol';
import { GATED_TOOL_NAMES } from './hookEvents';

/** Where VS Code reads workspace hook files from, and our file's name. */
export const HOOKS_FOLDER = '.github/hooks';
export const HOOKS_FILE_NAME = 'agent-edit-guard.json';
/** Where VS Code reads a user's own hook files from (`chat.hookFilesLocations`' `~/.copilot/hooks`), under the OS home. */
export const USER_HOOKS_FOLDER = '.copilot/hooks';

/** The hook events the gate listens to (README "Guarding Copilot's own edit tools"). */
export const HOOK_EVENTS = ['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PreCompact'] as const;
type HookEventName = (typeof HOOK_EVENTS)[number];

/**
 * The tools an event matters for; the bash client drops the events of other tools without asking
 * the extension (VS Code ignores a hook's `matcher`, so every tool call runs every hook) — unless the
 * chat has a call still to settle: its next event, of any tool, is how the gate learns that its
 * earlier edit is done (builtinToolGate.ts), before that call can change the file.
 */
const TOOLS_OF_EVENT: Partial<Record<HookEventName, readonly string[]>> = { PreToolUse: GATED_TOOL_NAMES, PostToolUse: GATED_TOOL_NAMES };

/** Seconds Copilot (and Claude Code) waits for a hook; the client's own bound (4 s) is well inside it. */
export const HOOK_TIMEOUT_S = 15;

/** What a hook command runs. */
export interface HookClients {
  /** the editor's runtime (run as plain Node) and the Node client, dist/hook-bridge.js */
  runtime: string;
  nodeClient: string;
  /** bash, where it was found, and the bash client, dist/hook-client.sh */
  bash: string | undefined;
  bashClient: string;
}

/** POSIX sh: single quotes, with each ' written as '\'' */
export const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
/** PowerShell (Copilot runs `windows` commands with it): single quotes, ' doubled, and the call operator */
export const psQuote = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** What the editor's binary needs in its environment to run as plain Node (in VS Code desktop it is Electron). */
export const RUNTIME_ENV = { ELECTRON_RUN_AS_NODE: '1' } as const;

/**
 * The POSIX `sh` command line of one hook event, the same for every agent that runs our hooks: exit at
 * once (after reading the payload) unless this window's extension is listening and the client is
 * there, else run the bash client with the tools that event matters for (`tools`, its filter), or the
 * Node client. `inlineRuntimeEnv`: for a host whose hook entries carry no `env` of their own (Claude
 * Code), the Node client's environment goes on the command line instead.
 */
export function hookCommand(clients: HookClients, event: string, tools: readonly string[], inlineRuntimeEnv = false): string {
  const [program, client, args] = clients.bash
    ? [clients.bash, clients.bashClient, [event, ...tools]]
    : [clients.runtime, clients.nodeClient, [event]];
  const env =
    !clients.bash && inlineRuntimeEnv
      ? `${Object.entries(RUNTIME_ENV)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')} `
      : '';
  // the early exit still reads the payload: Copilot writes it with no error handler, so a closed pipe (EPIPE) would surface in its extension host
  return `[ -n "$${ENV.socket}" ] && [ -f ${shQuote(client)} ] || exec cat >/dev/null; ${env}exec ${[program, client, ...args].map(shQuote).join(' ')}`;
}

export function hooksFileContent(clients: HookClients): string {
  const entry = (event: HookEventName) => ({
    type: 'command',
    command: hookCommand(clients, event, TOOLS_OF_EVENT[event] ?? []),
    windows: `if (-not $env:${ENV.socket}) { $null = [Console]::In.ReadToEnd(); exit 0 }; & ${psQuote(clients.runtime)} ${psQuote(clients.nodeClient)} ${event}`,
    // the editor's binary runs as plain Node with this (in VS Code desktop it is Electron)
    env: { ...RUNTIME_ENV },
    timeout: HOOK_TIMEOUT_S,
  });
  const hooks = Object.fromEntries(HOOK_EVENTS.map((event) => [event, [entry(event)]]));
  return `${JSON.stringify({ hooks }, null, 2)}\n`;
}

/** Is this text a hooks file we wrote (so we may replace or remove it)? Every command runs one of our clients. */
export function isOurHooksFile(text: string, clientNames: readonly string[]): boolean {
  try {
    const parsed = JSON.parse(text) as { hooks?: Record<string, Array<{ command?: unknown }>> };
    const commands = Object.values(parsed.hooks ?? {})
      .flat()
      .map((h) => h?.command);
    return commands.length > 0 && commands.every((c) => typeof c === 'string' && clientNames.some((name) => c.includes(name)));
  } catch {
    return false;
  }
}
