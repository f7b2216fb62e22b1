// How a person knows a chat and a turn (docs/design.md §Chat sessions and turns): not by the ids VS Code
// and Copilot give them, but by when they started, the order of the turns and the words of their
// requests. This remembers those facts as the extension meets each chat and turn; src/ui/labels.ts
// turns them into words. No `vscode` import: unit-tested in plain Node, and the state is plain JSON.
import { BoundedMap } from '../core/boundedMap';
import { Emitter } from '../core/events';
import { NO_CHAT_SESSION } from './session';

export interface ChatName {
  session: string;
  startedAt: number;
  /** the first words of the chat's first request, when known */
  title?: string;
  /** the agent, when it is not Copilot's chat (Claude Code), as the user knows it */
  agent?: string;
}

export interface TurnName {
  session: string;
  turn: string;
  /** 1-based, in the order the extension first saw the chat's turns */
  ordinal: number;
  startedAt: number;
  /** the first words of the turn's request, when known */
  prompt?: string;
}

/** Plain JSON, versioned; each list least recently used first (the order that rebuilds the same bounded maps). */
export interface ChatNamesState {
  version: typeof STATE_VERSION;
  chats: Array<{
    session: string;
    startedAt: number;
    title?: string;
    agent?: string;
    /** ordinals handed out so far: the next turn is `turnsSeen + 1`, even after older turns were dropped */
    turnsSeen: number;
    turns: Array<{ turn: string; ordinal: number; startedAt: number; prompt?: string }>;
  }>;
}

const STATE_VERSION = 1;
/** A window meets few chats; a long-lived one should not grow without end. The least recently active go first. */
export const MAX_NAMED_CHATS = 1000;
/** Per chat; the least recently active turns go first, and the ordinals of later ones stay as they were. */
export const MAX_NAMED_TURNS = 200;
/** How much of a request is kept: enough to recognise it, never the whole prompt. */
export const PROMPT_WORDS_MAX = 60;

interface TurnEntry {
  ordinal: number;
  startedAt: number;
  prompt?: string;
}

interface ChatEntry {
  startedAt: number;
  title?: string;
  agent?: string;
  turnsSeen: number;
  turns: BoundedMap<string, TurnEntry>;
}

/**
 * The first words of a request: whitespace collapsed, at most `max` characters, cut at a word
 * boundary with `…` (a single word longer than that is cut inside). `undefined` when there are none.
 * Reads the prompt only as far as it needs: a pasted megabyte costs no more than its first words.
 */
export function promptWords(prompt: string, max = PROMPT_WORDS_MAX): string | undefined {
  const words: string[] = [];
  let length = 0;
  for (const [word] of prompt.matchAll(/\S+/g)) {
    const next = words.length === 0 ? word.length : length + 1 + word.length;
    if (next > max) {
      if (words.length === 0) words.push(cutInside(word, max));
      // "the greeting," + … reads as a cut; "the greeting,…" as a typo
      return words.join(' ').replace(/[,;:.!?]+$/, '') + '…';
    }
    words.push(word);
    length = next;
  }
  return words.length > 0 ? words.join(' ') : undefined;
}

/** The first `max` UTF-16 units of a word, never half a surrogate pair. */
function cutInside(word: string, max: number): string {
  const head = word.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(head) ? head.slice(0, -1) : head;
}

export class ChatNames {
  private readonly chats = new BoundedMap<string, ChatEntry>(MAX_NAMED_CHATS);
  private readonly changed = new Emitter<void>();
  /** Fires when a chat or a turn is first noted, gets its words, or is retagged. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly now: () => number = Date.now) {}

  /** A tool call of this chat (and turn, if it has an id) arrived: notes the chat and the turn the first time each is seen. */
  noteCall(session: string, turn: string | undefined): void {
    const { entry, isNew } = this.chatOf(session);
    const added = turn !== undefined && this.turnOf(entry, turn).isNew;
    if (isNew || added) this.changed.fire();
  }

  /** A user message started this turn (hooks' UserPromptSubmit): notes the turn, with the prompt's words; the chat's first one also titles the chat. */
  notePrompt(session: string, turn: string, prompt: string): void {
    const { entry, isNew } = this.chatOf(session);
    const t = this.turnOf(entry, turn);
    let changed = isNew || t.isNew;
    const words = promptWords(prompt);
    if (words !== undefined && t.entry.prompt === undefined) {
      t.entry.prompt = words;
      changed = true;
    }
    // only the chat's first turn: a prompt met after turns seen without words is not the chat's first request
    if (words !== undefined && entry.title === undefined && t.entry.ordinal === 1 && session !== NO_CHAT_SESSION) {
      entry.title = words;
      changed = true;
    }
    if (changed) this.changed.fire();
  }

  /** The chat is another agent's than Copilot's chat (Claude Code): its label says whose. */
  noteAgent(session: string, agent: string): void {
    const { entry, isNew } = this.chatOf(session);
    if (entry.agent === agent && !isNew) return;
    entry.agent = agent;
    this.changed.fire();
  }

  /** The turn counted under `from` is now known as `to` (see HookRouter.noteGuardedCall / MarkStore.retagTurn). */
  retagTurn(session: string, from: string, to: string): void {
    const entry = this.chats.peek(session);
    const counted = entry?.turns.peek(from);
    if (!entry || !counted || from === to) return;
    entry.turns.delete(from);
    // noted under both names (a call of `to` came before the retag): it is one turn, first seen as the earlier of the two
    const known = entry.turns.peek(to);
    const [first, other] = known && known.ordinal < counted.ordinal ? [known, counted] : [counted, known];
    entry.turns.set(to, { ...first, prompt: first.prompt ?? other?.prompt });
    this.changed.fire();
  }

  chat(session: string): ChatName | undefined {
    const entry = this.chats.peek(session);
    return (
      entry && {
        session,
        startedAt: entry.startedAt,
        ...(entry.title !== undefined && { title: entry.title }),
        ...(entry.agent !== undefined && { agent: entry.agent }),
      }
    );
  }

  turn(session: string, turn: string): TurnName | undefined {
    const entry = this.chats.peek(session)?.turns.peek(turn);
    return (
      entry && {
        session,
        turn,
        ordinal: entry.ordinal,
        startedAt: entry.startedAt,
        ...(entry.prompt !== undefined && { prompt: entry.prompt }),
      }
    );
  }

  toJSON(): ChatNamesState {
    return {
      version: STATE_VERSION,
      chats: [...this.chats].map(([session, c]) => ({
        session,
        startedAt: c.startedAt,
        ...(c.title !== undefined && { title: c.title }),
        ...(c.agent !== undefined && { agent: c.agent }),
        turnsSeen: c.turnsSeen,
        turns: [...c.turns].map(([turn, t]) => ({
          turn,
          ordinal: t.ordinal,
          startedAt: t.startedAt,
          ...(t.prompt !== undefined && { prompt: t.prompt }),
        })),
      })),
    };
  }

  /** Takes in a saved state (a window's before a reload): the chats not noted here yet. */
  absorb(state: unknown): void {
    const saved = ChatNames.restore(state, this.now);
    let added = false;
    for (const [session, entry] of saved.chats) {
      if (this.chats.has(session)) continue;
      this.chats.set(session, entry);
      added = true;
    }
    if (added) this.changed.fire();
  }

  /** Rebuilds from a saved state; anything malformed is skipped, never thrown. */
  static restore(state: unknown, now?: () => number): ChatNames {
    const names = new ChatNames(now);
    const s = record(state);
    if (!s || s.version !== STATE_VERSION || !Array.isArray(s.chats)) return names;
    // only the newest entries could survive the bound: a huge list costs no more than a full one
    for (const c of s.chats.slice(-MAX_NAMED_CHATS).map(record)) {
      const session = c && nonEmpty(c.session);
      if (!c || session === undefined || !isTime(c.startedAt)) continue;
      const entry: ChatEntry = { startedAt: c.startedAt, turnsSeen: 0, turns: new BoundedMap(MAX_NAMED_TURNS) };
      // words pass through the same cut as a prompt's: a tampered state cannot store a whole prompt
      const title = typeof c.title === 'string' && session !== NO_CHAT_SESSION ? promptWords(c.title) : undefined;
      if (title !== undefined) entry.title = title;
      if (typeof c.agent === 'string' && c.agent.length > 0 && c.agent.length <= 40) entry.agent = c.agent;
      const ordinals = new Set<number>();
      for (const t of (Array.isArray(c.turns) ? c.turns.slice(-MAX_NAMED_TURNS) : []).map(record)) {
        const turn = t && nonEmpty(t.turn);
        if (!t || turn === undefined || !isOrdinal(t.ordinal) || ordinals.has(t.ordinal) || !isTime(t.startedAt)) continue;
        ordinals.add(t.ordinal);
        const prompt = typeof t.prompt === 'string' ? promptWords(t.prompt) : undefined;
        entry.turns.set(turn, { ordinal: t.ordinal, startedAt: t.startedAt, ...(prompt !== undefined && { prompt }) });
      }
      // never hand out an ordinal a kept turn has
      entry.turnsSeen = Math.max(isOrdinal(c.turnsSeen) ? c.turnsSeen : 0, ...[...entry.turns].map(([, t]) => t.ordinal));
      names.chats.set(session, entry);
    }
    return names;
  }

  private chatOf(session: string): { entry: ChatEntry; isNew: boolean } {
    const known = this.chats.get(session);
    if (known) return { entry: known, isNew: false };
    const entry: ChatEntry = { startedAt: this.now(), turnsSeen: 0, turns: new BoundedMap(MAX_NAMED_TURNS) };
    this.chats.set(session, entry);
    return { entry, isNew: true };
  }

  private turnOf(chat: ChatEntry, turn: string): { entry: TurnEntry; isNew: boolean } {
    const known = chat.turns.get(turn);
    if (known) return { entry: known, isNew: false };
    const entry: TurnEntry = { ordinal: ++chat.turnsSeen, startedAt: this.now() };
    chat.turns.set(turn, entry);
    return { entry, isNew: true };
  }
}

const record = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
const nonEmpty = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isOrdinal = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 1;
