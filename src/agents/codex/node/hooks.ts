// Codex's hook entries, and the trust Codex needs before it runs them (test/codex/FACTS.md). Codex reads
// hooks from `$CODEX_HOME/hooks.json` (user level; CODEX_HOME defaults to ~/.codex) and from a trusted
// project's `.codex/hooks.json`, in the shape Claude Code's settings use — `{"hooks":{"PreToolUse":
// [{"matcher":"…","hooks":[{"type":"command","command":"…","timeout":15}]}]}}` — so ours are merged in
// and taken out by the shared merge (src/hooks/hookEntries.ts), the user's own kept byte for byte.
//
// Codex runs no hook that is not trusted, the user's own included, and says nothing: every hook has a
// `[hooks.state."<file>:<event>:<group>:<handler>"] trusted_hash = "sha256:…"` in the user's config.toml,
// keyed by where it sits and hashing what it runs. So next to our entries we write exactly their trust
// lines, marked as ours, and take out exactly those (`withOurTrust`): config.toml is the user's file, and
// every other byte of it stays. The hash is Codex's internal fingerprint, not a documented contract
// (`trustHash`); test/integration/codex.test.ts runs the real CLI on entries trusted this way. Pure.
import { createHash } from 'node:crypto';
import { type HookClients, HOOK_TIMEOUT_S, hookCommand, shQuote } from '../../../hooks/command';
import { GATED_HOOK_EVENTS, TOOL_EVENTS } from '../../../hooks/event';
import { type HookCommandEntry, type MatcherGroup, ourGroupsIn } from '../../../hooks/hookEntries';
import { CODEX, CODEX_TOOLS } from './events';

/** The hook events the gate listens to (Codex names them as VS Code's hooks do). */
export const CODEX_HOOK_EVENTS = GATED_HOOK_EVENTS;
export type CodexHookEvent = (typeof CODEX_HOOK_EVENTS)[number];
/**
 * Codex matches a tool event's `matcher` against the tool's name as a regular expression: no hook
 * process starts for its other tools. (`Edit` and `Write` would match apply_patch too; we name it.)
 */
export const CODEX_TOOL_MATCHER = CODEX_TOOLS.join('|');

/** Our one group per event. */
export type CodexHookEntries = Record<CodexHookEvent, MatcherGroup>;

/**
 * Our entries: per event one group whose command is every agent's (src/hooks/command.ts), naming
 * Codex. Codex runs a hook command as `$SHELL -lc "<command>"`, in the user's login shell, whatever it
 * is; ours is POSIX `sh`, so it goes to `/bin/sh -c` itself (a fish or nu user's hooks run too).
 */
export function codexHookEntries(clients: HookClients): CodexHookEntries {
  const group = (event: CodexHookEvent): MatcherGroup => {
    const tools = TOOL_EVENTS.has(event) ? CODEX_TOOLS : [];
    // Codex's hook entries have no `env`: the Node client's goes on the command line
    const command = `/bin/sh -c ${shQuote(hookCommand(clients, CODEX, event, tools, true))}`;
    const hooks: HookCommandEntry[] = [{ type: 'command', command, timeout: HOOK_TIMEOUT_S }];
    return TOOL_EVENTS.has(event) ? { matcher: CODEX_TOOL_MATCHER, hooks } : { hooks };
  };
  return Object.fromEntries(CODEX_HOOK_EVENTS.map((event) => [event, group(event)])) as CodexHookEntries;
}

// --- trust

/** `PreToolUse` → `pre_tool_use`: how Codex names an event in a hook's trust key. */
export const snakeCase = (event: string) => event.replace(/[A-Z]/g, (c, i: number) => (i ? '_' : '') + c.toLowerCase());

/** The key of one hook's trust in config.toml: the hooks file, the event, the group's index in the event's list, the command's in the group. */
export const trustKey = (hooksFile: string, event: string, group: number, handler: number) =>
  `${hooksFile}:${snakeCase(event)}:${group}:${handler}`;

/** Events whose matcher Codex ignores, and leaves out of the hash. */
const NO_MATCHER: ReadonlySet<string> = new Set(['UserPromptSubmit', 'Stop']);

/**
 * The hash Codex trusts one hook command by: `sha256:` and the hex SHA-256 of the compact JSON, keys
 * sorted, of `{event_name, matcher?, hooks: [{type, command, timeout, async}]}` (timeout 600 when unset,
 * async false). This is Codex's internal algorithm, measured equal to what `codex app-server` reports
 * (`hooks/list` `currentHash`) for 16 of 16 hooks with the pinned CLI (test/codex/FACTS.md), and pinned
 * by the real CLI running our entries in test/integration/codex.test.ts: a Codex that computes it
 * otherwise skips our hooks until the user trusts them in Codex's /hooks.
 */
export function trustHash(event: string, matcher: string | undefined, handler: HookCommandEntry): string {
  const hook = { async: false, command: handler.command, timeout: Math.max(1, handler.timeout ?? 600), type: 'command' };
  const identity: Record<string, unknown> = { event_name: snakeCase(event), hooks: [hook] };
  if (matcher !== undefined && !NO_MATCHER.has(event)) identity.matcher = matcher;
  return `sha256:${createHash('sha256')
    .update(JSON.stringify(sorted(identity)))
    .digest('hex')}`;
}

const sorted = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sorted)
    : typeof v === 'object' && v !== null
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
        )
      : v;

/** The trust (key → hash) each command of ours in a hooks file needs, as the file stands (`hooksFile`: its absolute path, as Codex names it). */
export function trustOfOurEntries(hooksFile: string, text: string | undefined): Map<string, string> {
  const trust = new Map<string, string>();
  for (const { event, index, group } of ourGroupsIn(text))
    group.hooks.forEach((handler, h) => trust.set(trustKey(hooksFile, event, index, h), trustHash(event, group.matcher, handler)));
  return trust;
}

/** Ends the `trusted_hash` lines we write: what tells them from the user's own. */
export const TRUST_MARK = '# Agent Edit Guard';

/** The new text of config.toml (`undefined`: nothing is left, the file can go), or why it was left alone. */
export type TomlEdit = { ok: true; text: string | undefined } | { ok: false; reason: string };

/**
 * config.toml with exactly the trust lines in `want` (key → hash, marked as ours) and without those of
 * ours it no longer wants: a `trusted_hash` line marked as ours of a hooks file in `scope` (the files
 * this sync looked at: another window's folders keep theirs), or one whose key and hash are in `drop`
 * (the trust our entries had before: a line the user wrote for our hook counts as ours). A table that
 * held only our line goes with it (and the blank line before it); a table of the user's for the same
 * key (`enabled = false`, say) keeps its other lines. Every other byte stays. A file whose `hooks` are
 * written in a form these lines cannot join (an inline table, or one of our keys outside a
 * `[hooks.state."…"]` header) is left alone, with the reason.
 */
export function withOurTrust(
  existing: string | undefined,
  want: ReadonlyMap<string, string>,
  drop: ReadonlyMap<string, string>,
  scope: readonly string[],
): TomlEdit {
  const text = existing ?? '';
  const eol = /\r\n/.test(text) ? '\r\n' : '\n';
  if (/^[ \t]*(hooks|hooks\s*\.\s*state)\s*=/m.test(text)) return { ok: false, reason: 'its `hooks` is an inline table' };
  const lines = text.split(eol);
  const tables = tablesOf(lines);
  for (const key of [...want.keys(), ...drop.keys()]) {
    const quoted = JSON.stringify(key);
    const mentions = text.split(quoted).length - 1;
    const headers = tables.filter((t) => t.key === key).length;
    if (mentions !== headers) return { ok: false, reason: `it names the hook ${quoted} outside a [hooks.state."…"] table` };
  }
  const done = new Set<string>();
  /** per line: undefined = drop it; a string = the line's new text */
  const out: Array<string | undefined> = [...lines];
  for (const t of tables) {
    if (t.key === undefined) continue;
    const wanted = want.get(t.key);
    const hashLine = t.body.find((i) => HASH_LINE.test(lines[i]));
    const current = hashLine === undefined ? undefined : HASH_LINE.exec(lines[hashLine]);
    if (wanted !== undefined && !done.has(t.key)) {
      done.add(t.key);
      const line = ourLine(wanted);
      if (hashLine === undefined) out[t.header] = `${lines[t.header]}${eol}${line}`;
      else if (current?.[1] !== wanted) out[hashLine] = line;
      continue;
    }
    const key = t.key;
    const inScope = scope.some((file) => key.startsWith(`${file}:`));
    const ours = current !== null && current !== undefined && ((inScope && current[2] === TRUST_MARK) || drop.get(key) === current[1]);
    if (hashLine === undefined || !ours) continue;
    out[hashLine] = undefined;
    const rest = t.body.filter((i) => i !== hashLine && lines[i].trim() !== '');
    if (rest.length === 0) {
      // the table was ours alone: its header, its lines, and the blank line we put before it
      for (const i of [t.header, ...t.body.filter((i) => i < (t.lastContent ?? t.header) + 1)]) out[i] = undefined;
      if (t.header > 0 && lines[t.header - 1].trim() === '' && out[t.header - 1] !== undefined) out[t.header - 1] = undefined;
    }
  }
  let result = out.filter((l): l is string => l !== undefined).join(eol);
  for (const [key, hash] of want) {
    if (done.has(key)) continue;
    const block = `[hooks.state.${JSON.stringify(key)}]${eol}${ourLine(hash)}`;
    if (result === '') result = `${block}${eol}`;
    // a file that ends without a line break keeps ending without one, so taking the block out gives it back byte for byte
    else result = result.endsWith(eol) ? `${result}${eol}${block}${eol}` : `${result}${eol}${eol}${block}`;
  }
  if (result === text) return { ok: true, text: existing };
  return { ok: true, text: /\S/.test(result) ? result : undefined };
}

const ourLine = (hash: string) => `trusted_hash = ${JSON.stringify(hash)} ${TRUST_MARK}`;
const HASH_LINE = /^[ \t]*trusted_hash[ \t]*=[ \t]*"([^"\\]*)"[ \t]*(#.*?)?[ \t]*$/;
const HEADER = /^[ \t]*\[\[?[^\]]*\]\]?[ \t]*(#.*)?$/;
const STATE_HEADER = /^[ \t]*\[[ \t]*hooks[ \t]*\.[ \t]*state[ \t]*\.[ \t]*("(?:[^"\\]|\\.)*"|'[^']*')[ \t]*\][ \t]*(#.*)?$/;

/** The TOML tables of the lines: each header (with its `[hooks.state."…"]` key, when it is one) and its body's lines. */
function tablesOf(lines: string[]): Array<{ header: number; key?: string; body: number[]; lastContent?: number }> {
  const tables: Array<{ header: number; key?: string; body: number[]; lastContent?: number }> = [];
  lines.forEach((line, i) => {
    if (HEADER.test(line)) {
      const m = STATE_HEADER.exec(line);
      tables.push({ header: i, key: m ? keyOf(m[1]) : undefined, body: [] });
    } else if (tables.length) {
      const t = tables[tables.length - 1];
      t.body.push(i);
      if (line.trim() !== '') t.lastContent = i;
    }
  });
  return tables;
}

function keyOf(quoted: string): string | undefined {
  if (quoted.startsWith("'")) return quoted.slice(1, -1);
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return undefined;
  }
}

/**
 * Does config.toml trust this project (`[projects."<folder>"] trust_level = "trusted"`)? Codex reads a
 * project's `.codex/` only then. That is the user's decision in Codex — we never write it.
 */
export function projectTrusted(config: string | undefined, folder: string): boolean {
  const lines = (config ?? '').split(/\r?\n/);
  let inTable = false;
  for (const line of lines) {
    if (HEADER.test(line)) {
      const m = /^[ \t]*\[[ \t]*projects[ \t]*\.[ \t]*("(?:[^"\\]|\\.)*"|'[^']*')[ \t]*\]/.exec(line);
      inTable = m !== null && keyOf(m[1]) === folder;
    } else if (inTable && /^[ \t]*trust_level[ \t]*=[ \t]*"trusted"/.test(line)) return true;
  }
  return false;
}
