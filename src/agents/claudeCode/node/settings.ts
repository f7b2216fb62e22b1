// Claude Code's hook entries, and merging them into a settings file that is the user's too:
// `~/.claude/settings.json` (user level) or a folder's `.claude/settings.local.json` (personal,
// uncommitted project settings). Claude Code keeps its hooks under the settings' `hooks` key, one list
// of matcher groups per event — `{"hooks":{"PreToolUse":[{"matcher":"Read|Edit",
// "hooks":[{"type":"command","command":"…","timeout":15}]}]}}` — next to the user's permissions, model,
// env and hooks of their own, so we add or remove only our groups and keep every other key, event,
// group and hook as it was (docs/design.md §Surfaces, Claude Code's hook entries). A group is ours when its commands
// run one of our clients; a file we cannot read as settings is never rewritten: the caller gets a reason
// to log and show, and nothing changes. The merge itself is every such agent's (src/hooks/hookEntries.ts).
import { type HookClients, HOOK_TIMEOUT_S, hookCommand } from '../../../hooks/command';
import { GATED_HOOK_EVENTS_WITH_FAILURES, type HookEventName, TOOL_EVENTS } from '../../../hooks/event';
import {
  type EntriesEdit,
  type HookCommandEntry,
  holdsOurGroups,
  isOurHook,
  isOurs,
  type MatcherGroup,
  withOurGroups,
  withoutOurGroups,
} from '../../../hooks/hookEntries';
import { CLAUDE_CODE, GATED_TOOLS } from './events';

/** Claude Code's file tools and its shell (events.ts, where the bridge reads them): the tool events' matcher and the bash client's filter. */
export const CLAUDE_GATED_TOOLS = GATED_TOOLS;
/** Claude Code matches a tool event's `matcher` against the tool's name as a regular expression: no hook process starts for Grep or Glob. */
export const CLAUDE_TOOL_MATCHER = CLAUDE_GATED_TOOLS.join('|');
/** The hook events the gate listens to, under the names VS Code's hooks use too, and the one of a call its tool failed. */
export const CLAUDE_HOOK_EVENTS = GATED_HOOK_EVENTS_WITH_FAILURES;
export type ClaudeHookEvent = HookEventName;

/** Where Claude Code reads its user settings, under the OS home, and a project's personal settings, under a folder. */
export const USER_SETTINGS_PATH = '.claude/settings.json';
export const LOCAL_SETTINGS_PATH = '.claude/settings.local.json';

export type ClaudeHookCommand = HookCommandEntry;
/** One matcher group of an event's list: `matcher` (tool events only) and its commands. */
export type ClaudeMatcherGroup = MatcherGroup;
/** Our one group per event. */
export type ClaudeHookEntries = Record<ClaudeHookEvent, ClaudeMatcherGroup>;

/**
 * Our entries: per event one group, whose command is every agent's (src/hooks/command.ts: the early
 * exit where this window's extension is not listening, then the bash client filtering on Claude's file
 * tools, or the Node client), naming Claude Code, so the bridge reads its payloads as Claude Code's.
 */
export function claudeHookEntries(clients: HookClients): ClaudeHookEntries {
  const group = (event: ClaudeHookEvent): ClaudeMatcherGroup => {
    const tools = TOOL_EVENTS.has(event) ? CLAUDE_GATED_TOOLS : [];
    // Claude Code's hook entries have no `env`: the Node client's goes on the command line
    const hooks: ClaudeHookCommand[] = [
      { type: 'command', command: hookCommand(clients, CLAUDE_CODE, event, tools, true), timeout: HOOK_TIMEOUT_S },
    ];
    return TOOL_EVENTS.has(event) ? { matcher: CLAUDE_TOOL_MATCHER, hooks } : { hooks };
  };
  return Object.fromEntries(CLAUDE_HOOK_EVENTS.map((event) => [event, group(event)])) as ClaudeHookEntries;
}

/** The new text of the file (`undefined`: nothing is left, the file can go), or why it was left alone. */
export type SettingsEdit = EntriesEdit;

export { isOurHook, isOurs };

/**
 * The file with our groups in it: each event's group of ours replaced where it stands (else added at
 * the end of the event's list), ours under any other event removed, and everything else as it was
 * (src/hooks/hookEntries.ts). A missing or empty file becomes our entries alone.
 */
export const withOurHooks = (existing: string | undefined, entries: ClaudeHookEntries): SettingsEdit =>
  withOurGroups(existing, CLAUDE_HOOK_EVENTS, entries);

/** The file with our groups gone, the user's kept; `undefined` when nothing is left (src/hooks/hookEntries.ts). */
export const withoutOurHooks = (existing: string | undefined): SettingsEdit => withoutOurGroups(existing);

/** Does the text hold a group or command of ours? */
export const holdsOurHooks = (existing: string | undefined): boolean => holdsOurGroups(existing);
