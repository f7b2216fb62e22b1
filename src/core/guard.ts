// One tool call, start to end: the gate's check, the write, the marks, the result text.
// Everything that touches VS Code goes through `DocumentPort`, so this flow is tested in plain Node.
import { changedLineRanges, type LineRange, unifiedDiff } from './diff';
import { Emitter } from './events';
import { decide, type GateDecision } from './gate';
import { sha256 } from './hash';
import { KeyedLock } from './lock';
import type { MarkStore } from './marks';
import { blockedHeadline, builtinDenialLead, cutNote, fence, rangeHeader, staleNotice, TOOL_VERB } from './messages';
import { renderNumbered } from './render';
import { planReplace, type TextSpanEdit } from './replace';
import { type Eol, eolName, withEol } from './text';
import type { BlockReason, ErrorCode, OwnWritePolicy, ResultData, ToolName, ToolOutcome } from './types';

export interface LoadedDocument {
  exists: true;
  /** Full text: the editor buffer, unsaved changes included (or the disk's, as the editor will hold it). */
  text: string;
  hash: string;
  /** The buffer holds changes not yet saved to disk. */
  dirty: boolean;
  /** The document's one line ending: every text an edit inserts is written with it, as the editor would. */
  eol: Eol;
  /** Something the model should know about how the editor holds this file (shown with reads and writes). */
  note?: string;
  /** Why an edit of this file is refused although it can be read (an edit would change bytes nobody touched). */
  unsafeToEdit?: string;
}

export type LoadResult = LoadedDocument | { exists: false } | { exists: 'error'; code: ErrorCode; message: string };

/** `onDisk`: the edit went to the file on disk because the editor had not loaded the file's newer version. */
export type ApplyResult = { applied: false } | { applied: true; onDisk?: true };

/** A created file's text as the editor holds it (one line ending), with its hash. */
export type CreateResult = { created: false } | { created: true; text: string; hash: string };

/**
 * `changed`: the document changed after the agent's edit (the user typing), so it was not saved and
 * their change stays unsaved. `after`: the text once saved, when saving changed it (format on save, or
 * another save participant); `dirtyAfter`: the document also holds changes made during the save.
 */
export type SaveResult = { saved: false; why: 'changed' | 'failed' } | { saved: true; after?: string; dirtyAfter?: boolean };

/** What the guard needs from the editor: `EditorDocuments` (documents.ts) over VS Code or the tests' model. */
export interface DocumentPort {
  load(uri: string): Promise<LoadResult>;
  /**
   * Applies `edits` (offsets into the text whose hash is `expectedHash`) only if the file still has
   * that text, checked in the same tick as the edit is handed over. `result` is the text the edits
   * produce and its hash, so the port need not hash it again.
   */
  applyEdits(uri: string, expectedHash: string, edits: readonly TextSpanEdit[], result: { text: string; hash: string }): Promise<ApplyResult>;
  /** Creates a new file (and its folders); not over an existing file, nor over an open buffer with unsaved changes. */
  create(uri: string, text: string): Promise<CreateResult>;
  /** Saves the document only if it still holds exactly the text with `expectedHash`. */
  save(uri: string, expectedHash: string): Promise<SaveResult>;
  /** The exact current hash of a file held in the editor, without waiting; `undefined` if not held. */
  currentHash?(uri: string): string | undefined;
}

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string | Error): void;
}

export interface GuardSettings {
  enabled: boolean;
  policy: OwnWritePolicy;
  maxReadLines: number;
  /** The most characters of file text one result shows (keeps results under Copilot's 8 KB); no limit if unset. */
  maxResultChars?: number;
}

export interface CallContext {
  tool: ToolName;
  session: string;
  turn: string | undefined;
  uri: string;
  /** How the file is named to the model and the user. */
  path: string;
  /** The store's watermark when the call arrived: marks stamped later do not count for it (rule 9). */
  arrival: number;
  isCancelled?: () => boolean;
}

export interface BlockedWrite {
  session: string;
  turn: string | undefined;
  tool: ToolName;
  uri: string;
  path: string;
  reason: BlockReason;
  /** Lines of the current text that differ from what the chat saw (0-based, for diagnostics). */
  changedLines: LineRange[];
}

export interface CompletedWrite {
  session: string;
  uri: string;
  tool: ToolName;
}

/** One version of a file's text, as a chat saw it. */
export interface SeenVersion {
  hash: string;
  text: string;
}

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
  }
}

/** Core failures the gate lets through (rule 7): a test can force one with this hook. */
export type FaultInjector = (stage: 'decide') => void;

export class Guard {
  private readonly lock = new KeyedLock();
  private readonly blocked = new Emitter<BlockedWrite>();
  private readonly written = new Emitter<CompletedWrite>();
  /** Display names of the files the chats have seen, for notices. */
  private readonly names = new Map<string, string>();
  readonly onDidBlock = this.blocked.event;
  readonly onDidWrite = this.written.event;
  faultInjector: FaultInjector | undefined;

  constructor(
    readonly store: MarkStore,
    private readonly port: DocumentPort,
    /** The settings that apply to a file (a folder may override them). */
    private readonly settings: (uri: string) => GuardSettings,
    private readonly log: Logger,
  ) {}

  async read(ctx: CallContext, range: { offset?: number; limit?: number }): Promise<ToolOutcome> {
    this.names.set(ctx.uri, ctx.path);
    return this.lock.run(ctx.uri, async () => {
      const doc = await this.port.load(ctx.uri);
      if (doc.exists === 'error') return this.error(ctx, doc.code, doc.message);
      if (!doc.exists) return this.error(ctx, 'not-found', `${ctx.path} does not exist. Check the path; to create it, use editGuard_writeFile.`);
      const { maxReadLines, maxResultChars = Infinity } = this.settings(ctx.uri);
      const rendered = renderNumbered(doc.text, { offset: range.offset, limit: range.limit, maxLines: maxReadLines, maxChars: maxResultChars });
      if (range.offset !== undefined && range.offset > Math.max(rendered.totalLines, 1)) {
        return this.error(ctx, 'invalid-input', `offset ${range.offset} is past the end of ${ctx.path}, which has ${rendered.totalLines} lines.`);
      }
      this.checkCancelled(ctx);
      // the mark is of the whole text, whatever range was shown (rule 1)
      this.store.stamp({ session: ctx.session, uri: ctx.uri, hash: doc.hash, turn: ctx.turn, origin: 'read', text: doc.text });
      this.log.debug(`read ${ctx.path} lines ${rendered.startLine}-${rendered.endLine} [${short(ctx.session)} turn ${ctx.turn ?? '-'}] mark ${doc.hash.slice(0, 12)}`);
      const body = rendered.totalLines === 0 ? '' : `\n${fence(rendered.body)}`;
      const text = `${rangeHeader(ctx.path, rendered)}${body}${cutNote(rendered, maxReadLines, maxResultChars)}${doc.dirty ? '\n(This includes unsaved changes in the editor.)' : ''}${doc.note ? `\n${doc.note}` : ''}`;
      return this.ok(ctx, text, `Read ${ctx.path}`, {
        startLine: rendered.startLine,
        endLine: rendered.endLine,
        totalLines: rendered.totalLines,
        truncated: rendered.truncated,
      });
    });
  }

  async write(ctx: CallContext, input: { content: string; append: boolean }): Promise<ToolOutcome> {
    return this.guardedChange(ctx, (doc) => {
      // the editor writes every inserted line break with the document's line ending: plan the same text
      const content = withEol(input.content, doc.eol);
      const edit = input.append ? { start: doc.text.length, end: doc.text.length, text: content } : { start: 0, end: doc.text.length, text: content };
      return {
        edits: [edit],
        newText: input.append ? doc.text + content : content,
        summary: input.append ? 'Appended to' : 'Wrote',
        ...(content !== input.content ? { eolNote: eolNote(doc.eol) } : {}),
      };
    }, input.content);
  }

  async replace(ctx: CallContext, input: { oldString: string; newString: string; replaceAll: boolean }): Promise<ToolOutcome> {
    return this.guardedChange(ctx, (doc) => {
      const plan = planReplace(doc.text, input.oldString, input.newString, input.replaceAll, doc.eol);
      switch (plan.kind) {
        case 'ok':
          return { edits: plan.edits, newText: plan.newText, summary: `Replaced ${plan.count === 1 ? '1 occurrence' : `${plan.count} occurrences`} in`, replacements: plan.count };
        case 'invalid':
          return { code: 'invalid-input', message: plan.detail };
        case 'no-match':
          return { code: 'no-match', message: `oldString was not found in ${ctx.path}; nothing was changed. ${plan.detail}` };
        case 'ambiguous':
          return {
            code: 'ambiguous',
            message: `oldString occurs ${plan.count} times in ${ctx.path} (at lines ${plan.lines.join(', ')}${plan.count > plan.lines.length ? ', …' : ''}); nothing was changed. Include more surrounding lines so it matches exactly once, or set replaceAll: true to change every occurrence.`,
            matches: plan.count,
          };
      }
    });
  }

  /**
   * The shared path of write and replace: under the file's lock, load, check the gate, plan the
   * change, apply it only onto the exact text that was checked, save if that loses nothing,
   * and mark the result.
   */
  private async guardedChange(
    ctx: CallContext,
    plan: (doc: LoadedDocument) => ChangePlan,
    createWith?: string,
  ): Promise<ToolOutcome> {
    this.names.set(ctx.uri, ctx.path);
    return this.lock.run(ctx.uri, async () => {
      const settings = this.settings(ctx.uri);
      const doc = await this.port.load(ctx.uri);
      if (doc.exists === 'error') return this.error(ctx, doc.code, doc.message);
      if (!doc.exists) {
        if (createWith === undefined) {
          return this.error(ctx, 'not-found', `${ctx.path} does not exist, so there is nothing to replace in. Check the path, or create the file with editGuard_writeFile.`);
        }
        return this.create(ctx, createWith);
      }

      if (doc.unsafeToEdit) return this.error(ctx, 'binary', doc.unsafeToEdit);

      const { decision, failOpen } = this.safeDecide(ctx, doc, settings);
      if (!decision.allow) return this.refuse(ctx, doc, decision.reason, settings);

      const change = plan(doc);
      if ('code' in change) {
        const { code, message, ...extra } = change;
        return this.error(ctx, code, message, extra);
      }
      this.checkCancelled(ctx);
      const newHash = sha256(change.newText);
      const applied = await this.port.applyEdits(ctx.uri, doc.hash, change.edits, { text: change.newText, hash: newHash });
      if (!applied.applied) {
        // the text moved between our check and the edit (rule 9): treat it as stale, show the new text
        const now = await this.port.load(ctx.uri);
        if (now.exists === true) return this.refuse(ctx, now, 'changed', settings);
        return this.error(ctx, 'not-found', `${ctx.path} disappeared while it was being changed; nothing was written.`);
      }

      // the agent's own write is of the text its edit made; what saving adds is shown to it below
      let finalText = change.newText;
      let finalHash = newHash;
      let save: SaveResult | undefined;
      let saveDiff = '';
      if (!doc.dirty && !applied.onDisk) {
        save = await this.port.save(ctx.uri, newHash);
        if (save.saved && save.after !== undefined && save.after !== change.newText) {
          saveDiff = unifiedDiff(change.newText, save.after, ctx.path, settings.maxReadLines, settings.maxResultChars ?? Infinity)
            .text.replace('(what you last saw)', '(as you wrote it)')
            .replace('(current)', '(after save)');
          finalText = save.after;
          finalHash = sha256(finalText);
        }
      }
      this.recordWrite(ctx, finalHash, finalText);
      this.log.debug(`${TOOL_VERB[ctx.tool]} ${ctx.path} allowed (${decision.basis}) [${short(ctx.session)} turn ${ctx.turn ?? '-'}]${save && !save.saved ? ` not saved (${save.why})` : ''}`);

      const saved = applied.onDisk === true || save?.saved === true;
      const keptUnsaved = doc.dirty || (save?.saved === false && save.why === 'changed');
      const lines: string[] = [];
      if (applied.onDisk) {
        lines.push(`${change.summary} ${ctx.path} on disk.`, 'VS Code had not loaded the newer version of this file from disk, so the edit was written to the file itself; the editor shows it once it reloads the file.');
      } else if (save?.saved) lines.push(`${change.summary} ${ctx.path} and saved it.`);
      else if (doc.dirty) {
        lines.push(`${change.summary} ${ctx.path}, in the editor only: the file has the user's unsaved changes, so your edit was left unsaved with them.`);
        lines.push('On disk (for the terminal, tests, git) the file is still the old version; the user decides when to save.');
      } else if (save?.why === 'changed') {
        lines.push(`${change.summary} ${ctx.path}, in the editor only: the user changed the file while your edit was being applied, so it was not saved — their change stays unsaved, with yours.`);
        lines.push('On disk the file is still the old version. Read the file before changing it again: it now differs from what you wrote.');
      } else lines.push(`${change.summary} ${ctx.path}.`, 'The change is in the editor but could not be saved to disk.');
      if (change.eolNote) lines.push(change.eolNote);
      if (doc.note) lines.push(doc.note);
      if (saveDiff) {
        lines.push(`Saving changed the file (format on save, or another save participant). The file now differs from what you wrote:\n${fence(saveDiff, 'diff')}`);
        if (save?.saved && save.dirtyAfter) lines.push('The editor also holds changes made while the file was being saved, which are not saved.');
      }
      if (decision.basis === 'disabled') lines.push('(The edit guard is turned off in this workspace: this write was not checked.)');
      if (failOpen) lines.push('(The edit guard had an internal error and let this write through; it is in the "Agent Edit Guard" log.)');
      return this.ok(ctx, lines.join('\n'), `${change.summary} ${ctx.path}`, {
        saved,
        keptUnsaved,
        formatterChanged: saveDiff !== '',
        ...(change.replacements !== undefined ? { replacements: change.replacements } : {}),
        ...(failOpen ? { failOpen: true } : {}),
      });
    });
  }

  // ---- Copilot's built-in file tools, through the hooks bridge (src/hooks/). They run outside our
  // lock and apply their own edits; the gate sees them before (check) and after (mark) they run.

  /** The version of a file a built-in read is about to show: the editor's text now (unsaved changes included). */
  async versionOf(uri: string): Promise<SeenVersion | undefined> {
    return this.lock.run(uri, async () => {
      const doc = await this.port.load(uri);
      return doc.exists === true ? { hash: doc.hash, text: doc.text } : undefined;
    });
  }

  /** A built-in read ran and showed `seen`: the chat has seen that whole text (rule 1). */
  markSeen(ctx: CallContext, seen: SeenVersion): void {
    this.names.set(ctx.uri, ctx.path);
    this.store.stamp({ session: ctx.session, uri: ctx.uri, hash: seen.hash, turn: ctx.turn, origin: 'read', text: seen.text });
    this.log.debug(`${ctx.tool} ${ctx.path} seen [${short(ctx.session)} turn ${ctx.turn ?? '-'}] mark ${seen.hash.slice(0, 12)}`);
  }

  /**
   * A built-in edit is about to run: every existing file it touches must pass the gate (rules 2–3).
   * One stale file stops the whole call (the tool applies all or nothing); each blocked file gets a
   * refusal (rule 6: why, the diff or the content, a mark), sharing one result budget.
   */
  async checkBuiltinEdit(calls: readonly CallContext[]): Promise<{ allow: true } | { allow: false; blocked: string[]; text: string }> {
    const blocked: Array<{ ctx: CallContext; doc: LoadedDocument; reason: BlockReason; settings: GuardSettings }> = [];
    const unsafe: string[] = [];
    for (const ctx of calls) {
      this.names.set(ctx.uri, ctx.path);
      await this.lock.run(ctx.uri, async () => {
        const doc = await this.port.load(ctx.uri);
        // a new file may be created (rule 4); an unreadable one is the tool's own error to report
        if (doc.exists !== true) return;
        if (doc.unsafeToEdit) unsafe.push(`${ctx.path}: ${doc.unsafeToEdit}`);
        const settings = this.settings(ctx.uri);
        const { decision } = this.safeDecide(ctx, doc, settings);
        if (!decision.allow) blocked.push({ ctx, doc, reason: decision.reason, settings });
      });
    }
    if (unsafe.length) {
      // not a matter of reading first: the tool would save bytes nobody touched as U+FFFD
      return { allow: false, blocked: calls.map((c) => c.path), text: `Agent Edit Guard stopped this ${calls[0].tool} call: nothing was applied.\n\n${unsafe.join('\n\n')}` };
    }
    if (blocked.length === 0) return { allow: true };
    const refusals = blocked.map(({ ctx, doc, reason, settings }) => {
      const share = Math.floor((settings.maxResultChars ?? 7000) / blocked.length);
      return this.refuse(ctx, doc, reason, { ...settings, maxResultChars: share }).text;
    });
    const lead = builtinDenialLead(calls[0].tool, blocked.length, calls.length);
    return { allow: false, blocked: blocked.map(({ ctx }) => ctx.path), text: `${lead}\n\n${refusals.join('\n\n')}` };
  }

  /** A built-in edit ran: the agent has seen the text it produced, like its own write (rule 3). */
  async recordBuiltinWrite(ctx: CallContext): Promise<void> {
    this.names.set(ctx.uri, ctx.path);
    await this.lock.run(ctx.uri, async () => {
      const doc = await this.port.load(ctx.uri);
      if (doc.exists !== true) return;
      this.recordWrite(ctx, doc.hash, doc.text);
      this.log.debug(`${ctx.tool} wrote ${ctx.path} [${short(ctx.session)} turn ${ctx.turn ?? '-'}]`);
    });
  }

  /** The agent's own write: a mark of the text it left (rule 3), and the event that clears its diagnostic. */
  private recordWrite(ctx: CallContext, hash: string, text: string): void {
    this.store.stamp({ session: ctx.session, uri: ctx.uri, hash, turn: ctx.turn, origin: 'write', text });
    this.written.fire({ session: ctx.session, uri: ctx.uri, tool: ctx.tool });
  }

  /** Rule 7: a bug in the gate lets the write through (and is logged); it never blocks. */
  private safeDecide(ctx: CallContext, doc: LoadedDocument, settings: GuardSettings): { decision: GateDecision; failOpen: boolean } {
    try {
      this.faultInjector?.('decide');
      const decision = decide({
        enabled: settings.enabled,
        exists: true,
        currentHash: doc.hash,
        mark: this.store.newest(ctx.session, ctx.uri, ctx.arrival),
        turn: ctx.turn,
        policy: settings.policy,
      });
      return { decision, failOpen: false };
    } catch (e) {
      this.log.error(`gate failed on ${ctx.path}; letting the write through: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
      return { decision: { allow: true, basis: 'seen' }, failOpen: true };
    }
  }

  private async create(ctx: CallContext, text: string): Promise<ToolOutcome> {
    this.checkCancelled(ctx);
    const created = await this.port.create(ctx.uri, text);
    if (!created.created) {
      // someone created it between our check and the create (or the editor holds unsaved text for it): an existing file now
      const now = await this.port.load(ctx.uri);
      if (now.exists === true) return this.refuse(ctx, now, 'not-read', this.settings(ctx.uri));
      return this.error(ctx, 'internal', `${ctx.path} could not be created.`);
    }
    this.recordWrite(ctx, created.hash, created.text);
    this.log.debug(`created ${ctx.path} [${short(ctx.session)}]`);
    const held = created.text === text ? '' : '\nThe file has mixed line endings (or lone carriage returns) as you wrote it; VS Code holds it with one line ending, and saving from the editor writes every line that way.';
    return this.ok(ctx, `Created ${ctx.path} and saved it.${held}`, `Created ${ctx.path}`, { created: true, saved: true, keptUnsaved: false });
  }

  /** Rule 6: a refusal says why, shows what changed (or the content), and stamps a mark. */
  private refuse(ctx: CallContext, doc: LoadedDocument, reason: BlockReason, settings: GuardSettings): ToolOutcome {
    // the version this call was based on: the newest mark that existed when it arrived (rule 9);
    // a parallel call may have stamped newer ones since
    const seen = this.store.newest(ctx.session, ctx.uri, ctx.arrival);
    const before = seen && reason !== 'not-read' ? this.store.snapshot(ctx.session, ctx.uri, seen.hash) : undefined;
    const cause = reason === 'changed' ? this.causeOfChange(ctx, doc) : undefined;
    const maxChars = settings.maxResultChars ?? Infinity;
    let body: string;
    let showsDiff = false;
    let changedLines: LineRange[] = [{ start: 0, end: 0 }];
    if (before !== undefined && reason === 'changed') {
      const diff = unifiedDiff(before, doc.text, ctx.path, settings.maxReadLines, maxChars);
      changedLines = changedLineRanges(before, doc.text);
      showsDiff = true;
      body =
        diff.text.split('\n').length > 2 || diff.omittedLines
          ? `What changed since the version you saw:\n${fence(diff.text, 'diff')}${diff.omittedLines ? `\n(${diff.omittedLines} more diff lines are not shown: read the file for the rest.)` : ''}`
          : 'Only line endings or invisible characters changed.';
    } else {
      const rendered = renderNumbered(doc.text, { maxLines: settings.maxReadLines, maxChars });
      body = `Current content of ${rangeHeader(ctx.path, rendered)}${rendered.totalLines ? `\n${fence(rendered.body)}` : ''}${cutNote(rendered, settings.maxReadLines, maxChars)}`;
    }
    const headline = blockedHeadline(reason, TOOL_VERB[ctx.tool], ctx.path, cause, settings.policy, showsDiff);
    // the refusal showed the current text: the agent has now seen it
    this.store.stamp({ session: ctx.session, uri: ctx.uri, hash: doc.hash, turn: ctx.turn, origin: 'refusal', text: doc.text });
    this.blocked.fire({ session: ctx.session, turn: ctx.turn, tool: ctx.tool, uri: ctx.uri, path: ctx.path, reason, changedLines });
    this.log.info(`blocked ${ctx.tool} on ${ctx.path}: ${reason}${cause ? ` (${cause})` : ''} [${short(ctx.session)} turn ${ctx.turn ?? '-'}]`);
    const lead = `${headline}\n\n`;
    const outcome = this.finish(ctx, lead + body, {
      status: 'blocked',
      tool: ctx.tool,
      path: ctx.path,
      uri: ctx.uri,
      reason,
      message: `Blocked ${TOOL_VERB[ctx.tool]} of ${ctx.path}: ${reason}`,
    });
    return { ...outcome, lead };
  }

  private causeOfChange(ctx: CallContext, doc: LoadedDocument): string {
    // a write of any chat that produced exactly the current text
    const writes = this.store.all().filter((m) => m.uri === ctx.uri && m.origin === 'write' && m.hash === doc.hash);
    if (writes.find((m) => m.seq >= ctx.arrival)?.session === ctx.session) return 'written by another of your calls that ran first';
    if (writes.some((m) => m.session !== ctx.session)) return 'written by another chat';
    if (doc.dirty) return 'edited in the editor, not yet saved';
    return 'changed on disk or by another program';
  }

  private checkCancelled(ctx: CallContext): void {
    if (ctx.isCancelled?.()) throw new CancelledError();
  }

  private ok(ctx: CallContext, text: string, message: string, extra: Partial<ResultData>): ToolOutcome {
    return this.finish(ctx, text, { status: 'ok', tool: ctx.tool, path: ctx.path, uri: ctx.uri, message, ...extra });
  }

  private error(ctx: CallContext, code: ErrorCode, message: string, extra: Partial<ResultData> = {}): ToolOutcome {
    this.log.debug(`${ctx.tool} ${ctx.path}: error ${code}`);
    return this.finish(ctx, `ERROR (${code}): ${message}`, { status: 'error', tool: ctx.tool, path: ctx.path, uri: ctx.uri, code, message, ...extra });
  }

  /** Adds the turn and rule 10's notice of files this chat read that went stale since. */
  private finish(ctx: CallContext, text: string, data: ResultData): ToolOutcome {
    const stale = this.store
      .staleFiles(ctx.session, (uri) => this.port.currentHash?.(uri))
      .filter((m) => m.uri !== ctx.uri)
      .map((m) => this.names.get(m.uri) ?? m.uri);
    if (ctx.turn !== undefined) data.turn = ctx.turn;
    if (stale.length) data.staleFiles = stale;
    return { text: text + staleNotice(stale), data };
  }
}

type ChangePlan =
  | { edits: TextSpanEdit[]; newText: string; summary: string; replacements?: number; eolNote?: string }
  | { code: ErrorCode; message: string; matches?: number };

const short = (session: string) => session.slice(-8);

const eolNote = (eol: Eol) => `The file's line endings are ${eolName(eol)} (VS Code holds one kind per file), so your text was written with ${eolName(eol)} line endings.`;
