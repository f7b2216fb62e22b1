// The edit record (docs/design.md §Edit record, §Revert): every agent edit that landed, kept so the
// user can review and revert it, and the one owner of it — as Zed's `ActionLog` owns what its agent
// did — with the verbs every caller needs: record an edit, list and read it, follow a rename, revert an
// edit, a file's edits in a turn, a turn or a chat, keep within the size bound, load and save. One entry
// per write that passed the gate — our tools' and the other agents' edits the gate let through — with
// the text before and after. Texts are stored once per hash (a chain of edits of one file shares them)
// in an `EditRecordStorage`: the extension's workspace storage in VS Code, never the workspace folder.
// The whole record keeps within a byte budget, oldest edit first. How a file's edits are taken out is
// revert.ts (and its merge, merge.ts), stateless; this owner runs it under the gate's lock.
import { Emitter } from './events';
import type { Gate } from './gate';
import type { ConflictLabels } from './merge';
import type { CompletedWrite, Logger } from './ports';
import { type FileRevert, revertFile } from './revert';
import type { RecordedEdit } from './types';

export type { RecordedEdit } from './types';

/** Where the record lives: an index (small, rewritten) and texts by hash (written once). */
export interface EditRecordStorage {
  readIndex(): Promise<string | undefined>;
  writeIndex(json: string): Promise<void>;
  readText(hash: string): Promise<string | undefined>;
  writeText(hash: string, text: string): Promise<void>;
  deleteText(hash: string): Promise<void>;
}

/**
 * Which edits a command means: a chat's, a turn's, a file's in one turn, or one edit (by id). The
 * Agent Edits view's elements are these (`AgentEditNode`), so a command takes the same object from the
 * view, the Command Palette or a test.
 */
export type EditScope =
  | { kind: 'chat'; session: string }
  | { kind: 'turn'; session: string; turn: string | undefined }
  | { kind: 'file'; session: string; turn: string | undefined; uri: string }
  | { kind: 'edit'; id: string };

/** A file's edits reverted: the file, and the hash of the text the revert left in it. */
export interface RevertDone {
  uri: string;
  hash: string;
}

/** What the record is made with. */
export interface EditRecordParts {
  /** Where it is saved; none (a window without a folder): kept in memory only. */
  storage: EditRecordStorage | undefined;
  /** The byte budget, read at each new edit (`editGuard.maxEditRecordMB`). */
  budget: () => number;
  /** Whose lock a revert runs under (no agent write lands in between) and whose editor it writes through. */
  gate: Gate;
  /** How a revert's conflict markers name the two sides. */
  labels: ConflictLabels;
  log: Logger;
  now?: () => number;
}

/** What the index file holds (`records`: the stored name, kept so an earlier window's index loads). */
interface IndexState {
  version: 1;
  records: RecordedEdit[];
  /** hash → UTF-8 bytes of the stored text */
  sizes: Record<string, number>;
  /** Other state saved with the record (the chats' and turns' names). */
  attachments?: Record<string, unknown>;
}

/** Bytes an index entry takes, roughly: counted so many tiny edits also keep within the budget. */
const EDIT_BYTES = 400;
/** How long after the last change the index is written (edits come in bursts). */
const FLUSH_DELAY_MS = 250;

export class EditRecord {
  private edits: RecordedEdit[] = [];
  /** hash → stored size, of every text the edits refer to */
  private readonly sizes = new Map<string, number>();
  /** the sum of `sizes` */
  private textBytes = 0;
  /** texts recorded but not yet in the storage */
  private readonly unwritten = new Map<string, string>();
  /** texts no edit refers to any more, to delete at the next flush */
  private readonly unreferenced = new Set<string>();
  /** state loaded with the record, by name */
  private attachments: Record<string, unknown> = {};
  /** state saved with the record, read at each write */
  private readonly providers = new Map<string, () => unknown>();
  private nextSeq = 1;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private readonly changed: Emitter<void>;
  readonly onDidChange: Emitter<void>['event'];
  private readonly reverted: Emitter<RevertDone>;
  /** A file's edits were reverted (its blocked-write diagnostics are about text that is gone). */
  readonly onDidRevert: Emitter<RevertDone>['event'];
  private readonly storage: EditRecordStorage | undefined;
  private readonly budget: () => number;
  private readonly gate: Gate;
  private readonly labels: ConflictLabels;
  private readonly log: Logger;
  private readonly now: () => number;

  constructor({ storage, budget, gate, labels, log, now = Date.now }: EditRecordParts) {
    this.storage = storage;
    this.budget = budget;
    this.gate = gate;
    this.labels = labels;
    this.log = log;
    this.now = now;
    const failed = (e: unknown) => log.error(`a listener of the edit record failed: ${e instanceof Error ? e.message : String(e)}`);
    this.changed = new Emitter(failed);
    this.onDidChange = this.changed.event;
    this.reverted = new Emitter(failed);
    this.onDidRevert = this.reverted.event;
  }

  /** Loads what an earlier window left; a missing or unreadable index is an empty record. */
  async load(): Promise<void> {
    if (!this.storage) return;
    let state: IndexState | undefined;
    try {
      const json = await this.storage.readIndex();
      state = json === undefined ? undefined : parseIndex(JSON.parse(json));
    } catch (e) {
      this.log.warn(`the edit record could not be read; starting a new one: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (!state) return;
    // edits that landed while the index was read come after the loaded ones
    const landed = this.edits;
    this.edits = state.records.sort((a, b) => a.seq - b.seq);
    for (const [hash, size] of Object.entries(state.sizes)) if (!this.sizes.has(hash)) this.addText(hash, size);
    this.attachments = state.attachments ?? {};
    this.nextSeq = Math.max(0, ...this.edits.map((r) => r.seq)) + 1;
    for (const r of landed) this.edits.push({ ...r, seq: this.nextSeq++ });
    this.keepWithinBudget();
    this.changed.fire();
  }

  all(): readonly RecordedEdit[] {
    return this.edits;
  }

  /** How many recorded edits are not reverted. */
  unreverted(): number {
    return this.edits.filter((r) => r.revertedAt === undefined).length;
  }

  get(id: string): RecordedEdit | undefined {
    return this.edits.find((r) => r.id === id);
  }

  /** The edits a scope stands for, oldest first (none when it is no longer in the record). */
  select(scope: EditScope): RecordedEdit[] {
    switch (scope.kind) {
      case 'chat':
        return this.edits.filter((r) => r.session === scope.session);
      case 'turn':
        return this.edits.filter((r) => r.session === scope.session && r.turn === scope.turn);
      case 'file':
        return this.edits.filter((r) => r.session === scope.session && r.turn === scope.turn && r.uri === scope.uri);
      case 'edit':
        return this.edits.filter((r) => r.id === scope.id);
    }
  }

  /** Bytes the record takes: its texts once each, and its entries. */
  bytes(): number {
    return this.edits.length * EDIT_BYTES + this.textBytes;
  }

  /** State another part keeps with the record, as the last window saved it. */
  attachment(name: string): unknown {
    return this.attachments[name];
  }

  /** Saves `provide()` with the record each time the record is written (the names its view shows). */
  attach(name: string, provide: () => unknown): void {
    this.providers.set(name, provide);
  }

  /**
   * A write landed (the gate's `onDidWrite`): record it. Not recorded: a write whose text before the
   * gate did not see (nothing to review it against), and an edit that changed nothing.
   */
  record(write: CompletedWrite): RecordedEdit | undefined {
    if (write.before === 'unknown') return undefined;
    const edit = { ...write, before: write.before === 'created' ? undefined : write.before };
    if (edit.before?.hash === edit.after.hash) return undefined;
    const at = this.now();
    const seq = this.nextSeq++;
    const recorded: RecordedEdit = {
      id: `${at.toString(36)}-${seq.toString(36)}`,
      seq,
      session: edit.session,
      ...(edit.turn !== undefined ? { turn: edit.turn } : {}),
      tool: edit.tool,
      ...(edit.agent !== undefined ? { agent: edit.agent } : {}),
      uri: edit.uri,
      ...(edit.before ? { beforeHash: edit.before.hash } : {}),
      afterHash: edit.after.hash,
      at,
      saved: edit.saved,
      ...(edit.deleted ? { deleted: true as const } : {}),
    };
    for (const version of [edit.before, edit.after]) {
      if (!version || this.sizes.has(version.hash)) continue;
      this.addText(version.hash, Buffer.byteLength(version.text, 'utf8'));
      this.unwritten.set(version.hash, version.text);
      this.unreferenced.delete(version.hash);
    }
    this.edits.push(recorded);
    this.keepWithinBudget();
    this.changed.fire();
    this.schedule();
    if (this.edits.includes(recorded)) return recorded;
    this.log.warn(`edit record: an edit of ${edit.uri} is larger than the record's budget (editGuard.maxEditRecordMB) and was not kept`);
    return undefined;
  }

  /** The text with this hash, as the record keeps it; `undefined` when it is gone (storage lost). */
  async text(hash: string): Promise<string | undefined> {
    const pending = this.unwritten.get(hash);
    if (pending !== undefined) return pending;
    if (!this.sizes.has(hash) || !this.storage) return undefined;
    try {
      return await this.storage.readText(hash);
    } catch {
      return undefined;
    }
  }

  /**
   * Files renamed or moved in the editor (or by an extension through VS Code): their edits follow,
   * so a revert works under the new name. A folder's rename moves the edits of every file in it.
   */
  rename(moves: ReadonlyArray<{ from: string; to: string }>): void {
    let moved = 0;
    for (const r of this.edits) {
      for (const { from, to } of moves) {
        if (r.uri === from) r.uri = to;
        else if (r.uri.startsWith(`${from}/`)) r.uri = to + r.uri.slice(from.length);
        else continue;
        moved++;
        break;
      }
    }
    if (!moved) return;
    this.changed.fire();
    this.schedule();
  }

  /**
   * Reverts an edit, a file's edits in a turn, a turn or a chat — or any edits given — file by file
   * (those reverted already are left out), and marks what came out reverted or unchanged.
   */
  async revert(what: EditScope | readonly RecordedEdit[]): Promise<FileRevert[]> {
    const chosen = 'kind' in what ? this.select(what) : what;
    const results: FileRevert[] = [];
    for (const [uri, edits] of groupEdits(
      chosen.filter((r) => r.revertedAt === undefined),
      (r) => r.uri,
    )) {
      const newestFirst = [...edits].sort((a, b) => b.seq - a.seq);
      const { outcome, leftHash } = await this.gate.lock.run(uri, () =>
        revertFile(this.gate.port, (hash) => this.text(hash), this.labels, uri, newestFirst),
      );
      results.push(outcome);
      if (outcome.kind === 'reverted' || outcome.kind === 'unchanged') this.markReverted(outcome.ids);
      if (leftHash !== undefined) {
        // the chats that saw the agent's version are stale now (rule 2); their next result says the user reverted it
        this.gate.noteRevert(uri, leftHash);
        this.reverted.fire({ uri, hash: leftHash });
      }
    }
    return results;
  }

  /** Forgets every edit (the user cleared the record). */
  clear(): void {
    for (const hash of this.sizes.keys()) this.unreferenced.add(hash);
    this.edits = [];
    this.sizes.clear();
    this.textBytes = 0;
    this.unwritten.clear();
    this.changed.fire();
    this.schedule();
  }

  /** Writes what is not yet stored; resolves once the storage holds the record as it is now. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  /** Stops listening and the pending timer; writing what is left is `flush`'s, awaited at deactivation. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.changed.dispose();
    this.reverted.dispose();
  }

  private markReverted(ids: readonly string[]): void {
    const at = this.now();
    for (const r of this.edits) if (ids.includes(r.id) && r.revertedAt === undefined) r.revertedAt = at;
    this.changed.fire();
    this.schedule();
  }

  private addText(hash: string, size: number): void {
    this.sizes.set(hash, size);
    this.textBytes += size;
  }

  private schedule(): void {
    if (!this.storage || this.timer) return;
    this.timer = setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
  }

  /** Oldest edits go first until the record fits; the texts only they used go with them. */
  private keepWithinBudget(): void {
    const budget = this.budget();
    let dropped = 0;
    while (this.edits.length && this.bytes() > budget) {
      const oldest = this.edits.shift() as RecordedEdit;
      dropped++;
      for (const hash of [oldest.beforeHash, oldest.afterHash]) {
        if (hash === undefined || this.edits.some((r) => r.beforeHash === hash || r.afterHash === hash)) continue;
        this.textBytes -= this.sizes.get(hash) ?? 0;
        this.sizes.delete(hash);
        if (!this.unwritten.delete(hash)) this.unreferenced.add(hash);
      }
    }
    if (dropped) this.log.debug(`edit record: dropped the ${dropped} oldest edit(s) to keep within ${budget} bytes`);
  }

  private async write(): Promise<void> {
    const storage = this.storage;
    if (!storage) return;
    try {
      for (const [hash, text] of [...this.unwritten]) {
        await storage.writeText(hash, text);
        // a text recorded again meanwhile is the same text: it is stored either way
        this.unwritten.delete(hash);
      }
      for (const [name, provide] of this.providers) this.attachments[name] = provide();
      const state: IndexState = { version: 1, records: this.edits, sizes: Object.fromEntries(this.sizes), attachments: this.attachments };
      await storage.writeIndex(JSON.stringify(state));
      for (const hash of [...this.unreferenced]) {
        this.unreferenced.delete(hash);
        if (!this.sizes.has(hash)) await storage.deleteText(hash);
      }
    } catch (e) {
      this.log.warn(`the edit record could not be saved: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

/** Edits grouped by a key, each group in the edits' order, the groups in the order their first edit comes. */
export function groupEdits<K>(edits: readonly RecordedEdit[], key: (r: RecordedEdit) => K): Map<K, RecordedEdit[]> {
  const groups = new Map<K, RecordedEdit[]>();
  for (const r of edits) {
    const group = groups.get(key(r));
    if (group) group.push(r);
    else groups.set(key(r), [r]);
  }
  return groups;
}

/** An index as read back: anything malformed is left out, never trusted. */
function parseIndex(value: unknown): IndexState | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { version, records, sizes, attachments } = value as Partial<IndexState>;
  if (version !== 1 || !Array.isArray(records) || typeof sizes !== 'object' || sizes === null) return undefined;
  const validSizes: Record<string, number> = {};
  for (const [hash, size] of Object.entries(sizes))
    if (/^[0-9a-f]{64}$/.test(hash) && Number.isSafeInteger(size) && size >= 0) validSizes[hash] = size;
  const known = (hash: unknown) => typeof hash === 'string' && hash in validSizes;
  const valid = records.filter(
    (r): r is RecordedEdit =>
      typeof r === 'object' &&
      r !== null &&
      typeof r.id === 'string' &&
      Number.isSafeInteger(r.seq) &&
      typeof r.session === 'string' &&
      (r.turn === undefined || typeof r.turn === 'string') &&
      typeof r.tool === 'string' &&
      (r.agent === undefined || typeof r.agent === 'string') &&
      typeof r.uri === 'string' &&
      (r.beforeHash === undefined || known(r.beforeHash)) &&
      known(r.afterHash) &&
      typeof r.at === 'number' &&
      typeof r.saved === 'boolean' &&
      (r.deleted === undefined || r.deleted === true) &&
      (r.revertedAt === undefined || typeof r.revertedAt === 'number'),
  );
  return {
    version,
    records: valid,
    sizes: validSizes,
    attachments: typeof attachments === 'object' && attachments !== null ? attachments : {},
  };
}
