// The command line an agent's hook entry runs, the same for every agent: exit at once unless our
// client is there and a window's extension may be listening — an address in the environment (the
// agent descends from a window's extension host), or a window's entry (discovery.ts: an agent started
// anywhere else) — else run a client with the agent's id and the event. No secret and no address in it — those reach the command
// through the environment — so an entry is the same for every window on this machine, and a window
// where the extension is not running pays one `sh` and one `cat` per hook (docs/design.md §Surfaces).
// Pure, so its exact text is unit-tested.
import * as path from 'node:path';
import { CLIENT_SCRIPT_NAME } from './bashClient';
import { DISCOVERY_PATH, ENV, ENTRY_SUFFIX } from './protocol';

/** The Node client's file in dist/ (scripts/build.mjs). */
export const NODE_CLIENT_NAME = 'hook-bridge.js';
/** The file names our hook commands run: an entry whose commands name only these is ours. */
export const CLIENT_NAMES = [NODE_CLIENT_NAME, CLIENT_SCRIPT_NAME] as const;

/**
 * Where an agent's in-process plugin (`src/agents/<agent>/node/plugin.ts`, bundled by scripts/build.mjs to
 * `dist/plugins/<agent>.js`) sits: beside the Node client. The file an agent loads requires it from there.
 */
export const pluginFile = (clients: HookClients, agentFolder: string) =>
  path.join(path.dirname(clients.nodeClient), 'plugins', `${agentFolder}.js`);

/** Seconds an agent waits for a hook; the client's own bound (4 s, protocol.ts) is well inside it. */
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
/** PowerShell (agents run `windows` commands with it): single quotes, ' doubled, and the call operator */
export const psQuote = (s: string) => `'${s.replace(/['\u2018\u2019\u201A\u201B]/g, (q) => q + q)}'`;

/** What the editor's binary needs in its environment to run as plain Node (in VS Code desktop it is Electron). */
export const RUNTIME_ENV = { ELECTRON_RUN_AS_NODE: '1' } as const;

/**
 * The POSIX `sh` command line of one hook event of one agent: exit at once (after reading the payload)
 * unless this window's extension is listening and the client is there, else run the bash client with
 * the tools that event matters for (`tools`, its filter), or the Node client. `inlineRuntimeEnv`: for an
 * agent whose hook entries carry no `env` of their own (Claude Code), the Node client's environment
 * goes on the command line instead.
 */
export function hookCommand(
  clients: HookClients,
  agent: string,
  event: string,
  tools: readonly string[],
  inlineRuntimeEnv = false,
): string {
  const [program, client, args] = clients.bash
    ? [clients.bash, clients.bashClient, [agent, event, ...tools]]
    : [clients.runtime, clients.nodeClient, [agent, event]];
  const env =
    !clients.bash && inlineRuntimeEnv
      ? `${Object.entries(RUNTIME_ENV)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')} `
      : '';
  // the early exit still reads the payload: an agent may write it with no error handler, so a closed pipe (EPIPE) would surface in it
  return `[ -f ${shQuote(client)} ] && { [ -n "$${ENV.socket}" ] || ${anyEntry}; } || exec cat >/dev/null; ${env}exec ${[program, client, ...args].map(shQuote).join(' ')}`;
}

/** sh: is there a window's entry at all? (The client then picks the window, if any, whose folder holds the file.) */
const anyEntry = `{ set -- "$HOME/${DISCOVERY_PATH}/"*${ENTRY_SUFFIX}; [ -e "$1" ]; }`;

/** The PowerShell command line of one hook event of one agent (Windows), with the same early exit. */
export function windowsHookCommand(clients: HookClients, agent: string, event: string): string {
  const windowEntries = `$HOME\\${DISCOVERY_PATH.replace(/\//g, '\\')}\\*${ENTRY_SUFFIX}`;
  return `if (-not $env:${ENV.socket} -and -not (Test-Path "${windowEntries}")) { $null = [Console]::In.ReadToEnd(); exit 0 }; & ${psQuote(clients.runtime)} ${psQuote(clients.nodeClient)} ${agent} ${event}`;
}

/** A hook command of ours: it runs one of our clients. */
export function isOurCommand(command: unknown): boolean {
  return typeof command === 'string' && CLIENT_NAMES.some((name) => command.includes(name));
}
