// The hooks bridge as the benchmarks see it from outside: turn it on or off the way a user does, and
// read the hook commands from the hooks file the extension wrote — never a command of our own — so
// the bench always times what Copilot runs (bench/host/hooks.ts, bench/copilot/index.ts).
import * as vscode from 'vscode';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** The environment the extension sets in its extension host while the bridge listens (src/hooks/protocol.ts). */
export const ENV_SOCKET = 'AGENT_EDIT_GUARD_SOCKET';
export const ENV_SECRET = 'AGENT_EDIT_GUARD_SECRET';
export const ENV_MISSED = 'AGENT_EDIT_GUARD_MISSED';
export const ENV_BOUND = 'AGENT_EDIT_GUARD_BOUND_MS';
export const BRIDGE_ENV = [ENV_SOCKET, ENV_SECRET, ENV_MISSED, ENV_BOUND];

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * THE one place that knows how the bridge is turned on and where its hooks file then is: the way a
 * user gets it (*Turn on*), `editGuard.guardCopilotTools: user` in the user settings, and
 * `~/.copilot/hooks/agent-edit-guard.json` (the run folder is HOME). Resolves once the file and the
 * extension host's address variables match `on`; returns the file.
 */
export async function setBridge(on: boolean, _ws: string): Promise<string> {
  const file = path.join(os.homedir(), '.copilot', 'hooks', 'agent-edit-guard.json');
  await vscode.workspace
    .getConfiguration('editGuard', null)
    .update('guardCopilotTools', on ? 'user' : undefined, vscode.ConfigurationTarget.Global);
  const end = Date.now() + 15000;
  while (fs.existsSync(file) !== on || !!process.env[ENV_SOCKET] !== on) {
    if (Date.now() > end)
      throw new Error(
        `the hooks bridge did not turn ${on ? 'on' : 'off'} (${file} ${fs.existsSync(file) ? 'exists' : 'missing'}, ${ENV_SOCKET} ${process.env[ENV_SOCKET] ? 'set' : 'unset'})`,
      );
    await sleep(50);
  }
  return file;
}

/** One hook command of an event, as Copilot takes it from a hooks file. */
export interface HookCommand {
  command: string;
  env: Record<string, string>;
  cwd?: string;
}

/**
 * The commands a hooks file gives each event, picked the way Copilot Chat 0.67 does
 * (docs/research-guard-by-default.md §2, §6): the OS's field (`linux`/`osx`, `bash` as their alias)
 * or else `command`; Claude-style `{ matcher, hooks: [...] }` entries contribute their inner commands.
 */
export function hookCommands(file: string): Record<string, HookCommand[]> {
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as { hooks?: Record<string, unknown[]> };
  const osField = process.platform === 'win32' ? 'windows' : process.platform === 'darwin' ? 'osx' : 'linux';
  const alias = process.platform === 'win32' ? 'powershell' : 'bash';
  const out: Record<string, HookCommand[]> = {};
  for (const [event, entries] of Object.entries(json.hooks ?? {})) {
    const flat = (entries as Array<Record<string, unknown>>).flatMap((e) =>
      Array.isArray(e.hooks) ? (e.hooks as Array<Record<string, unknown>>) : [e],
    );
    out[event] = flat
      .filter((e) => e.type === undefined || e.type === 'command')
      .map((e) => ({
        command: String(e[osField] ?? e[alias] ?? e.command ?? ''),
        env: (e.env as Record<string, string>) ?? {},
        ...(typeof e.cwd === 'string' ? { cwd: e.cwd } : {}),
      }))
      .filter((c) => c.command);
  }
  return out;
}
