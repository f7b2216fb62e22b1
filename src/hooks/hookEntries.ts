// Our hook entries merged into a JSON file that is the user's too, for every agent whose hooks have
// the shape Claude Code's settings and Codex's hooks.json share: a `hooks` object holding, per event,
// a list of matcher groups — `{"hooks":{"PreToolUse":[{"matcher":"Read|Edit","hooks":[{"type":"command",
// "command":"…","timeout":15}]}]}}` — next to whatever else the file holds. We add or remove only our
// groups and keep every other key, event, group and hook as it was and where it was (docs/design.md
// §Surfaces, Claude Code's hook entries, Codex's hook entries). A group is ours when its commands run
// one of our clients; a file we cannot read is never rewritten: the caller gets a reason to log and
// show, and nothing changes. Pure (text in, text out), so every case is unit-tested.
import { isOurCommand } from './command';

export interface HookCommandEntry {
  type: 'command';
  command: string;
  /** in the agent's unit: seconds (Claude Code, Codex), milliseconds (Gemini CLI) */
  timeout: number;
  /** what the agent's messages call the hook (Gemini CLI's "Hook(s) [<name>] failed") */
  name?: string;
}
/** One matcher group of an event's list: `matcher` (tool events only) and its commands. */
export interface MatcherGroup {
  matcher?: string;
  hooks: HookCommandEntry[];
}

/** The new text of the file (`undefined`: nothing is left, the file can go), or why it was left alone. */
export type EntriesEdit = { ok: true; text: string | undefined } | { ok: false; reason: string };

/** A hook command of ours: it runs one of our clients. */
export function isOurHook(hook: unknown): boolean {
  return isObject(hook) && isOurCommand(hook.command);
}

/** A matcher group of ours: every one of its commands (and it has at least one) is ours — whatever its matcher or timeout now says. */
export function isOurs(group: unknown): boolean {
  return isObject(group) && Array.isArray(group.hooks) && group.hooks.length > 0 && group.hooks.every(isOurHook);
}

/**
 * The file with our groups in it (`entries`: our one group per event, for the events in `events`):
 * each event's group of ours replaced where it stands (else added at the end of the event's list),
 * ours under any other event removed, and everything else as it was. A missing or empty file becomes
 * our entries alone. The text comes back unchanged when it already holds exactly our entries.
 */
export function withOurGroups<E extends string>(
  existing: string | undefined,
  events: readonly E[],
  entries: Record<E, MatcherGroup>,
): EntriesEdit {
  const parsed = parse(existing);
  if (!parsed.ok) return parsed;
  const { settings, bom, eol } = parsed;
  const hooks = settings.hooks;
  if (hooks !== undefined && !isObject(hooks)) return notAnObject('hooks');
  for (const event of events) {
    if (hooks?.[event] !== undefined && !Array.isArray(hooks[event])) return { ok: false, reason: `its "hooks.${event}" is not a list` };
  }
  const next: Record<string, unknown> = { ...(hooks ?? {}) };
  for (const [event, groups] of Object.entries(next)) {
    const ourEvent = (events as readonly string[]).includes(event);
    if (!Array.isArray(groups)) continue;
    const at = groups.findIndex(holdsOurs);
    const kept = withoutOurs(groups);
    if (ourEvent) {
      const place = at < 0 ? kept.list.length : Math.min(at, kept.list.length);
      next[event] = [...kept.list.slice(0, place), entries[event as E], ...kept.list.slice(place)];
    } else if (kept.removed) {
      if (kept.list.length) next[event] = kept.list;
      else delete next[event];
    }
  }
  for (const event of events) if (next[event] === undefined) next[event] = [entries[event]];
  const result = hooks === undefined ? { ...settings, hooks: next } : replaceKey(settings, 'hooks', next);
  if (existing !== undefined && sameJson(result, settings)) return { ok: true, text: existing };
  return { ok: true, text: serialize(result, bom, eol) };
}

/**
 * The file with our groups gone (a group the user added commands to keeps theirs); an event list or
 * a `hooks` object that only our groups filled is dropped, and `undefined` when nothing is left
 * (`{}`): the file can go. The text comes back unchanged when it holds nothing of ours.
 */
export function withoutOurGroups(existing: string | undefined): EntriesEdit {
  const parsed = parse(existing);
  if (!parsed.ok) return parsed;
  if (existing === undefined) return { ok: true, text: undefined };
  const { settings, bom, eol } = parsed;
  const hooks = settings.hooks;
  if (hooks === undefined) return { ok: true, text: existing };
  if (!isObject(hooks)) return notAnObject('hooks');
  let removed = false;
  const next: Record<string, unknown> = {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      next[event] = groups;
      continue;
    }
    const kept = withoutOurs(groups);
    removed ||= kept.removed;
    if (!kept.removed) next[event] = groups;
    else if (kept.list.length) next[event] = kept.list;
  }
  if (!removed) return { ok: true, text: existing };
  const result = Object.keys(next).length ? replaceKey(settings, 'hooks', next) : withoutKey(settings, 'hooks');
  return { ok: true, text: Object.keys(result).length ? serialize(result, bom, eol) : undefined };
}

/** Does the text hold a group or command of ours? A text that is not such a file holds none we could know of. */
export function holdsOurGroups(existing: string | undefined): boolean {
  const edit = withoutOurGroups(existing);
  return edit.ok && edit.text !== existing;
}

/**
 * The groups of ours in the file as it stands, with where each sits (its event, its index in the
 * event's list, its commands' indexes): what an agent that keys its trust by position (Codex) needs.
 * Empty for a file that is missing or cannot be read.
 */
export function ourGroupsIn(existing: string | undefined): Array<{ event: string; index: number; group: MatcherGroup }> {
  const parsed = parse(existing);
  if (!parsed.ok || !isObject(parsed.settings.hooks)) return [];
  const out: Array<{ event: string; index: number; group: MatcherGroup }> = [];
  for (const [event, groups] of Object.entries(parsed.settings.hooks)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group, index) => {
      if (isOurs(group)) out.push({ event, index, group: group as MatcherGroup });
    });
  }
  return out;
}

// --- helpers

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const holdsOurs = (group: unknown) => isObject(group) && Array.isArray(group.hooks) && group.hooks.some(isOurHook);
const notAnObject = (key: string): EntriesEdit => ({ ok: false, reason: `its "${key}" is not a JSON object` });

/** The event's groups without ours: a group of ours goes, a group with commands of ours and of the user's keeps the user's. */
function withoutOurs(groups: unknown[]): { list: unknown[]; removed: boolean } {
  let removed = false;
  const list: unknown[] = [];
  for (const group of groups) {
    if (isOurs(group)) removed = true;
    else if (holdsOurs(group)) {
      removed = true;
      const g = group as Json;
      list.push({ ...g, hooks: (g.hooks as unknown[]).filter((h) => !isOurHook(h)) });
    } else list.push(group);
  }
  return { list, removed };
}

type Parsed = { ok: true; settings: Json; bom: string; eol: string } | { ok: false; reason: string };

/** The file's object; a missing or blank file is `{}`. A byte order mark and CRLF line ends are kept. */
function parse(existing: string | undefined): Parsed {
  const bom = existing?.startsWith('\uFEFF') ? '\uFEFF' : '';
  const text = (existing ?? '').slice(bom.length);
  const eol = /\r\n/.test(text) && !/(^|[^\r])\n/.test(text) ? '\r\n' : '\n';
  if (text.trim() === '') return { ok: true, settings: {}, bom, eol };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, reason: `it is not valid JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  if (!isObject(value)) return { ok: false, reason: 'it is not a JSON object' };
  return { ok: true, settings: value, bom, eol };
}

/** Two spaces, a final newline (and the file's own line ends and byte order mark): as Claude Code and Codex write theirs. */
const serialize = (settings: Json, bom: string, eol: string) => `${bom}${JSON.stringify(settings, null, 2).replace(/\n/g, eol)}${eol}`;

/** The object with one key's value replaced where the key stands (key order kept). */
const replaceKey = (o: Json, key: string, value: unknown): Json =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, k === key ? value : v]));
const withoutKey = (o: Json, key: string): Json => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
