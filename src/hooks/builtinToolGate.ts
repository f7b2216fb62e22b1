// The gate in front of Copilot's built-in file tools: turns each hook event the bridge receives into
// the core's calls (mark a read, check an edit, record the agent's own write, forget a compacted
// chat) and the hook's answer. Thin: the rules are the core's (src/core/guard.ts).
//
// Timing, as measured in Copilot's loop: PreToolUse is awaited before the tool runs, but a tool's
// PostToolUse may reach us only after the chat's NEXT PreToolUse (Copilot goes on while the hook
// process starts). So a read's mark is of the version captured at its PreToolUse — the text the tool
// then showed — and a tool's effects are settled at whichever comes first: its PostToolUse or the
// chat's next event (Copilot runs one tool at a time, so a new event means the earlier tool is done).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { denyOutput, parseHookEvent } from '../core/builtinTools';
import type { CallContext, Guard, Logger, SeenVersion } from '../core/guard';
import type { ToolName } from '../core/types';
import { sessionKeyOfChatId } from '../tools/session';

export interface BuiltinToolGateEnvironment {
  guard: Guard;
  log: Logger;
  /** `editGuard.guardBuiltinTools`: when off, every event is let through untouched. */
  active(): boolean;
  /** A tool ran for this chat: the status bar follows the latest one. */
  onActivity(session: string): void;
}

/** What a chat's running built-in tool will leave behind once it is done. */
interface Pending {
  /** reads: the version each will have shown */
  reads: Array<{ ctx: CallContext; seen: SeenVersion }>;
  /** edits the gate let through: the agent's own writes */
  writes: CallContext[];
}

/** Bounded: a window sees few chats, but a long-lived one should not grow without end. */
const MAX_CHATS = 1000;

export class BuiltinToolGate {
  /** chat id → user messages seen: the hooks carry no turn id, so a turn is counted from UserPromptSubmit */
  private readonly turns = new Map<string, number>();
  /** chat id → Copilot's id of the turn, learned when a guarded tool of that turn ran (see `noteGuardedCall`) */
  private readonly requestIds = new Map<string, { id: string; prompt: number }>();
  /** session key → chat id, for the chats the hooks have named */
  private readonly chats = new Map<string, string>();
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly env: BuiltinToolGateEnvironment) {}

  /** One hook event (the hook's stdin) → what the hook prints ('' = no objection). */
  async handle(payloadText: string): Promise<string> {
    if (!this.env.active()) return '';
    let payload: { cwd?: unknown } | null;
    try {
      payload = JSON.parse(payloadText);
    } catch {
      this.env.log.warn('hooks bridge: a hook sent input that is not JSON; let through');
      return '';
    }
    const cwd = typeof payload?.cwd === 'string' ? payload.cwd : undefined;
    const event = parseHookEvent(payload);
    if (event.kind === 'compact') {
      // the summary replaces the text the model read: its marks must not outlive it, nor reads still settling
      this.pending.delete(event.chat);
      const session = sessionKeyOfChatId(event.chat);
      const forgotten = this.env.guard.store.newestPerFile(session).length;
      this.env.guard.store.clear(session);
      this.env.log.info(`chat …${session.slice(-8)} is being compacted: forgot its read marks of ${forgotten} file(s); its next edit of each needs a fresh read`);
      return '';
    }
    // any other event of a chat means its earlier tool call is done
    if (event.chat) await this.settle(event.chat);
    if (event.kind === 'ignore') return '';

    const session = sessionKeyOfChatId(event.chat);
    remember(this.chats, session, event.chat);
    // marks stamped after this event arrived do not count for it (rule 9)
    const arrival = this.env.guard.store.watermark;
    const call = (tool: ToolName, file: string) => this.call(tool, session, event.chat, file, cwd, arrival);
    switch (event.kind) {
      case 'turn':
        remember(this.turns, event.chat, (this.turns.get(event.chat) ?? 0) + 1);
        return '';
      case 'before-read': {
        this.env.onActivity(session);
        for (const file of event.files) {
          const ctx = call('read_file', file);
          const seen = await this.env.guard.versionOf(ctx.uri);
          if (seen) this.pendingOf(event.chat).reads.push({ ctx, seen });
        }
        return '';
      }
      case 'before-edit': {
        this.env.onActivity(session);
        const calls = event.files.map((f) => call(event.tool, f.path));
        const verdict = await this.env.guard.checkBuiltinEdit(calls);
        if (!verdict.allow) return denyOutput(verdict.text);
        this.pendingOf(event.chat).writes.push(...calls);
        return '';
      }
      case 'after-read':
      case 'after-edit':
        return ''; // settled above
    }
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
    remember(this.requestIds, chat, { id: requestId, prompt });
    const counted = countedTurn(chat, prompt);
    this.env.guard.store.retagTurn(session, counted, requestId);
    for (const p of [...(this.pending.get(chat)?.reads.map((r) => r.ctx) ?? []), ...(this.pending.get(chat)?.writes ?? [])]) {
      if (p.turn === counted) p.turn = requestId;
    }
  }

  /** Stamps what the chat's finished tool calls left: the versions its reads showed, its own writes. */
  private async settle(chat: string): Promise<void> {
    const done = this.pending.get(chat);
    if (!done) return;
    this.pending.delete(chat);
    for (const { ctx, seen } of done.reads) this.env.guard.markSeen(ctx, seen);
    // the text a write left is the document's now (a file the call deleted is simply not marked)
    for (const ctx of done.writes) await this.env.guard.recordBuiltinWrite(ctx);
  }

  private pendingOf(chat: string): Pending {
    let p = this.pending.get(chat);
    if (!p) {
      p = { reads: [], writes: [] };
      this.pending.set(chat, p);
      if (this.pending.size > MAX_CHATS) this.pending.delete(this.pending.keys().next().value as string);
    }
    return p;
  }

  private call(tool: ToolName, session: string, chat: string, filePath: string, cwd: string | undefined, arrival: number): CallContext {
    const base = cwd ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
    const uri = vscode.Uri.file(path.resolve(base, filePath));
    return { tool, session, turn: this.turnOf(chat), uri: uri.toString(), path: vscode.workspace.asRelativePath(uri), arrival };
  }

  /** Copilot's id of the chat's current turn if a guarded tool has told it, else the counted turn. */
  private turnOf(chat: string): string {
    const prompt = this.turns.get(chat) ?? 0;
    const known = this.requestIds.get(chat);
    return known?.prompt === prompt ? known.id : countedTurn(chat, prompt);
  }
}

/** A turn's name before Copilot's id for it is known: the chat and its count of user messages. */
const countedTurn = (chat: string, prompt: number) => `${chat}#${prompt}`;

/** Sets a key as the newest entry of a map bounded to MAX_CHATS (the oldest goes first). */
function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_CHATS) map.delete(map.keys().next().value as K);
}
