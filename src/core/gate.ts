// What every path through the gate shares — our tools' writes (guardedTools.ts) and other agents' edits
// (externalEdits.ts): one lock per file, the check against the chat's marks, the refusal that shows
// what changed, the record of the agent's own write, and the finish every result gets.
import { sha256 } from './hash';
import { BoundedMap } from './boundedMap';
import { changedLineRanges, type LineRange, unifiedDiff } from './diff';
import { Emitter } from './events';
import { decide, type GateDecision } from './decision';
import { KeyedLock } from './lock';
import type { MarkStore } from './marks';
import { Reservations } from './reservations';
import {
  blockedHeadline,
  blockedSummary,
  CAUSE,
  changedBody,
  currentContentBody,
  duplicateBody,
  duplicateHeadline,
  errorText,
  inFlightBody,
  inFlightHeadline,
  numberedText,
  revertedName,
  SEEN_DIFF_LABELS,
  staleNotice,
  UNSAVED_DIFF_LABELS,
  unsavedBody,
  unsavedInEditorHeadline,
} from './messages';
import type {
  BlockedWrite,
  CallContext,
  CompletedWrite,
  DocumentPort,
  FaultInjector,
  GateSettings,
  LoadedDocument,
  Logger,
  SeenVersion,
} from './ports';
import { renderNumbered } from './render';
import { lastLineOf, partOfText } from './text';
import type { Duplicate } from './duplicate';
import type { ErrorCode, LineSpan, RefusalReason, ResultData, ToolOutcome } from './types';

/** Files whose display names are remembered for stale notices; the least recently used go first. */
const MAX_NAMED_FILES = 10_000;

/** How long one of our tools waits for another chat's write in flight on its file before it is refused (rule 14). */
export const TOOL_WAIT_MS = 30_000;

/** What a check that waited gets back when its turn did not come in time: who was writing the file, when known. */
export type Waited<T> = { ran: true; value: T } | { ran: false; writer?: string };

const AGAIN = Symbol('again');

export class Gate {
  readonly lock = new KeyedLock();
  private readonly blocked: Emitter<BlockedWrite>;
  private readonly written: Emitter<CompletedWrite>;
  /** Display names of the files the chats have seen, for notices. */
  private readonly names = new BoundedMap<string, string>(MAX_NAMED_FILES);
  /** uri → the hash of the text the user's revert left: a chat that saw the agent's version is told why it changed. */
  private readonly reverts = new BoundedMap<string, string>(MAX_NAMED_FILES);
  /** uri → the last write let through and recorded, with who made it: a refusal names them (rule 6's cause). */
  private readonly lastWrites = new BoundedMap<string, { hash: string; session: string; writer?: string }>(MAX_NAMED_FILES);
  readonly onDidBlock: Emitter<BlockedWrite>['event'];
  readonly onDidWrite: Emitter<CompletedWrite>['event'];
  faultInjector: FaultInjector | undefined;

  constructor(
    readonly store: MarkStore,
    readonly port: DocumentPort,
    /** The settings that apply to a file (a folder may override them). */
    readonly settings: (uri: string) => GateSettings,
    readonly log: Logger,
    /** Rule 14: the writes let through and not landed yet, each holding its file. */
    readonly reservations = new Reservations(),
  ) {
    // a listener's failure must not stop the gate, and must not vanish either
    const report = (e: unknown) =>
      log.error(`a listener of the gate's events failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    this.blocked = new Emitter(report);
    this.written = new Emitter(report);
    this.onDidBlock = this.blocked.event;
    this.onDidWrite = this.written.event;
  }

  /** The watermark a call takes when it arrives: marks stamped later do not count for it (rule 9). */
  arrival(): number {
    return this.store.watermark;
  }

  /**
   * `body` in the file's critical section once no other chat's write is in flight on it (rule 14): it
   * waits for the reservation, then for the lock, until `deadline` (ms since the epoch). A write let
   * through while it waited for the lock holds the file again, so it looks once more inside the lock.
   */
  async exclusive<T>(uri: string, session: string, deadline: number, body: () => Promise<T>): Promise<Waited<T>> {
    for (;;) {
      if (!(await this.reservations.whenFree(uri, session, deadline))) {
        return { ran: false, writer: this.reservations.heldByOther(uri, session)?.writer };
      }
      const turn = await this.lock.runWithin(uri, deadline, async () =>
        this.reservations.heldByOther(uri, session) ? AGAIN : { value: await body() },
      );
      if (!turn.ran) return { ran: false };
      if (turn.value !== AGAIN) return { ran: true, value: turn.value.value };
    }
  }

  /** How the file is named to the model, in later notices. */
  name(ctx: CallContext): void {
    this.names.set(ctx.uri, ctx.path);
  }

  /** Rule 7: a bug in the gate lets the write through (and is logged); it never blocks. */
  check(ctx: CallContext, doc: LoadedDocument, settings: GateSettings): { decision: GateDecision; failOpen: boolean } {
    try {
      this.faultInjector?.('decide');
      const decision = decide({
        enabled: settings.enabled,
        exists: true,
        currentHash: doc.hash,
        mark: this.store.newest(ctx.session, ctx.uri, ctx.arrival),
        turn: ctx.turn,
        ownWriteKeepsMark: settings.ownWriteKeepsMark,
        readKeepsMark: settings.readKeepsMark,
      });
      return { decision, failOpen: false };
    } catch (e) {
      this.log.error(`gate failed on ${ctx.path}; letting the write through: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return { decision: { allow: true, basis: 'seen' }, failOpen: true };
    }
  }

  /**
   * A check that follows an allowing decision (rule 11's duplicate, rule 12's quotes), failing open
   * like the decision (rule 7): a bug in it lets the write through. `found`: what it objects to.
   */
  checkAfterDecision<T>(ctx: CallContext, check: 'duplicate' | 'quote', find: () => T | undefined): { found?: T; failOpen: boolean } {
    try {
      const found = find();
      return found === undefined ? { failOpen: false } : { found, failOpen: false };
    } catch (e) {
      this.log.error(
        `${check} check failed on ${ctx.path}; letting the write through: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
      );
      return { failOpen: true };
    }
  }

  /** Rule 6: a refusal says why, shows what changed (or the content), and stamps a mark. */
  refuse(ctx: CallContext, doc: LoadedDocument, reason: RefusalReason, settings: GateSettings): ToolOutcome {
    // the version this call was based on: the newest mark that existed when it arrived (rule 9);
    // a parallel call may have stamped newer ones since
    const seen = this.store.newest(ctx.session, ctx.uri, ctx.arrival);
    const before = seen && reason !== 'not-read' ? this.store.snapshot(ctx.session, ctx.uri, seen.hash) : undefined;
    const cause = reason === 'changed' ? this.causeOfChange(ctx, doc) : undefined;
    const maxChars = settings.maxResultChars ?? Infinity;
    let body: string;
    let changedLines: LineRange[] = [{ start: 0, end: 0 }];
    const showsDiff = before !== undefined && reason === 'changed';
    if (showsDiff) {
      const diff = unifiedDiff(before, doc.text, ctx.path, SEEN_DIFF_LABELS, settings.maxReadLines, maxChars);
      changedLines = changedLineRanges(before, doc.text);
      body = changedBody(diff.text, diff.omittedLines, diff.text.split('\n').length > 2 || diff.omittedLines > 0);
    } else {
      const rendered = renderNumbered(doc.text, { maxLines: settings.maxReadLines, maxChars });
      body = currentContentBody(numberedText(ctx.path, rendered, settings.maxReadLines, maxChars));
    }
    const headline = blockedHeadline(reason, ctx.verb, ctx.path, cause, settings.ownWriteKeepsMark, showsDiff);
    // the refusal showed the current text: the agent has now seen it
    this.store.stamp({ session: ctx.session, uri: ctx.uri, hash: doc.hash, turn: ctx.turn, origin: 'refusal', text: doc.text });
    this.announceBlock(ctx, reason, changedLines, `${reason}${cause ? ` (${cause})` : ''}`);
    const lead = `${headline}\n\n`;
    const span = showsDiff ? spanOfChanges(changedLines, doc.text) : undefined;
    const outcome = this.finish(ctx, lead + body, {
      status: 'blocked',
      tool: ctx.tool,
      path: ctx.path,
      uri: ctx.uri,
      reason,
      ...(span ? { changedLines: span } : {}),
      message: blockedSummary(ctx.verb, ctx.path, reason),
    });
    return { ...outcome, lead };
  }

  /**
   * Rule 11: the write would add a block the file already holds. Shows where it stands; stamps no
   * mark (the chat's newest mark is current, or the gate would have refused first, and a few lines
   * shown are no reason to let a turn-bound own-write mark become a read that outlives the turn).
   */
  refuseDuplicate(ctx: CallContext, doc: LoadedDocument, dup: Duplicate, append: boolean, settings: GateSettings): ToolOutcome {
    const maxChars = settings.maxResultChars ?? Infinity;
    const rendered = renderNumbered(doc.text, {
      offset: dup.start,
      limit: dup.end - dup.start + 1,
      maxLines: settings.maxReadLines,
      maxChars,
    });
    const headline = duplicateHeadline(append, ctx.path, dup);
    const lines: LineSpan = { start: dup.start, end: dup.end };
    this.announceBlock(ctx, 'duplicate', [{ start: dup.start - 1, end: dup.end - 1 }], `duplicate of lines ${dup.start}-${dup.end}`);
    const lead = `${headline}\n\n`;
    const outcome = this.finish(ctx, lead + duplicateBody(numberedText(ctx.path, rendered, settings.maxReadLines, maxChars)), {
      status: 'blocked',
      tool: ctx.tool,
      path: ctx.path,
      uri: ctx.uri,
      reason: 'duplicate',
      duplicateLines: lines,
      message: blockedSummary(ctx.verb, ctx.path, 'duplicate'),
    });
    return { ...outcome, lead };
  }

  /**
   * Rule 13: an agent that writes the disk itself (`agent`, as the user knows it) is about to change a
   * file whose buffer holds unsaved changes. Shows them (disk → buffer). Where the agent's copy is the
   * disk's text, the diff completes it to the buffer's, and a mark of that text is stamped: once the user
   * has saved, the retry needs no read. It lets nothing through before: this rule comes before any mark.
   */
  refuseUnsaved(ctx: CallContext, doc: LoadedDocument, disk: SeenVersion, agent: string, settings: GateSettings): ToolOutcome {
    const counted = this.store.newest(ctx.session, ctx.uri, ctx.arrival)?.hash === disk.hash;
    if (counted)
      this.store.stamp({ session: ctx.session, uri: ctx.uri, hash: doc.hash, turn: ctx.turn, origin: 'refusal', text: doc.text });
    const diff = unifiedDiff(
      disk.text,
      doc.text,
      ctx.path,
      UNSAVED_DIFF_LABELS,
      settings.maxReadLines,
      settings.maxResultChars ?? Infinity,
    );
    const changedLines = changedLineRanges(disk.text, doc.text);
    this.announceBlock(ctx, 'unsaved-in-editor', changedLines, `unsaved-in-editor (${agent} writes the disk)`);
    const lead = `${unsavedInEditorHeadline(ctx.verb, ctx.path, agent, counted)}\n\n`;
    const span = spanOfChanges(changedLines, doc.text);
    const outcome = this.finish(ctx, lead + unsavedBody(diff.text, diff.omittedLines), {
      status: 'blocked',
      tool: ctx.tool,
      path: ctx.path,
      uri: ctx.uri,
      reason: 'unsaved-in-editor',
      ...(span ? { changedLines: span } : {}),
      message: blockedSummary(ctx.verb, ctx.path, 'unsaved-in-editor'),
    });
    return { ...outcome, lead };
  }

  /**
   * Rule 14: another chat's write let through a moment ago (`writer`, when known) has not landed, and this
   * call could not wait longer. Shows nothing and stamps no mark: the text is about to change.
   */
  refuseInFlight(ctx: CallContext, writer: string | undefined, headline = inFlightHeadline(ctx.verb, ctx.path, writer)): ToolOutcome {
    this.announceBlock(ctx, 'write-in-flight', [{ start: 0, end: 0 }], `write-in-flight (${writer ?? 'another write'})`);
    const lead = `${headline}\n\n`;
    const outcome = this.finish(ctx, lead + inFlightBody(ctx.path), {
      status: 'blocked',
      tool: ctx.tool,
      path: ctx.path,
      uri: ctx.uri,
      reason: 'write-in-flight',
      message: blockedSummary(ctx.verb, ctx.path, 'write-in-flight'),
    });
    return { ...outcome, lead };
  }

  /**
   * The agent's own write: a mark of the text it left (rule 3), and the event that clears its
   * diagnostic and records the edit for review (`before`: the text it changed, see `CompletedWrite`).
   */
  recordWrite(ctx: CallContext, after: SeenVersion, before: CompletedWrite['before'], saved: boolean): void {
    this.lastWrites.set(ctx.uri, { hash: after.hash, session: ctx.session, writer: ctx.agentName });
    this.store.stamp({ session: ctx.session, uri: ctx.uri, hash: after.hash, turn: ctx.turn, origin: 'write', text: after.text });
    this.written.fire({ session: ctx.session, turn: ctx.turn, uri: ctx.uri, tool: ctx.tool, agent: ctx.agent, before, after, saved });
  }

  /**
   * A write of the agent's the model never saw the text of (a script its shell command ran changed the file: rule 16):
   * recorded for review and revert, and named as the file's last writer; no mark, since the agent has not seen it.
   */
  recordUnseenWrite(ctx: CallContext, after: SeenVersion, before: CompletedWrite['before']): void {
    this.lastWrites.set(ctx.uri, { hash: after.hash, session: ctx.session, writer: ctx.agentName });
    this.written.fire({ session: ctx.session, turn: ctx.turn, uri: ctx.uri, tool: ctx.tool, agent: ctx.agent, before, after, saved: true });
  }

  /**
   * An agent's own deletion of the file (a patch's Delete File, or the source of its Move): recorded for
   * review with the text it removed; no mark, as there is no file to have seen.
   */
  recordDeletion(ctx: CallContext, before: SeenVersion): void {
    this.written.fire({
      session: ctx.session,
      turn: ctx.turn,
      uri: ctx.uri,
      tool: ctx.tool,
      agent: ctx.agent,
      before,
      after: { hash: sha256(''), text: '' },
      deleted: true,
      saved: true,
    });
  }

  /** The user reverted agent edits of the file, leaving the text with `hash` ('' when the file was deleted). */
  noteRevert(uri: string, hash: string): void {
    this.reverts.set(uri, hash);
  }

  ok(ctx: CallContext, text: string, message: string, extra: Partial<ResultData>): ToolOutcome {
    return this.finish(ctx, text, { status: 'ok', tool: ctx.tool, path: ctx.path, uri: ctx.uri, message, ...extra });
  }

  error(ctx: CallContext, code: ErrorCode, message: string, extra: Partial<ResultData> = {}): ToolOutcome {
    this.log.debug(`${ctx.tool} ${ctx.path}: error ${code}`);
    return this.finish(ctx, errorText(code, message), {
      status: 'error',
      tool: ctx.tool,
      path: ctx.path,
      uri: ctx.uri,
      code,
      message,
      ...extra,
    });
  }

  private causeOfChange(ctx: CallContext, doc: LoadedDocument): string {
    // a write of any chat that produced exactly the current text
    if (this.reverts.get(ctx.uri) === doc.hash) return CAUSE.revertedByUser;
    const writes = this.store.all().filter((m) => m.uri === ctx.uri && m.origin === 'write' && m.hash === doc.hash);
    if (writes.find((m) => m.seq >= ctx.arrival)?.session === ctx.session) return CAUSE.ownParallelCall;
    // the last write let through made exactly this text: say whose it was
    const last = this.lastWrites.get(ctx.uri);
    if (last?.hash === doc.hash && last.session !== ctx.session && last.writer !== undefined) return CAUSE.writtenBy(last.writer);
    if (writes.some((m) => m.session !== ctx.session)) return CAUSE.otherChat;
    if (doc.dirty) return CAUSE.unsavedEdit;
    return CAUSE.elsewhere;
  }

  /** A refusal is told: its diagnostic (the UI listens) and its log line (`detail`: the reason and what caused it). */
  private announceBlock(ctx: CallContext, reason: BlockedWrite['reason'], changedLines: LineRange[], detail: string): void {
    this.blocked.fire({
      session: ctx.session,
      turn: ctx.turn,
      tool: ctx.tool,
      agent: ctx.agent,
      uri: ctx.uri,
      path: ctx.path,
      reason,
      changedLines,
    });
    this.log.info(`blocked ${ctx.tool} on ${ctx.path}: ${detail} [${shortSession(ctx.session)} turn ${ctx.turn ?? '-'}]`);
  }

  /** Adds the turn and rule 10's notice of files this chat read that went stale since. */
  private finish(ctx: CallContext, text: string, data: ResultData): ToolOutcome {
    const stale = this.store
      .staleFiles(ctx.session, (uri) => this.port.currentHash?.(uri))
      .filter((m) => m.uri !== ctx.uri)
      .map((m) => {
        const name = this.names.get(m.uri) ?? m.uri;
        const reverted = this.reverts.get(m.uri);
        return reverted !== undefined && reverted === this.port.currentHash?.(m.uri) ? revertedName(name) : name;
      });
    if (ctx.turn !== undefined) data.turn = ctx.turn;
    if (stale.length) data.staleFiles = stale;
    return { text: text + staleNotice(stale), data };
  }
}

/** A session key's tail, enough to tell chats apart in the log. */
export const shortSession = (session: string) => session.slice(-8);

/** The lines from the first change to the last, 1-based, within the text; `undefined` when that is every line. */
function spanOfChanges(ranges: readonly LineRange[], text: string): LineSpan | undefined {
  if (ranges.length === 0) return undefined;
  const last = lastLineOf(text);
  return partOfText(Math.min(ranges[0].start + 1, last), Math.min(Math.max(ranges[0].end, ranges[ranges.length - 1].end) + 1, last), last);
}
