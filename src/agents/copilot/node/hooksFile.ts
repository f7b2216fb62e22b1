// The hooks file that gates Copilot's own edit tools (`agent-edit-guard.json`, at user level or in a
// workspace folder): for each event the gate uses, one command (src/hooks/command.ts), the same for
// every window on this machine. Pure, so its exact text is unit-tested.
import { type HookClients, HOOK_TIMEOUT_S, hookCommand, isOurCommand, RUNTIME_ENV, windowsHookCommand } from '../../../hooks/command';
import { GATED_HOOK_EVENTS_WITH_FAILURES, type HookEventName, TOOL_EVENTS } from '../../../hooks/event';
import { COPILOT, GATED_TOOL_NAMES } from './events';

/** Where VS Code reads workspace hook files from, and our file's name. */
export const HOOKS_FOLDER = '.github/hooks';
export const HOOKS_FILE_NAME = 'agent-edit-guard.json';
/** Where VS Code reads a user's own hook files from (`chat.hookFilesLocations`' `~/.copilot/hooks`), under the OS home. */
export const USER_HOOKS_FOLDER = '.copilot/hooks';

/**
 * The hook events the gate listens to (docs/design.md §Surfaces, the hooks bridge); `PostToolUseFailure` for the
 * Copilot runtime (the harness and the Copilot CLI), which VS Code's Local agent skips.
 */
export const HOOK_EVENTS = GATED_HOOK_EVENTS_WITH_FAILURES;
type CopilotHookEvent = HookEventName;

/**
 * The file, for every host that reads it: `tools` are the tool names whose events the gate needs — the
 * Local agent's (the default) and the Copilot harness's, which runs this file too. The bash client drops
 * the events of other tools without asking the extension (VS Code ignores a hook's `matcher`, so every
 * tool call runs every hook) — unless the chat has a call still to settle: its next event, of any tool,
 * is how the gate learns that its earlier edit is done (src/hooks/hookRouter.ts), before that call can
 * change the file.
 */
export function hooksFileContent(clients: HookClients, tools: readonly string[] = GATED_TOOL_NAMES): string {
  const entry = (event: CopilotHookEvent) => ({
    type: 'command',
    command: hookCommand(clients, COPILOT, event, TOOL_EVENTS.has(event) ? tools : []),
    windows: windowsHookCommand(clients, COPILOT, event),
    // the editor's binary runs as plain Node with this (in VS Code desktop it is Electron)
    env: { ...RUNTIME_ENV },
    timeout: HOOK_TIMEOUT_S,
  });
  const hooks = Object.fromEntries(HOOK_EVENTS.map((event) => [event, [entry(event)]]));
  return `${JSON.stringify({ hooks }, null, 2)}\n`;
}

/** Is this text a hooks file we wrote (so we may replace or remove it)? Every command runs one of our clients. */
export function isOurHooksFile(text: string): boolean {
  try {
    const parsed = JSON.parse(text) as { hooks?: Record<string, Array<{ command?: unknown }>> };
    const commands = Object.values(parsed.hooks ?? {})
      .flat()
      .map((h) => h?.command);
    return commands.length > 0 && commands.every(isOurCommand);
  } catch {
    return false;
  }
}
