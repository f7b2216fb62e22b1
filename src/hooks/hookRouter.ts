// The gate in front of other agents' own file tools, through their hooks: turns each hook event the
// bridge receives into the core's calls (mark a read, check an edit, record the agent's own write,
// forget a compacted chat) and the hook's answer. Thin: the rules are the core's
// (src/core/externalEdits.ts), and what an event means is the agent's (src/agents/<agent>/node/, a
// `AgentHooks`). No `vscode`: where a file is and how it is named come in through `resolveFile`, so
// the settling and the turn counting below are unit-tested.
//
// Timing, as measured in Copilot's loop: PreToolUse is awaited before the tool runs, but a tool's
// PostToolUse may reach us only after the chat's NEXT PreToolUse (the agent goes on while the hook
// process starts). So a read's mark is of the version captured at its PreToolUse — the text the tool
// then showed — and a tool's effects are settled at whichever comes first: its PostToolUse or the
// chat's next event (an agent runs one tool at a time, so a new event means the earlier tool is done).
// A call the agent's own tool failed leaves nothing: no mark, and its file is free at once (rule 14).
import { BoundedMap } from '../core/boundedMap';
import type { ChatNames } from '../chat/names';
import type { ChatSessions } from '../chat/session';
import type { ExternalEdits } from '../core/externalEdits';
import type { CallContext, Logger, SeenVersion } from '../core/ports';
import type { ShellRun } from '../core/shellRuns';
import { KeyedLock } from '../core/lock';
import type { ExpectedCalls } from '../chat/expectedCalls';
import { ownToolId } from '../core/toolIds';
import { type AfterCall, type AgentHooks, type HookEvent, type HookOrigin, isAfterCall, isBeforeCall } from './event';
import { ANSWER_WITHIN_MS } from './protocol';
import type { ShellLevel, WriteHow } from '../shell';
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';

export interface HookRouterEnvironment {
  edits: ExternalEdits;
  sessions: Pick<ChatSessions, 'keyOfChatId'>;
  log: Logger;
  /** The agents whose hooks the bridge answers, by id. */
  agents: ReadonlyMap<string, AgentHooks>;
  /** Whether an agent's hooks are gated now (its setting): when not, its events are let through untouched. */
  active(agent: string): boolean;
  /** A tool ran for this chat: the status bar follows the latest one. */
  onActivity(session: string): void;
  /** A path as a hook names it (relative to the hook's `cwd`, if any): its URI, and how it is shown. */
  resolveFile(filePath: string, cwd: string | undefined): { uri: string; path: string };
  /** The chat has (or no longer has) a tool call to settle at its next event: the bridge tells the client (protocol.ts, PENDING_PREFIX). */
  onPending?(chat: string, pending: boolean): void;
  /** Where the surfaces learn the chats' and turns' names: the turns counted here, the words of each prompt, the retag to Copilot's id. */
  names?: Pick<ChatNames, 'noteCall' | 'notePrompt' | 'retagTurn' | 'noteAgent'>;
  /** One of our guarded tools is about to run for this chat (its hook saw it first): the tool takes the chat and turn from here. */
  expected?: Pick<ExpectedCalls, 'announce'>;
  /** The shell level (src/shell), its parser loaded: at the first shell command, not at start (src/shell/index.ts). */
  shell(): Promise<ShellLevel>;
}

/** Which call an entry is of: the agent's id of the call and the model response it is of, where the agent tells them. */
interface CallOf {
  call?: string;
  response?: string;
}

/** What a chat's running tool will leave behind once it is done. */
interface Pending {
  /** reads: the version each will have shown */
  reads: Array<{ ctx: CallContext; seen: SeenVersion } & CallOf>;
  /** edits the gate let through: the agent's own writes (`deletes`: a shell command's `rm`, recorded only if the file went) */
  writes: Array<{ ctx: CallContext; deletes?: boolean } & CallOf>;
  /** shell commands the parse could not see through, with the disk watched while they run (rule 16) */
  shells: Array<{ ctx: CallContext; run: ShellRun; named: ReadonlySet<string>; callOn: (uri: string) => CallContext } & CallOf>;
}

/** Bounded: a window sees few chats, but a long-lived one should not grow without end. */
const MAX_CHATS = 1000;

export class HookRouter {
  /** chat id → user messages seen: the hooks carry no turn id, so a turn is counted from UserPromptSubmit */
  private readonly turns = new BoundedMap<string, number>(MAX_CHATS);
  /** chat id → the agent's own id of its current turn, for an agent whose payloads carry one (Codex's `turn_id`) */
  private readonly agentTurns = new BoundedMap<string, string>(MAX_CHATS);
  /** chat id → Copilot's id of the turn, learned when a guarded tool of that turn ran (see `noteGuardedCall`) */
  private readonly requestIds = new BoundedMap<string, { id: string; prompt: number }>(MAX_CHATS);
  /** session key → chat id, for the chats the hooks have named */
  private readonly chats = new BoundedMap<string, string>(MAX_CHATS);
  private readonly pending = new BoundedMap<string, Pending>(MAX_CHATS);
  /** chat id → the agent whose chat it is, for agents that share hook entries (a chat once claimed stays its agent's) */
  private readonly owners = new BoundedMap<string, string>(MAX_CHATS);
  private readonly byChat = new KeyedLock();
  private shellParserFailed = false;

  constructor(private readonly env: HookRouterEnvironment) {}

  /** One hook event of an agent (its id, as the hook command names it; the hook's stdin) → what the hook prints ('' = no objection). */
  async handle(agentId: string, payloadText: string, origin: HookOrigin = {}): Promise<string> {
    // the editor's documents are brought up to date with what the editor held when the event arrived (Editor.sync)
    const asOf = performance.now();
    const sharing = [...this.env.agents.values()].filter((a) => (a.channel ?? a.id) === agentId);
    if (sharing.length === 0) {
      this.env.log.warn(`hooks bridge: a hook of an agent this version does not know (${agentId}); let through`);
      return '';
    }
    // none of them guarded now: let it through untouched, unread
    if (!sharing.some((a) => this.env.active(a.id))) return '';
    let payload: { cwd?: unknown; session_id?: unknown } | null;
    try {
      payload = JSON.parse(payloadText);
    } catch {
      this.env.log.warn(`hooks bridge: a ${sharing[0].name} hook sent input that is not JSON; let through`);
      return '';
    }
    const received = Date.now();
    const agent = this.ownerOf(sharing, agentId, payload, origin);
    // the answer is due within this, waiting for another chat's write in flight included (rule 14)
    const deadline = received + (agent.answerWithinMs ?? ANSWER_WITHIN_MS);
    if (!this.env.active(agent.id)) return '';
    const cwd = typeof payload?.cwd === 'string' ? payload.cwd : undefined;
    const event = agent.parse(payload);
    const chat = event.chat;
    if (chat === undefined) return '';
    this.prepare(event, chat, cwd, asOf);
    // one chat's events one at a time: the bridge serves each hook process on its own connection, so
    // a tool's PostToolUse may still be settling when the chat's next event (or PreCompact) arrives
    return this.byChat.run(chat, () => this.apply(agent, event, cwd, deadline, asOf));
  }

  /**
   * The round trip that brings the editor's documents up to date, started as soon as the event is read, when it will
   * load a file the editor holds: one it reads or edits, or one its chat's finished call wrote (settled below). An
   * event that loads nothing — a mark, a turn, a tool the gate does not need, a shell command (its files are known once
   * it is parsed) — starts none.
   */
  private prepare(event: HookEvent, chat: string, cwd: string | undefined, asOf: number): void {
    const named = event.kind === 'before-read' || event.kind === 'before-edit' ? event.files : [];
    const uris = named.map((f) => this.env.resolveFile(typeof f === 'string' ? f : f.path, cwd).uri);
    for (const { ctx } of this.pending.get(chat)?.writes ?? []) uris.push(ctx.uri);
    if (uris.length > 0) this.env.edits.prepare(uris, asOf);
  }

  /**
   * Of the agents that run one channel's hook entries, the one this payload is of: the agent its chat
   * was claimed by, else the first that claims it, else the channel's own agent.
   */
  private ownerOf(sharing: AgentHooks[], channel: string, payload: unknown, origin: HookOrigin): AgentHooks {
    if (sharing.length === 1) return sharing[0];
    const chat =
      typeof (payload as { session_id?: unknown } | null)?.session_id === 'string'
        ? (payload as { session_id: string }).session_id
        : undefined;
    const known = chat !== undefined ? sharing.find((a) => a.id === this.owners.get(chat)) : undefined;
    const owner = known ?? sharing.find((a) => a.claims?.(payload, origin)) ?? sharing.find((a) => a.id === channel) ?? sharing[0];
    if (chat !== undefined && !known && owner.claims?.(payload, origin)) this.owners.set(chat, owner.id);
    return owner;
  }

  private async apply(agent: AgentHooks, event: HookEvent, cwd: string | undefined, deadline: number, asOf: number): Promise<string> {
    if (event.kind === 'compact') {
      // the summary replaces the text the model read: its marks must not outlive it, nor reads still settling
      this.dropPending(event.chat);
      const session = this.env.sessions.keyOfChatId(event.chat);
      const forgotten = this.env.edits.forgetChat(session);
      this.env.log.info(
        `chat …${session.slice(-8)} is being compacted: forgot its read marks of ${forgotten} file(s); its next edit of each needs a fresh read`,
      );
      return '';
    }
    // a call the agent's own tool failed showed nothing and wrote nothing: it leaves no mark, and its files are free
    if (isAfterCall(event) && event.failed) this.dropFailed(event, cwd);
    // any other event of a chat means its earlier tool call is done — but where one model response's calls run at
    // once, a call is done at its own result (or at the chat's next event of another kind, or at the first check of
    // a later response), not at a sibling's check
    if (event.chat) {
      if (!agent.parallelCalls) await this.settle(event.chat, asOf);
      else if (isAfterCall(event)) await this.settle(event.chat, asOf, ofCall(event.call));
      else if (!isBeforeCall(event)) await this.settle(event.chat, asOf);
      else if (event.response !== undefined) await this.settle(event.chat, asOf, ofEarlierResponse(event.response));
    }
    if (event.kind === 'ignore') return '';

    const session = this.env.sessions.keyOfChatId(event.chat);
    this.chats.set(session, event.chat);
    // an agent that names its turns: this event's turn is the chat's current one
    if ('turn' in event && event.turn !== undefined) this.agentTurns.set(event.chat, event.turn);
    // marks stamped after this event arrived do not count for it (rule 9)
    const arrival = this.env.edits.arrival();
    const call = (tool: string, file: string) => this.call(agent, tool, session, event.chat, file, cwd, arrival);
    // an agent that reads and writes the disk itself: what it saw is the disk's text, and it must not write under unsaved changes (rule 13)
    const writesDisk = agent.writesDisk ? agent.name : undefined;
    if (agent.ownChats) this.env.names?.noteAgent(session, agent.name);
    switch (event.kind) {
      case 'turn': {
        let turn = event.turn;
        if (turn === undefined) {
          const count = (this.turns.get(event.chat) ?? 0) + 1;
          this.turns.set(event.chat, count);
          turn = countedTurn(event.chat, count);
        }
        if (event.prompt !== undefined) this.env.names?.notePrompt(session, turn, event.prompt);
        else this.env.names?.noteCall(session, turn);
        return '';
      }
      case 'before-read': {
        this.noteActivity(session, event.chat);
        for (const file of event.files) {
          const ctx = call(event.tool, file);
          const seen = await this.env.edits.versionOf(ctx.uri, writesDisk ? 'disk' : 'editor', { session, deadline, asOf });
          if (seen) this.pendingOf(event.chat).reads.push({ ctx, seen, call: event.call, response: event.response });
        }
        return '';
      }
      case 'before-edit': {
        this.noteActivity(session, event.chat);
        const calls = event.files.map((f) => call(event.tool, f.path));
        // each file with the oldStrings aimed at it (rule 12)
        const verdict = await this.env.edits.check(
          calls.map((ctx, i) => ({ ...ctx, quotes: event.files[i].quotes, writesDisk, callsAtOnce: agent.parallelCalls })),
          deadline,
          asOf,
        );
        if (!verdict.allow) return agent.deny(verdict.text);
        this.pendingOf(event.chat).writes.push(...calls.map((ctx) => ({ ctx, call: event.call, response: event.response })));
        return '';
      }
      case 'before-shell':
        return this.beforeShell(agent, event, session, cwd, arrival, deadline, asOf);
      case 'guarded-call': {
        const tool = ownToolId(event.call.tool);
        if (tool) this.env.expected?.announce(tool, event.call.input, { session, turn: this.turnOf(event.chat) });
        return '';
      }
      case 'after-read':
      case 'after-edit':
      case 'after-shell':
        return ''; // settled above
    }
  }

  /**
   * An agent's shell tool is about to run a command (rule 16): each file it writes is checked as an edit of that file by
   * an agent that writes the disk (its buffer's unsaved changes refuse it, rule 13), the whole command refused when one
   * file is; a `rm` needs no read, only no unsaved changes. A plain read of one file marks it, as a read tool's would.
   * A command that writes nothing the parse can name passes at once: never refused for being opaque (rule 7).
   */
  private async beforeShell(
    agent: AgentHooks,
    event: Extract<HookEvent, { kind: 'before-shell' }>,
    session: string,
    cwd: string | undefined,
    arrival: number,
    deadline: number,
    asOf: number,
  ): Promise<string> {
    this.noteActivity(session, event.chat);
    let shell: ShellLevel;
    try {
      shell = await this.env.shell();
    } catch (e) {
      // once: every shell command would say it again
      if (!this.shellParserFailed) this.env.log.error(`the shell parser did not load, so shell commands pass unchecked: ${String(e)}`);
      this.shellParserFailed = true;
      return '';
    }
    const effects = shell.shellEffects(event.command, { home: homedir() });
    // the folder the command starts in: the one its call names, from the payload's cwd
    const base = event.dir === undefined ? cwd : (fsPathOf(this.env.resolveFile(event.dir, cwd).uri) ?? cwd);
    const call = (file: string) => this.call(agent, event.tool, session, event.chat, file, base, arrival);
    const of = { call: event.call, response: event.response };
    if (effects.read !== undefined) {
      const ctx = call(effects.read);
      const seen = await this.env.edits.versionOf(ctx.uri, 'disk', { session, deadline, asOf });
      if (seen) this.pendingOf(event.chat).reads.push({ ctx, seen, ...of });
      return '';
    }
    const files: Array<{ ctx: CallContext; how: WriteHow }> = [];
    // a folder it names, or what it cannot name at all: what it writes there is seen as it lands
    let unnamed = effects.opaque;
    for (const write of effects.writes) {
      const uri = this.env.resolveFile(write.path, base).uri;
      const onDisk = fsPathOf(uri);
      const named = onDisk === undefined ? { files: [write.path], folder: false } : shell.filesOnDisk(write, onDisk);
      unnamed ||= named.folder;
      for (const file of named.files) {
        const ctx = call(file);
        if (!files.some((f) => f.ctx.uri === ctx.uri)) files.push({ ctx, how: write.how });
      }
    }
    if (files.length > 0) {
      const verdict = await this.env.edits.check(
        files.map(({ ctx, how }) => ({ ...ctx, writesDisk: agent.name, deletes: how === 'delete', callsAtOnce: agent.parallelCalls })),
        deadline,
        asOf,
      );
      if (!verdict.allow) return agent.deny(verdict.text);
      this.pendingOf(event.chat).writes.push(...files.map(({ ctx, how }) => ({ ctx, deletes: how === 'delete', ...of })));
    }
    // what it writes beyond the files named is seen as it lands: watched until the call settles
    if (unnamed) {
      const run = await this.env.edits.startShellRun(session);
      if (run) {
        const named = new Set(files.map((f) => f.ctx.uri));
        const callOn = (uri: string) => call(fsPathOf(uri) ?? uri);
        // the call as its entries are told apart (its tool), on the folder it runs in
        this.pendingOf(event.chat).shells.push({ ctx: call(base ?? '.'), run, named, callOn, ...of });
      }
    }
    return '';
  }

  /**
   * A guarded tool ran in this chat with Copilot's id of the turn (`chatRequestId`). Built-in calls of
   * the same turn were stamped under the counted turn; from now on both are that id, so an own write
   * by either kind of tool counts for the other within the turn (editGuard.ownWriteKeepsMark).
   */
  noteGuardedCall(session: string, requestId: string | undefined): void {
    const chat = this.chats.get(session);
    if (!requestId || !chat) return;
    const prompt = this.turns.get(chat) ?? 0;
    if (this.requestIds.get(chat)?.prompt === prompt) return;
    this.requestIds.set(chat, { id: requestId, prompt });
    const counted = countedTurn(chat, prompt);
    this.env.edits.renameTurn(session, counted, requestId);
    this.env.names?.retagTurn(session, counted, requestId);
    const pending = this.pending.get(chat);
    for (const { ctx: p } of [...(pending?.reads ?? []), ...(pending?.writes ?? [])]) {
      if (p.turn === counted) p.turn = requestId;
    }
  }

  /** A tool of this chat runs: the status bar follows it, and the names learn its chat and turn. */
  private noteActivity(session: string, chat: string): void {
    this.env.onActivity(session);
    this.env.names?.noteCall(session, this.turnOf(chat));
  }

  /**
   * Stamps what the chat's finished tool calls left: the versions its reads showed, its own writes. `isDone`: only
   * what those calls left (an agent whose calls run at once); all of the chat's by default.
   */
  private async settle(chat: string, asOf: number, isDone: (entry: CallOf & { ctx: CallContext }) => boolean = () => true): Promise<void> {
    const done = this.take(chat, isDone);
    if (!done) return;
    for (const { ctx, seen } of done.reads) this.env.edits.stampRead(ctx, seen);
    // the text a write left is the document's now (a file the call deleted is simply not marked); each
    // write's file is free once its mark is stamped (rule 14)
    for (const { ctx, deletes } of done.writes) await this.env.edits.recordWrite(ctx, { deletes, asOf });
    this.finishShells(done);
  }

  /**
   * A call the agent's own tool failed (or refused by itself: no match, the file exists, a permission declined): it
   * read nothing and wrote nothing, so it stamps no mark, and the files it held are free at once (rule 14). The call
   * is the one the event names, else the chat's calls of that tool on those files.
   */
  private dropFailed(event: AfterCall, cwd: string | undefined): void {
    const files = event.kind === 'after-shell' ? undefined : event.files;
    // a shell command names no files here: the chat's entries of that tool are its
    const uris = new Set(files?.map((f) => this.env.resolveFile(typeof f === 'string' ? f : f.path, cwd).uri));
    const isThis = (e: CallOf & { ctx: CallContext }) =>
      event.call !== undefined ? e.call === event.call : e.ctx.tool === event.tool && (files === undefined || uris.has(e.ctx.uri));
    const dropped = this.take(event.chat, isThis);
    for (const { ctx } of dropped?.writes ?? []) {
      this.env.edits.abandon(ctx);
      this.env.log.debug(`${ctx.tool} ${ctx.path} failed in ${ctx.agentName ?? 'the agent'}'s own tool: no mark, the file is free`);
    }
    // a command that failed may still have written some files before it did
    if (dropped) this.finishShells(dropped);
  }

  /** Forgets what the chat's running tool would leave (compaction): its writes' files are free again (rule 14). */
  private dropPending(chat: string): void {
    const dropped = this.take(chat, () => true);
    for (const { ctx } of dropped?.writes ?? []) this.env.edits.abandon(ctx);
    if (dropped) this.finishShells(dropped);
  }

  /**
   * Shell commands that are over, the disk watched while they ran: what each changed beyond the files its check named is
   * recorded as its writes, after the watcher's late reports — in the background: no answer waits for it.
   */
  private finishShells(done: Pending): void {
    for (const { run, named, callOn } of done.shells)
      run.finish(named, callOn).catch((e) => this.env.log.error(`recording what a shell command wrote failed: ${String(e)}`));
  }

  /** Takes the chat's pending entries that `which` picks out of its list (the bridge is told when none is left). */
  private take(chat: string, which: (entry: CallOf & { ctx: CallContext }) => boolean): Pending | undefined {
    const pending = this.pending.get(chat);
    if (!pending) return undefined;
    const taken = { reads: pending.reads.filter(which), writes: pending.writes.filter(which), shells: pending.shells.filter(which) };
    pending.reads = pending.reads.filter((e) => !which(e));
    pending.writes = pending.writes.filter((e) => !which(e));
    pending.shells = pending.shells.filter((e) => !which(e));
    if (pending.reads.length === 0 && pending.writes.length === 0 && pending.shells.length === 0) {
      this.pending.delete(chat);
      this.env.onPending?.(chat, false);
    }
    return taken;
  }

  private pendingOf(chat: string): Pending {
    let p = this.pending.get(chat);
    if (!p) {
      p = { reads: [], writes: [], shells: [] };
      this.pending.set(chat, p);
      this.env.onPending?.(chat, true);
    }
    return p;
  }

  private call(
    agent: AgentHooks,
    tool: string,
    session: string,
    chat: string,
    filePath: string,
    cwd: string | undefined,
    arrival: number,
  ): CallContext {
    const { uri, path } = this.env.resolveFile(filePath, cwd);
    return { tool, verb: agent.verb(tool), agent: agent.id, agentName: agent.name, session, turn: this.turnOf(chat), uri, path, arrival };
  }

  /** The agent's own id of the chat's current turn; else Copilot's id if a guarded tool has told it; else the counted turn. */
  private turnOf(chat: string): string {
    const own = this.agentTurns.get(chat);
    if (own !== undefined) return own;
    const prompt = this.turns.get(chat) ?? 0;
    const known = this.requestIds.get(chat);
    return known?.prompt === prompt ? known.id : countedTurn(chat, prompt);
  }
}

/** The entries of one call (`call` undefined: of every call, the agent naming none). */
const ofCall = (call: string | undefined) => (e: CallOf) => call === undefined || e.call === call;
/** The entries of the responses before `response`: a check of a later response means they have all run. */
const ofEarlierResponse = (response: string) => (e: CallOf) => e.response !== undefined && e.response !== response;

/** The file a `file:` URI names on this machine; undefined for another scheme. */
function fsPathOf(uri: string): string | undefined {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}

/** A turn's name before Copilot's id for it is known: the chat and its count of user messages. */
const countedTurn = (chat: string, prompt: number) => `${chat}#${prompt}`;
