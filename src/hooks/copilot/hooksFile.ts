// The hooks file the bridge writes (`.github/hooks/agent-edit-guard.json`): for each event the gate
// uses, one command that runs the bridge script with the editor's own runtime. No secret and no
// socket address in it — those reach the script through the environment — so the file is the same
// for every window on this machine. Pure, so its exact text is unit-tested.

/** Where VS Code reads workspace hook files from, and our file's name. */
export const HOOKS_FOLDER = '.github/hooks';
export const HOOKS_FILE_NAME = 'agent-edit-guard.json';

/** The hook events the gate listens to (README "Guarding Copilot's own edit tools"). */
export const HOOK_EVENTS = ['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PreCompact'] as const;

/** Seconds Copilot waits for a hook; the script's own bound (4 s) is well inside it. */
const HOOK_TIMEOUT_S = 15;

/** POSIX sh: single quotes, with each ' written as '\'' */
export const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
/** PowerShell (Copilot runs `windows` commands with it): single quotes, ' doubled, and the call operator */
export const psQuote = (s: string) => `'${s.replace(/'/g, "''")}'`;

export function hooksFileContent(runtime: string, script: string): string {
  const entry = (event: string) => ({
    type: 'command',
    command: `${shQuote(runtime)} ${shQuote(script)} ${event}`,
    windows: `& ${psQuote(runtime)} ${psQuote(script)} ${event}`,
    // the editor's binary runs as plain Node with this (in VS Code desktop it is Electron)
    env: { ELECTRON_RUN_AS_NODE: '1' },
    timeout: HOOK_TIMEOUT_S,
  });
  const hooks = Object.fromEntries(HOOK_EVENTS.map((event) => [event, [entry(event)]]));
  return `${JSON.stringify({ hooks }, null, 2)}\n`;
}

/** Is this text a hooks file we wrote (so we may replace or remove it)? */
export function isOurHooksFile(text: string, scriptName: string): boolean {
  try {
    const parsed = JSON.parse(text) as { hooks?: Record<string, Array<{ command?: unknown }>> };
    const commands = Object.values(parsed.hooks ?? {}).flat().map((h) => h?.command);
    return commands.length > 0 && commands.every((c) => typeof c === 'string' && c.includes(scriptName));
  } catch {
    return false;
  }
}
