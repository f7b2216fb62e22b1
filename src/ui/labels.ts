// How the surfaces name a chat and a turn to a person (docs/design.md §Surfaces): by what a person
// recognises — the words of the chat's first request, when it started, the turn's number and time —
// never by a tail of an internal id. The facts come from src/chat/names.ts; the words are made here.
import * as vscode from 'vscode';
import type { ChatNames } from '../chat/names';
import { NO_CHAT_SESSION } from '../chat/session';
import { OWN_TOOL_VERB, type OwnToolId } from '../core/toolIds';
import type { MarkOrigin } from '../core/types';

/** What a label reads of the names: a surface only looks. */
export type NameLookup = Pick<ChatNames, 'chat' | 'turn'>;

/** VS Code's display language, for dates and times in the words of the rest of the UI; the runtime's own if Intl does not know it. */
function displayLocale(): string | undefined {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([vscode.env.language]).length > 0 ? vscode.env.language : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The formatters of the labels, made once: `toLocaleTimeString` builds a new formatter on every call,
 * which was most of a status bar refresh (docs/performance.md). The display language is fixed for the
 * window's life (changing it reloads the window).
 */
let formats: Record<'time' | 'seconds' | 'date' | 'dateYear', Intl.DateTimeFormat> | undefined;
function format(which: keyof NonNullable<typeof formats>): Intl.DateTimeFormat {
  if (!formats) {
    const locale = displayLocale();
    formats = {
      time: new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit' }),
      seconds: new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', second: '2-digit' }),
      date: new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short' }),
      dateYear: new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric' }),
    };
  }
  return formats[which];
}

/** When something started: the hour and minute today; on another day the date too (and the year in another year). */
export function startedLabel(at: number, now = Date.now()): string {
  const when = new Date(at);
  const today = new Date(now);
  const time = format('time').format(when);
  if (when.toDateString() === today.toDateString()) return time;
  const date = format(when.getFullYear() !== today.getFullYear() ? 'dateYear' : 'date').format(when);
  return vscode.l10n.t({ message: '{0}, {1}', args: [date, time], comment: ['a date, then a time of day: when a chat or a turn started'] });
}

/** A time of day to the second, in VS Code's display language: when a mark was stamped or an edit landed. */
export const timeOfDay = (at: number): string => format('seconds').format(new Date(at));

/** The words of a request, quoted. */
const quoted = (words: string) =>
  vscode.l10n.t({ message: '“{0}”', args: [words], comment: ["the first words of a user's chat request, quoted"] });

/** A chat: the words of its first request when known, else when it started. */
export function chatLabel(names: NameLookup, session: string): string {
  if (session === NO_CHAT_SESSION) return vscode.l10n.t('No chat (direct tool calls)');
  const chat = names.chat(session);
  // forgotten (the names are bounded) or never noted: no id tail, which says nothing to a person
  if (!chat) return vscode.l10n.t({ message: 'An earlier chat', comment: ['a chat the extension no longer has a name for'] });
  const label =
    chat.title !== undefined
      ? quoted(chat.title)
      : vscode.l10n.t({
          message: 'Chat started {0}',
          args: [startedLabel(chat.startedAt)],
          comment: ['{0}: a time of day, or a date and a time'],
        });
  // another agent's chat (Claude Code) says whose
  return chat.agent === undefined
    ? label
    : vscode.l10n.t({ message: '{0}: {1}', args: [chat.agent, label], comment: ['{0}: an agent (Claude Code); {1}: its chat'] });
}

/**
 * A turn of a chat: its number and time, and the words of its request when known — unless they are
 * the chat's title, which the chat's label beside it already quotes. `undefined`: calls that carried
 * no turn id, each a turn of its own (docs/design.md §Chat sessions and turns).
 */
export function turnLabel(names: NameLookup, session: string, turn: string | undefined): string {
  if (turn === undefined)
    return vscode.l10n.t({
      message: 'Calls without a turn id',
      comment: ['tool calls whose agent did not say which turn of the chat they belong to'],
    });
  const name = names.turn(session, turn);
  if (!name) return vscode.l10n.t({ message: 'An earlier turn', comment: ['a turn the extension no longer has a name for'] });
  const label = vscode.l10n.t({
    message: 'Turn {0} · {1}',
    args: [name.ordinal, startedLabel(name.startedAt)],
    comment: ['{0}: the number of the turn in its chat; {1}: when it started'],
  });
  if (name.prompt === undefined || name.prompt === names.chat(session)?.title) return label;
  return vscode.l10n.t({
    message: '{0} — {1}',
    args: [label, quoted(name.prompt)],
    comment: ["a turn's number and time, then the words of its request"],
  });
}

/** How the chat came to see a file's version: the tag after each read mark. */
export function originLabel(origin: MarkOrigin): string {
  switch (origin) {
    case 'read':
      return vscode.l10n.t({ message: 'read', comment: ["a read mark's origin: the agent read the file"] });
    case 'refusal':
      return vscode.l10n.t({ message: 'refusal', comment: ["a read mark's origin: the agent was shown the file in a refused write"] });
    case 'write':
      return vscode.l10n.t({ message: 'write', comment: ["a read mark's origin: the agent wrote the file itself"] });
  }
}

/** What the surfaces need of an agent whose own tools are gated: its name and the word for each tool. */
export interface AgentNaming {
  name: string;
  verb(tool: string): string;
}

/**
 * How a tool call is named to a person, always with whose tool it was: "guarded replace" for one of
 * our tools, "Claude Code edit" or "Copilot patch" for an agent's own tool. A record older than the
 * agent's id in it is named by the first agent that knows the tool.
 */
export function toolLabel(tool: string, agent: string | undefined, agents: ReadonlyMap<string, AgentNaming>): string {
  const own = OWN_TOOL_VERB[tool as OwnToolId];
  if (own) return vscode.l10n.t('guarded {0}', own);
  const owner = agent !== undefined ? agents.get(agent) : [...agents.values()].find((a) => a.verb(tool) !== tool);
  return owner
    ? vscode.l10n.t({
        message: '{0} {1}',
        args: [owner.name, owner.verb(tool)],
        comment: ["an agent's name, then what its tool did: 'Claude Code edit'"],
      })
    : tool;
}
