// Qwen Code's hook entries, merged into a settings file that is the user's too: `~/.qwen/settings.json`
// (user level) or a folder's `.qwen/settings.json` (the project's, read only in a folder Qwen Code trusts).
// Its hooks are Claude Code's shape under the settings' `hooks` key — one list of matcher groups per event,
// timeouts in seconds — so the merge is every such agent's (src/hooks/hookEntries.ts): only our groups are
// added or removed, everything else stays as it was. Qwen Code rewrites the file when it starts (it adds
// `$version`): our groups are kept through that.
import { type HookClients, HOOK_TIMEOUT_S, hookCommand } from '../../../hooks/command';
import { GATED_HOOK_EVENTS_WITH_FAILURES, type HookEventName, TOOL_EVENTS } from '../../../hooks/event';
import { type EntriesEdit, type MatcherGroup, withOurGroups } from '../../../hooks/hookEntries';
import { GATED_TOOLS, QWEN_CODE } from './events';

/** Where Qwen Code reads its user settings, under the OS home, and a project's, under a folder. */
export const SETTINGS_PATH = '.qwen/settings.json';

/** The hook's name in Qwen Code's `/hooks` browser. */
export const HOOK_NAME = 'agent-edit-guard';
/** Qwen Code compares each `|`-separated entry of a matcher with the tool's id: no hook process starts for its other tools. */
export const QWEN_TOOL_MATCHER = GATED_TOOLS.join('|');

/** Our one group per event, each command every agent's (src/hooks/command.ts), naming Qwen Code. */
export function qwenHookEntries(clients: HookClients): Record<HookEventName, MatcherGroup> {
  const group = (event: HookEventName): MatcherGroup => {
    const tools = TOOL_EVENTS.has(event) ? GATED_TOOLS : [];
    // its hook entries have no `env`: the Node client's goes on the command line
    const hooks = [
      { name: HOOK_NAME, type: 'command' as const, command: hookCommand(clients, QWEN_CODE, event, tools, true), timeout: HOOK_TIMEOUT_S },
    ];
    return TOOL_EVENTS.has(event) ? { matcher: QWEN_TOOL_MATCHER, hooks } : { hooks };
  };
  return Object.fromEntries(GATED_HOOK_EVENTS_WITH_FAILURES.map((event) => [event, group(event)])) as Record<HookEventName, MatcherGroup>;
}

/** The file with our groups in it, everything else as it was; a missing or empty file becomes our entries alone. */
export const withOurHooks = (existing: string | undefined, entries: Record<HookEventName, MatcherGroup>): EntriesEdit =>
  withOurGroups(existing, GATED_HOOK_EVENTS_WITH_FAILURES, entries);
