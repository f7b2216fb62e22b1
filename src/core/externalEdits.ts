// The gate in front of another agent's own file tools (Copilot's built-in tools, through the hooks
// bridge): those tools apply their edits themselves, outside our lock, so the gate sees each call
// twice — before it runs (check every file it touches) and after (mark what it read or wrote). The
// adapter names the tool and its verb; nothing here knows which agent it is.
import type { Instant } from './barrier';
import { BoundedMap } from './boundedMap';
import { type Gate, shortSession } from './gate';
import { externalDenialLead, externalUnsafeStop, SIBLING_WRITER } from './messages';
import type { CallContext, GateSettings, LoadedDocument, SeenVersion } from './ports';
import { firstMissingQuote } from './replace';
import { RESERVATION_MS } from './reservations';
import { DEFAULT_GATE_SETTINGS } from './settings';
import type { RefusalReason } from './types';
import { type ShellRun, startShellRun } from './shellRuns';

export type ExternalVerdict = { allow: true } | { allow: false; blocked: string[]; text: string };

/**
 * One file an edit is about to change. `quotes`: the texts the tool will look for in it and replace
 * (a replace's oldStrings), which must stand in the file as written (rule 12); absent for a tool that
 * quotes nothing exactly.
 */
export interface ExternalEditCall extends CallContext {
  quotes?: readonly string[];
  /**
   * The agent writes the file on disk itself, past the editor (Claude Code), named as the user knows
   * it: an edit of a file whose buffer holds unsaved changes is refused (rule 13).
   */
  writesDisk?: string;
  /**
   * The agent checks one response's calls first and then runs them at once: a sibling call may hold this file
   * with a write that has not landed (rule 14 within a chat).
   */
  callsAtOnce?: boolean;
  /**
   * The call deletes the file (a shell command's `rm`): it needs no read — it puts no text of the agent's in the
   * file — only a buffer without unsaved changes (rule 13).
   */
  deletes?: boolean;
}

/** Calls whose text before the edit is remembered until the edit is recorded (one running tool per chat). */
const MAX_PENDING_EDITS = 1000;

export class ExternalEdits {
  /** `session \n uri` → the text an allowed edit will change (`created`: no file yet), for the record of agent edits */
  private readonly before = new BoundedMap<string, SeenVersion | 'created'>(MAX_PENDING_EDITS);

  constructor(private readonly gate: Gate) {}

  /** A call arriving at `asOf` will look at these files: the round trip that brings their documents up to date starts now. */
  prepare(uris: readonly string[], asOf: Instant): void {
    this.gate.port.prepare?.(uris, asOf);
  }

  /** The watermark a call takes when it arrives (rule 9). */
  arrival(): number {
    return this.gate.arrival();
  }

  /**
   * The version of a file a read is about to show: the editor's text now (unsaved changes included),
   * or, for an agent that reads the disk itself (`from: 'disk'`), the disk's text as the editor would
   * hold it — with unsaved changes in a buffer that is not what the agent sees.
   */
  async versionOf(
    uri: string,
    from: 'editor' | 'disk' = 'editor',
    waiter: { session: string; deadline: number; asOf?: Instant } = { session: '', deadline: Infinity },
  ): Promise<SeenVersion | undefined> {
    const version = async () => {
      const doc = await this.gate.port.load(uri, waiter.asOf);
      if (doc.exists !== true) return undefined;
      return from === 'disk' && doc.dirty ? this.gate.port.diskVersion(uri) : { hash: doc.hash, text: doc.text };
    };
    // a read waits for another chat's write in flight (rule 14), so it shows what that write left; past
    // the deadline it shows what is there (a mark of it is refused later, with the change, if it moves)
    const turn = await this.gate.exclusive(uri, waiter.session, waiter.deadline, version);
    return turn.ran ? turn.value : version();
  }

  /** A read ran and showed `seen`: the chat has seen that whole text (rule 1). */
  stampRead(ctx: CallContext, seen: SeenVersion): void {
    this.gate.name(ctx);
    this.gate.store.stamp({ session: ctx.session, uri: ctx.uri, hash: seen.hash, turn: ctx.turn, origin: 'read', text: seen.text });
    this.gate.log.debug(
      `${ctx.tool} ${ctx.path} seen [${shortSession(ctx.session)} turn ${ctx.turn ?? '-'}] mark ${seen.hash.slice(0, 12)}`,
    );
  }

  /**
   * An edit is about to run: every existing file it touches must pass the gate (rules 2–3), and then
   * hold each of its quotes as written (rule 12). One refused file stops the whole call (the tool
   * applies all or nothing); each refused file gets a refusal (rule 6: why, the diff or the content,
   * a mark), sharing one result budget.
   */
  async check(calls: readonly ExternalEditCall[], deadline = Date.now() + RESERVATION_MS, asOf?: Instant): Promise<ExternalVerdict> {
    const gate = this.gate;
    const blocked: Array<{ ctx: CallContext; doc: LoadedDocument; reason: RefusalReason; settings: GateSettings }> = [];
    const unsaved: Array<{ ctx: CallContext; doc: LoadedDocument; disk: SeenVersion; agent: string; settings: GateSettings }> = [];
    const unsafe: string[] = [];
    const inFlight: Array<{ ctx: CallContext; writer?: string }> = [];
    /** the files this call holds (rule 14): taken inside each file's critical section, as the file passes */
    const held: CallContext[] = [];
    for (const ctx of calls) {
      gate.name(ctx);
      const turn = await gate.exclusive(ctx.uri, ctx.session, deadline, async () => {
        const doc = await gate.port.load(ctx.uri, asOf);
        if (doc.exists !== 'error') this.before.set(editKey(ctx), doc.exists ? { hash: doc.hash, text: doc.text } : 'created');
        const settings = gate.settings(ctx.uri);
        const pass = () => {
          if (!settings.enabled) return;
          gate.reservations.hold(ctx.uri, { session: ctx.session, writer: ctx.agentName ?? ctx.tool });
          held.push(ctx);
        };
        // a new file may be created (rule 4); an unreadable one is the tool's own error to report
        if (doc.exists === false) return pass();
        if (doc.exists !== true) return;
        if (doc.unsafeToEdit) unsafe.push(`${ctx.path}: ${doc.unsafeToEdit}`);
        // rule 14 within a chat: a sibling call of the same response (an agent that checks them all, then runs
        // them at once) was let through to write this file, and has not landed; this call would be decided on
        // the text it is about to replace, and a tool that matches loosely would put that text back
        if (
          ctx.callsAtOnce &&
          settings.enabled &&
          gate.reservations.heldBySelf(ctx.uri, ctx.session) &&
          !held.some((h) => h.uri === ctx.uri)
        ) {
          return void inFlight.push({ ctx, writer: SIBLING_WRITER });
        }
        // rule 13, before the marks: no read makes a write under the user's unsaved text safe
        if (ctx.writesDisk !== undefined && doc.dirty && settings.enabled) {
          const disk = await gate.port.diskVersion(ctx.uri);
          if (disk) {
            unsaved.push({ ctx, doc, disk, agent: ctx.writesDisk, settings });
            return;
          }
        }
        if (ctx.deletes) return pass();
        const { decision, failOpen } = gate.check(ctx, doc, settings);
        if (!decision.allow) return void blocked.push({ ctx, doc, reason: decision.reason, settings });
        // rule 12: only for a file the gate allows, and not when the gate is off (or already failed open)
        if (ctx.quotes && decision.basis !== 'disabled' && !failOpen) {
          const { quotes } = ctx;
          if (gate.checkAfterDecision(ctx, 'quote', () => firstMissingQuote(doc.text, quotes)).found !== undefined) {
            return void blocked.push({ ctx, doc, reason: 'inexact-match', settings });
          }
        }
        if (!doc.unsafeToEdit) pass();
      });
      if (!turn.ran) inFlight.push({ ctx, writer: turn.writer });
    }
    // not a matter of reading first: the tool would save bytes nobody touched as U+FFFD
    if (unsafe.length || blocked.length || unsaved.length || inFlight.length) {
      for (const ctx of held) gate.reservations.release(ctx.uri, ctx.session);
      for (const ctx of calls) this.before.delete(editKey(ctx));
    }
    if (unsafe.length) return { allow: false, blocked: calls.map((c) => c.path), text: externalUnsafeStop(calls[0].tool, unsafe) };
    // the user must act first: those refusals alone (the others would only invite a retry before the user acts)
    if (unsaved.length) {
      const texts = unsaved.map(
        ({ ctx, doc, disk, agent, settings }) =>
          gate.refuseUnsaved(ctx, doc, disk, agent, {
            ...settings,
            maxResultChars: Math.floor((settings.maxResultChars ?? DEFAULT_GATE_SETTINGS.maxResultChars) / unsaved.length),
          }).text,
      );
      return { allow: false, blocked: unsaved.map(({ ctx }) => ctx.path), text: texts.join('\n\n') };
    }
    // another chat's write is landing on a file: nothing to show yet, read again in a moment (rule 14)
    if (inFlight.length) {
      return {
        allow: false,
        blocked: inFlight.map(({ ctx }) => ctx.path),
        text: inFlight.map(({ ctx, writer }) => gate.refuseInFlight(ctx, writer).text).join('\n\n'),
      };
    }
    if (blocked.length === 0) return { allow: true };
    const refusals = blocked.map(({ ctx, doc, reason, settings }) => {
      const share = Math.floor((settings.maxResultChars ?? DEFAULT_GATE_SETTINGS.maxResultChars) / blocked.length);
      return gate.refuse(ctx, doc, reason, { ...settings, maxResultChars: share }).text;
    });
    const lead = externalDenialLead(
      calls[0].tool,
      blocked.map((b) => b.reason),
      calls.length,
    );
    return { allow: false, blocked: blocked.map(({ ctx }) => ctx.path), text: `${lead}\n\n${refusals.join('\n\n')}` };
  }

  /**
   * An edit ran: the agent has seen the text it produced, like its own write (rule 3). `deletes`: the call was to
   * delete the file, which needed no read — if the file is still there, the agent has seen nothing of it, so no mark.
   */
  async recordWrite(ctx: CallContext, { deletes = false, asOf }: { deletes?: boolean; asOf?: Instant } = {}): Promise<void> {
    const gate = this.gate;
    gate.name(ctx);
    await gate.lock.run(ctx.uri, async () => {
      // the write has landed: the file is free once its mark is stamped, inside the lock, so no waiter decides before it (rule 14)
      try {
        await this.recordLanded(ctx, deletes, asOf);
      } finally {
        gate.reservations.release(ctx.uri, ctx.session);
      }
    });
  }

  /** An edit the gate let through will not be recorded (its chat was compacted before it settled): its file is free. */
  abandon(ctx: CallContext): void {
    this.gate.reservations.release(ctx.uri, ctx.session);
    this.before.delete(editKey(ctx));
  }

  private async recordLanded(ctx: CallContext, deletes: boolean, asOf: Instant | undefined): Promise<void> {
    const gate = this.gate;
    const doc = await gate.port.load(ctx.uri, asOf);
    const before = this.before.get(editKey(ctx)) ?? 'unknown';
    this.before.delete(editKey(ctx));
    // the call deleted the file it was allowed to change (a patch's Delete File, or a Move's source)
    if (doc.exists === false && before !== 'unknown' && before !== 'created') {
      gate.recordDeletion(ctx, before);
      gate.log.debug(`${ctx.tool} deleted ${ctx.path} [${shortSession(ctx.session)} turn ${ctx.turn ?? '-'}]`);
      return;
    }
    if (doc.exists !== true || deletes) return;
    gate.recordWrite(ctx, { hash: doc.hash, text: doc.text }, before, !doc.dirty);
    gate.log.debug(`${ctx.tool} wrote ${ctx.path} [${shortSession(ctx.session)} turn ${ctx.turn ?? '-'}]`);
  }

  /** A shell command of the chat `session` the parse could not see through is about to run: watch what it changes (rule 16). */
  startShellRun(session: string): Promise<ShellRun | undefined> {
    return startShellRun(this.gate, session);
  }

  /** The chat is being compacted: the model loses the text it read, so its marks go. Returns how many files it had seen. */
  forgetChat(session: string): number {
    const forgotten = this.gate.store.newestPerFile(session).length;
    this.gate.store.clear(session);
    return forgotten;
  }

  /** The chat's turn, named by the adapter's count until the agent's own id for it is known, is now `to`. */
  renameTurn(session: string, from: string, to: string): void {
    this.gate.store.retagTurn(session, from, to);
  }
}

const editKey = (ctx: CallContext) => `${ctx.session}\n${ctx.uri}`;
