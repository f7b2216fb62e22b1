// The gate in front of Copilot's built-in file tools: turns each hook event the bridge receives into
// the core's calls (mark a read, check an edit, record the agent's own write, forget a compacted
// chat) and the hook's answer. Thin: the rules are the core's (src/core/guard.ts).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { denyOutput, parseHookEvent } from '../core/builtinTools';
import type { CallContext, Guard, Logger } from '../core/guard';
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

/** Bounded: a window sees few chats, but a long-lived one should not grow without end. */
const MAX_CHATS = 1000;

export class BuiltinToolGate {
  /** chat id → user messages seen: the hooks carry no turn id, so a turn is counted from UserPromptSubmit */
  private readonly turns = new Map<string, number>();

  constructor(private readonly env: BuiltinToolGateEnvironment) {}

  /** One hook event (the hook's stdin) → what the hook prints ('' = no objection). */
  async handle(payloadText: string): Promise<string> {
    if (!this.env.active()) return '';
    let payload: unknown;
    try {
      payload = JSON.parse(payloadText);
    } catch {
      this.env.log.warn('hooks bridge: a hook sent input that is not JSON; let through');
      return '';
    }
    const event = parseHookEvent(payload);
    if (event.kind === 'ignore') return '';
    const session = sessionKeyOfChatId(event.chat);
    const cwd = typeof (payload as { cwd?: unknown }).cwd === 'string' ? (payload as { cwd: string }).cwd : undefined;
    // marks stamped after this event arrived do not count for it (rule 9)
    const arrival = this.env.guard.store.watermark;
    switch (event.kind) {
      case 'turn': {
        this.turns.delete(event.chat);
        this.turns.set(event.chat, (this.turns.get(event.chat) ?? 0) + 1);
        if (this.turns.size > MAX_CHATS) this.turns.delete(this.turns.keys().next().value as string);
        return '';
      }
      case 'compact': {
        // the summary replaces the text the model read: its marks must not outlive it
        const forgotten = this.env.guard.store.newestPerFile(session).length;
        this.env.guard.store.clear(session);
        this.env.log.info(`chat …${session.slice(-8)} is being compacted: forgot its read marks of ${forgotten} file(s); its next edit of each needs a fresh read`);
        return '';
      }
      case 'read': {
        this.env.onActivity(session);
        for (const file of event.files) await this.env.guard.markSeen(this.call('read_file', session, event.chat, file, cwd, arrival));
        return '';
      }
      case 'before-edit': {
        this.env.onActivity(session);
        const calls = event.files.map((f) => this.call(event.tool, session, event.chat, f.path, cwd, arrival));
        const verdict = await this.env.guard.checkBuiltinEdit(calls);
        return verdict.allow ? '' : denyOutput(verdict.text);
      }
      case 'after-edit': {
        // a file the call deleted is simply not marked (recordBuiltinWrite finds no document)
        for (const file of event.files) await this.env.guard.recordBuiltinWrite(this.call(event.tool, session, event.chat, file.path, cwd, arrival));
        return '';
      }
    }
  }

  private call(tool: ToolName, session: string, chat: string, filePath: string, cwd: string | undefined, arrival: number): CallContext {
    const base = cwd ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
    const uri = vscode.Uri.file(path.resolve(base, filePath));
    return { tool, session, turn: `${chat}#${this.turns.get(chat) ?? 0}`, uri: uri.toString(), path: vscode.workspace.asRelativePath(uri), arrival };
  }
}
