// One call of our tools, start to end: under the file's lock, load, check the gate, plan the
// change, apply it only onto the exact text that was checked, save if that loses nothing, mark the
// result. Everything that touches the editor goes through `DocumentPort`, so this flow is tested in
// plain Node; every word of the results comes from messages.ts.
import { unifiedDiff } from './diff';
import { type Gate, shortSession, TOOL_WAIT_MS } from './gate';
import { sha256 } from './hash';
import * as text from './messages';
import { type CallContext, CancelledError, type GateSettings, type LoadedDocument, type SaveResult } from './ports';
import { renderNumbered } from './render';
import { changedLinesOf, planReplace, type TextSpanEdit } from './replace';
import { withEol } from './text';
import { type Duplicate, findAppendDuplicate, findWriteDuplicate } from './duplicate';
import type { ErrorCode, ToolOutcome } from './types';

type ChangePlan =
  | {
      edits: TextSpanEdit[];
      newText: string;
      summary: string;
      replacements?: number;
      eolNote?: string;
      /** Rule 11: where the change would repeat a block the file already holds (a write without allowDuplicate). */
      findDuplicate?: () => Duplicate | undefined;
      append?: boolean;
    }
  | { code: ErrorCode; message: string; matches?: number };

export class GuardedTools {
  constructor(private readonly gate: Gate) {}

  /** The watermark a call takes when it arrives (rule 9). */
  arrival(): number {
    return this.gate.arrival();
  }

  async read(ctx: CallContext, range: { offset?: number; limit?: number }): Promise<ToolOutcome> {
    const gate = this.gate;
    gate.name(ctx);
    // a read waits for another chat's write in flight (rule 14): it then shows the text that write left
    return this.exclusive(ctx, async () => {
      const doc = await gate.port.load(ctx.uri);
      if (doc.exists === 'error') return gate.error(ctx, doc.code, doc.message);
      if (!doc.exists) return gate.error(ctx, 'not-found', text.notFoundForRead(ctx.path));
      const { maxReadLines, maxResultChars = Infinity } = gate.settings(ctx.uri);
      const rendered = renderNumbered(doc.text, {
        offset: range.offset,
        limit: range.limit,
        maxLines: maxReadLines,
        maxChars: maxResultChars,
      });
      if (range.offset !== undefined && range.offset > Math.max(rendered.totalLines, 1)) {
        return gate.error(ctx, 'invalid-input', text.offsetPastEnd(range.offset, ctx.path, rendered.totalLines));
      }
      checkCancelled(ctx);
      // the mark is of the whole text, whatever range was shown (rule 1)
      gate.store.stamp({ session: ctx.session, uri: ctx.uri, hash: doc.hash, turn: ctx.turn, origin: 'read', text: doc.text });
      gate.log.debug(
        `read ${ctx.path} lines ${rendered.startLine}-${rendered.endLine} [${shortSession(ctx.session)} turn ${ctx.turn ?? '-'}] mark ${doc.hash.slice(0, 12)}`,
      );
      return gate.ok(
        ctx,
        text.readText(ctx.path, rendered, maxReadLines, maxResultChars, doc.dirty, doc.note),
        text.readSummary(ctx.path),
        {
          startLine: rendered.startLine,
          endLine: rendered.endLine,
          totalLines: rendered.totalLines,
          truncated: rendered.truncated,
        },
      );
    });
  }

  async write(ctx: CallContext, input: { content: string; append: boolean; allowDuplicate?: boolean }): Promise<ToolOutcome> {
    return this.guardedChange(
      ctx,
      (doc) => {
        // the editor writes every inserted line break with the document's line ending: plan the same text
        const content = withEol(input.content, doc.eol);
        const end = doc.text.length;
        const newText = input.append ? doc.text + content : content;
        return {
          edits: [{ start: input.append ? end : 0, end, text: content }],
          newText,
          summary: text.writeSummary(input.append),
          ...(content !== input.content ? { eolNote: text.eolNote(doc.eol) } : {}),
          ...(input.allowDuplicate === true
            ? {}
            : {
                findDuplicate: () => (input.append ? findAppendDuplicate(doc.text, content) : findWriteDuplicate(doc.text, newText)),
                append: input.append,
              }),
        };
      },
      input.content,
    );
  }

  async replace(ctx: CallContext, input: { oldString: string; newString: string; replaceAll: boolean }): Promise<ToolOutcome> {
    return this.guardedChange(ctx, (doc) => {
      const plan = planReplace(doc.text, input.oldString, input.newString, input.replaceAll, doc.eol);
      switch (plan.kind) {
        case 'ok':
          return { edits: plan.edits, newText: plan.newText, summary: text.replaceSummary(plan.count), replacements: plan.count };
        case 'invalid':
          return { code: 'invalid-input', message: plan.detail };
        case 'no-match':
          return { code: 'no-match', message: text.noMatch(ctx.path, plan.detail) };
        case 'ambiguous':
          return { code: 'ambiguous', message: text.ambiguousMatch(ctx.path, plan.count, plan.lines), matches: plan.count };
      }
    });
  }

  /** The shared path of write and replace; `createWith`: the text of a new file, when the tool may create one. */
  private async guardedChange(ctx: CallContext, plan: (doc: LoadedDocument) => ChangePlan, createWith?: string): Promise<ToolOutcome> {
    const gate = this.gate;
    gate.name(ctx);
    // rule 14: decided once no other chat's write is in flight on the file; check, edit and save in one critical section (rule 9)
    return this.exclusive(ctx, async () => {
      const settings = gate.settings(ctx.uri);
      const doc = await gate.port.load(ctx.uri);
      if (doc.exists === 'error') return gate.error(ctx, doc.code, doc.message);
      if (!doc.exists) {
        if (createWith === undefined) return gate.error(ctx, 'not-found', text.notFoundForReplace(ctx.path));
        return this.create(ctx, createWith);
      }
      if (doc.unsafeToEdit) return gate.error(ctx, 'binary', doc.unsafeToEdit);

      const { decision, failOpen: gateFailOpen } = gate.check(ctx, doc, settings);
      if (!decision.allow) return gate.refuse(ctx, doc, decision.reason, settings);

      const change = plan(doc);
      if ('code' in change) {
        const { code, message, ...extra } = change;
        return gate.error(ctx, code, message, extra);
      }
      // rule 11: only for a write the gate allows, and not when the gate is off (or already failed open)
      let failOpen = gateFailOpen;
      if (change.findDuplicate && decision.basis !== 'disabled' && !failOpen) {
        const found = gate.checkAfterDecision(ctx, 'duplicate', change.findDuplicate);
        if (found.found) return gate.refuseDuplicate(ctx, doc, found.found, change.append === true, settings);
        failOpen = found.failOpen;
      }
      checkCancelled(ctx);
      const newHash = sha256(change.newText);
      const applied = await gate.port.applyEdits(ctx.uri, doc.hash, change.edits, { text: change.newText, hash: newHash });
      if (!applied.applied) {
        // the file's newer version is on its way into the editor that shows it: read again once it is there
        if (applied.editorBehind) return gate.refuseInFlight(ctx, 'the editor', text.editorBehindHeadline(ctx.verb, ctx.path));
        // the text moved between our check and the edit (rule 9): treat it as stale, show the new text
        const now = await gate.port.load(ctx.uri);
        if (now.exists === true) return gate.refuse(ctx, now, 'changed', settings);
        return gate.error(ctx, 'not-found', text.disappearedWhileChanging(ctx.path));
      }

      // the agent's own write is of the text its edit made; what saving adds is shown to it below
      let finalText = change.newText;
      let finalHash = newHash;
      let save: SaveResult | undefined;
      let saveDiff = '';
      if (!doc.dirty && !applied.onDisk) {
        save = await gate.port.save(ctx.uri, newHash, doc.hash);
        // the edit never reached the disk: it is taken back out of the editor, and the call answers as what it is
        if (!save.saved && save.why !== 'changed') return this.notSaved(ctx, doc, newHash, settings);
        if (save.saved && save.after !== undefined && save.after !== change.newText) {
          saveDiff = unifiedDiff(
            change.newText,
            save.after,
            ctx.path,
            text.SAVE_DIFF_LABELS,
            settings.maxReadLines,
            settings.maxResultChars ?? Infinity,
          ).text;
          finalText = save.after;
          finalHash = sha256(finalText);
        }
      }
      gate.log.debug(
        `${ctx.verb} ${ctx.path} allowed (${decision.basis}) [${shortSession(ctx.session)} turn ${ctx.turn ?? '-'}]${save && !save.saved ? ` not saved (${save.why})` : ''}`,
      );

      // written to the disk as a save would (no editor shows the file): for the agent, saved
      const landing: text.WriteLanding =
        applied.onDisk === 'not-loaded'
          ? 'on-disk'
          : applied.onDisk === 'no-editor' || save?.saved
            ? 'saved'
            : doc.dirty
              ? 'kept-unsaved'
              : 'changed-during-save';
      gate.recordWrite(
        ctx,
        { hash: finalHash, text: finalText },
        { hash: doc.hash, text: doc.text },
        landing === 'on-disk' || landing === 'saved',
      );
      const report = text.writeText({
        summary: change.summary,
        path: ctx.path,
        landing,
        eolNote: change.eolNote,
        documentNote: doc.note,
        saveDiff,
        dirtyAfterSave: save?.saved === true && save.dirtyAfter === true,
        gateDisabled: decision.basis === 'disabled',
        failOpen,
      });
      // where the change landed (not when saving reformatted the file: its lines may have moved)
      const changedLines = saveDiff === '' ? changedLinesOf(change.edits, change.newText) : undefined;
      return gate.ok(ctx, report, `${change.summary} ${ctx.path}`, {
        ...(changedLines ? { changedLines } : {}),
        saved: landing === 'on-disk' || landing === 'saved',
        keptUnsaved: landing === 'kept-unsaved' || landing === 'changed-during-save',
        formatterChanged: saveDiff !== '',
        ...(change.replacements !== undefined ? { replacements: change.replacements } : {}),
        ...(failOpen ? { failOpen: true } : {}),
      });
    });
  }

  /** Our call's turn at the file (rule 14), or its refusal when another chat's write held the file too long. */
  private async exclusive(ctx: CallContext, body: () => Promise<ToolOutcome>): Promise<ToolOutcome> {
    const turn = await this.gate.exclusive(ctx.uri, ctx.session, Date.now() + TOOL_WAIT_MS, body);
    return turn.ran ? turn.value : this.gate.refuseInFlight(ctx, turn.writer);
  }

  /**
   * The edit went into a clean document but was not saved: the file on disk changed meanwhile (another
   * program wrote it), or the editor could not save. The promise is that `ok` means the file holds the
   * write, so the edit is taken back out of the editor (which then holds the disk's text again) and the
   * call is refused with what changed, or answered as the error it is.
   */
  private async notSaved(ctx: CallContext, before: LoadedDocument, editedHash: string, settings: GateSettings): Promise<ToolOutcome> {
    const gate = this.gate;
    if (!(await gate.port.followDisk(ctx.uri, editedHash))) {
      gate.log.warn(`${ctx.verb} ${ctx.path}: not saved, and the editor changed meanwhile: the edit stays in it, unsaved`);
      return gate.error(ctx, 'kept-in-editor', text.notSavedKeptInEditor(ctx.path));
    }
    const now = await gate.port.load(ctx.uri);
    gate.log.info(`${ctx.verb} ${ctx.path}: not saved; taken back out of the editor`);
    if (now.exists !== true) return gate.error(ctx, 'not-found', text.disappearedWhileChanging(ctx.path));
    // another program's write landed under our edit: a stale write, refused with what changed (rule 6)
    if (now.hash !== before.hash) return gate.refuse(ctx, now, 'changed', settings);
    return gate.error(ctx, 'internal', text.notSaved(ctx.path));
  }

  private async create(ctx: CallContext, content: string): Promise<ToolOutcome> {
    const gate = this.gate;
    checkCancelled(ctx);
    const created = await gate.port.create(ctx.uri, content);
    if (!created.created) {
      // someone created it between our check and the create (or the editor holds unsaved text for it): an existing file now
      const now = await gate.port.load(ctx.uri);
      if (now.exists === true) return gate.refuse(ctx, now, 'not-read', gate.settings(ctx.uri));
      return gate.error(ctx, 'internal', text.couldNotCreate(ctx.path));
    }
    gate.recordWrite(ctx, { hash: created.hash, text: created.text }, 'created', true);
    gate.log.debug(`created ${ctx.path} [${shortSession(ctx.session)}]`);
    return gate.ok(ctx, text.createdText(ctx.path, created.text !== content), text.createdSummary(ctx.path), {
      created: true,
      saved: true,
      keptUnsaved: false,
    });
  }
}

function checkCancelled(ctx: CallContext): void {
  if (ctx.isCancelled?.()) throw new CancelledError();
}
