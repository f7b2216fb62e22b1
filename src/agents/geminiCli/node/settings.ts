// Gemini CLI's hook entries, merged into a settings file that is the user's too: `~/.gemini/settings.json`
// (user level) or a folder's `.gemini/settings.json` (the project's). Gemini CLI keeps its hooks under the
// settings' `hooks` key, one list of matcher groups per event, as Claude Code does —
// `{"hooks":{"BeforeTool":[{"matcher":"^(read_file|…)$","hooks":[{"name":"…","type":"command","command":"…",
// "timeout":15000}]}]}}` — so the merge is every such agent's (src/hooks/hookEntries.ts): only our groups
// are added or removed, every other key, event, group and hook stays as it was. Gemini CLI rewrites the
// file when it starts (it moves old keys to new ones): our groups are kept through that.
import { type HookClients, HOOK_TIMEOUT_S, hookCommand } from '../../../hooks/command';
import { type EntriesEdit, type MatcherGroup, withOurGroups } from '../../../hooks/hookEntries';
import { GATED_TOOLS, GEMINI_CLI, GEMINI_EVENTS, GEMINI_TOOL_EVENTS, type GeminiHookEvent } from './events';

/** Where Gemini CLI reads its user settings, under the OS home, and a project's, under a folder. */
export const SETTINGS_PATH = '.gemini/settings.json';

/** The hook's name in Gemini CLI's messages. */
export const HOOK_NAME = 'agent-edit-guard';
/** Gemini CLI matches a tool event's `matcher` against the tool's name as a regular expression: no hook process starts for its other tools. */
export const GEMINI_TOOL_MATCHER = `^(${GATED_TOOLS.join('|')})$`;
const EVENTS: readonly GeminiHookEvent[] = Object.values(GEMINI_EVENTS);

/** Our one group per event, each command every agent's (src/hooks/command.ts), naming Gemini CLI. */
export function geminiHookEntries(clients: HookClients): Record<GeminiHookEvent, MatcherGroup> {
  const group = (event: GeminiHookEvent): MatcherGroup => {
    const tools = GEMINI_TOOL_EVENTS.has(event) ? GATED_TOOLS : [];
    // its hook entries have no `env`: the Node client's goes on the command line; its timeouts are in milliseconds
    const hooks = [
      {
        name: HOOK_NAME,
        type: 'command' as const,
        command: hookCommand(clients, GEMINI_CLI, event, tools, true),
        timeout: HOOK_TIMEOUT_S * 1000,
      },
    ];
    return GEMINI_TOOL_EVENTS.has(event) ? { matcher: GEMINI_TOOL_MATCHER, hooks } : { hooks };
  };
  return Object.fromEntries(EVENTS.map((event) => [event, group(event)])) as Record<GeminiHookEvent, MatcherGroup>;
}

/** The file with our groups in it, everything else as it was; a missing or empty file becomes our entries alone. */
export const withOurHooks = (existing: string | undefined, entries: Record<GeminiHookEvent, MatcherGroup>): EntriesEdit =>
  withOurGroups(existing, EVENTS, entries);
