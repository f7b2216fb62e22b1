// The record of agent edits that landed (docs/design.md §Edit record): one entry per write that
// passed the gate — our tools' and the other agents' edits the gate let through — with the text
// before and after, so the user can review and revert it. Texts are stored once per hash (a chain
// of edits of one file shares them) in a `HistoryStorage`: the extension's workspace storage in VS
// Code, never the workspace folder. The whole record keeps within a byte budget, oldest edit first.
import { Emitter } from './events';
import type { CompletedWrite, Logger } from './ports';
import type { ToolName } from './types';

export interface EditRecord {
  /** Unique within the workspace's record. */
  id: string;
  /** Order of landing, across reloads. */
  seq: number;
  session: string;
  turn?: string;
  tool: ToolName;
  /** Whose own tool made it (an agent's id); absent for our guarded tools, and in records older than the field */
  agent?: string;
  uri: string;
  /** The text's hash before the edit; absent when the edit created the file. */
  beforeHash?: string;
  afterHash: string;
  at: number;
  /** The edit was saved to disk (not left in a buffer with unsaved changes). */
  saved: boolean;
  /** The edit deleted the file (`afterHash` is then the empty text's). */
  deleted?: true;
  /** When the user reverted it. */
  revertedAt?: number;
}

/** Where the record lives: an index (small, rewritten) and texts by hash (written once). */
export interface HistoryStorage {
  readIndex(): Promise<string | undefined>;
  writeIndex(json: string): Promise<void>;
  readText(hash: string): Promise<string | undefined>;
  writeText(hash: string, text: string): Promise<void>;
  deleteText(hash: string): Promise<void>;
}

/** What the index file holds. */
interface IndexState {
  version: 1;
  records: EditRecord[];
  /** hash → UTF-8 bytes of the stored text */
  sizes: Record<string, number>;
  /** Other state saved with the record (the chats' and turns' names). */
  attachments?: Record<string, unknown>;
}

/** Bytes an index entry takes, roughly: counted so many tiny edits also keep within the budget. */
const RECORD_BYTES = 400;
/** How long after the last change the index is written (edits come in bursts). */
const FLUSH_DELAY_MS = 250;

export class EditHistory {
  private records: EditRecord[] = [];
  /** hash → stored size, of every text the records refer to */
  private readonly sizes = new Map<string, number>();
  /** the sum of `sizes` */
  private textBytes = 0;
  /** texts recorded but not yet in the storage */
  private readonly unwritten = new Map<string, string>();
  /** texts no record refers to any more, to delete at the next flush */
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

  constructor(
    private readonly storage: HistoryStorage | undefined,
    /** The byte budget, read at each record (a setting). */
    private readonly budget: () => number,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.changed = new Emitter((e) => log.error(`a listener of the edit record failed: ${e instanceof Error ? e.message : String(e)}`));
    this.onDidChange = this.changed.event;
  }

  /** Loads what an earlier window left; a missing or unreadable index is an empty record. */
  async load(): Promise<void> {
    if (!this.storage) return;
    let state: IndexState | undefined;
    try {
      const json = await this.storage.readIndex();
      state = json === undefined ? undefined : parseIndex(JSON.parse(json));
    } catch (e) {
      this.log.warn(`the record of agent edits could not be read; starting a new one: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (!state) return;
    // edits that landed while the index was read come after the loaded ones
    const landed = this.records;
    this.records = state.records.sort((a, b) => a.seq - b.seq);
    for (const [hash, size] of Object.entries(state.sizes)) if (!this.sizes.has(hash)) this.addText(hash, size);
    this.attachments = state.attachments ?? {};
    this.nextSeq = Math.max(0, ...this.records.map((r) => r.seq)) + 1;
    for (const r of landed) this.records.push({ ...r, seq: this.nextSeq++ });
    this.keepWithinBudget();
    this.changed.fire();
  }

  all(): readonly EditRecord[] {
    return this.records;
  }

  /** How many recorded edits are not reverted. */
  unreverted(): number {
    return this.records.filter((r) => r.revertedAt === undefined).length;
  }

  get(id: string): EditRecord | undefined {
    return this.records.find((r) => r.id === id);
  }

  /** Bytes the record takes: its texts once each, and its entries. */
  bytes(): number {
    return this.records.length * RECORD_BYTES + this.textBytes;
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
  record(write: CompletedWrite): EditRecord | undefined {
    if (write.before === 'unknown') return undefined;
    const edit = { ...write, before: write.before === 'created' ? undefined : write.before };
    if (edit.before?.hash === edit.after.hash) return undefined;
    const at = this.now();
    const seq = this.nextSeq++;
    const record: EditRecord = {
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
    this.records.push(record);
    this.keepWithinBudget();
    this.changed.fire();
    this.schedule();
    if (this.records.includes(record)) return record;
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
   * Files renamed or moved in the editor (or by an extension through VS Code): their records follow,
   * so a revert works under the new name. A folder's rename moves the records of every file in it.
   */
  rename(moves: ReadonlyArray<{ from: string; to: string }>): void {
    let moved = 0;
    for (const r of this.records) {
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

  markReverted(ids: readonly string[]): void {
    const at = this.now();
    for (const r of this.records) if (ids.includes(r.id) && r.revertedAt === undefined) r.revertedAt = at;
    this.changed.fire();
    this.schedule();
  }

  /** Forgets every record (the user cleared it). */
  clear(): void {
    for (const hash of this.sizes.keys()) this.unreferenced.add(hash);
    this.records = [];
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
  }

  private addText(hash: string, size: number): void {
    this.sizes.set(hash, size);
    this.textBytes += size;
  }

  private schedule(): void {
    if (!this.storage || this.timer) return;
    this.timer = setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
  }

  /** Oldest records go first until the record fits; the texts only they used go with them. */
  private keepWithinBudget(): void {
    const budget = this.budget();
    let dropped = 0;
    while (this.records.length && this.bytes() > budget) {
      const oldest = this.records.shift() as EditRecord;
      dropped++;
      for (const hash of [oldest.beforeHash, oldest.afterHash]) {
        if (hash === undefined || this.records.some((r) => r.beforeHash === hash || r.afterHash === hash)) continue;
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
      const state: IndexState = { version: 1, records: this.records, sizes: Object.fromEntries(this.sizes), attachments: this.attachments };
      await storage.writeIndex(JSON.stringify(state));
      for (const hash of [...this.unreferenced]) {
        this.unreferenced.delete(hash);
        if (!this.sizes.has(hash)) await storage.deleteText(hash);
      }
    } catch (e) {
      this.log.warn(`the record of agent edits could not be saved: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

/** Records grouped by a key, each group in the records' order, the groups in the order their first record comes. */
export function groupRecords<K>(records: readonly EditRecord[], key: (r: EditRecord) => K): Map<K, EditRecord[]> {
  const groups = new Map<K, EditRecord[]>();
  for (const r of records) {
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
    (r): r is EditRecord =>
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
