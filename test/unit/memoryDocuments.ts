// The core's document port (`EditorDocuments`, the product's own code) over the model of VS Code's
// editor (memoryEditor.ts), with the shorthands the unit tests use to play the user and other programs.
import { EditorDocuments } from '../../src/core/documents';
import { ExternalEdits } from '../../src/core/externalEdits';
import { Gate } from '../../src/core/gate';
import { GuardedTools } from '../../src/core/guardedTools';
import { MarkStore } from '../../src/core/marks';
import type { CallContext, DocumentPort, GateSettings, Logger } from '../../src/core/ports';
import { OWN_TOOL_VERB, type OwnToolId } from '../../src/core/toolIds';
import { copilotAgent } from '../../src/agents/copilot/node/events';
import { asEditorHolds } from '../../src/core/text';
import { MemoryEditor } from './memoryEditor';

export class MemoryDocuments extends EditorDocuments {
  constructor(readonly memory = new MemoryEditor()) {
    super(memory);
  }

  /** A file on disk with this text (the editor opens it when a tool asks for it). */
  file(uri: string, text: string): this {
    this.memory.writeDisk(uri, text);
    return this;
  }

  /** The user types without saving. */
  userEdit(uri: string, text: string): void {
    this.memory.userEdit(uri, text);
  }

  /** The user saves the open document (Ctrl+S). */
  async userSave(uri: string): Promise<void> {
    const doc = this.memory.document(uri);
    if (!doc || !(await this.memory.save(doc))) throw new Error(`the user's save of ${uri} failed`);
  }

  /** Another program changes the file on disk (a clean document follows). */
  diskChange(uri: string, text: string): void {
    this.memory.writeDisk(uri, text);
  }

  /** The file's current text: the document's if the editor holds it, else the disk's as the editor would. */
  text(uri: string): string {
    return this.get(uri).text;
  }

  get(uri: string): { text: string; disk: string | undefined; dirty: boolean } {
    const doc = this.memory.document(uri);
    const disk = this.memory.disk(uri);
    if (!doc && disk === undefined) throw new Error(`no file ${uri}`);
    return { text: doc?.text ?? asEditorHolds(disk ?? '', this.memory.defaultLineEnding).text, disk, dirty: doc?.isDirty ?? false };
  }

  set formatter(f: ((text: string) => string) | undefined) {
    this.memory.formatter = f;
  }

  set beforeApply(f: ((uri: string) => void) | undefined) {
    this.memory.beforeApply = f;
  }

  get saves(): number {
    return this.memory.saves;
  }
}

export class MemoryLog implements Logger {
  readonly lines: string[] = [];
  debug(m: string) {
    this.lines.push(`debug ${m}`);
  }
  info(m: string) {
    this.lines.push(`info ${m}`);
  }
  warn(m: string) {
    this.lines.push(`warn ${m}`);
  }
  error(m: string | Error) {
    this.lines.push(`error ${m instanceof Error ? m.message : m}`);
  }
}

/** The core as the extension wires it: one gate under our tools' flow and other agents' edits. */
export function coreOver(store: MarkStore, port: DocumentPort, settings: (uri: string) => GateSettings, log: Logger = new MemoryLog()) {
  const gate = new Gate(store, port, settings, log);
  return { gate, tools: new GuardedTools(gate), edits: new ExternalEdits(gate) };
}

/** A fresh in-memory editor and mark store under the core, with settings a test may change in place. */
export function coreFixture(settings: Partial<GateSettings> = {}, log = new MemoryLog()) {
  const docs = new MemoryDocuments();
  const store = new MarkStore();
  const current: GateSettings = { enabled: true, ownWriteKeepsMark: 'sameTurn', maxReadLines: 2000, ...settings };
  return { docs, store, current, log, ...coreOver(store, docs, () => current, log) };
}

/** A call of `tool` on a `file:///ws/…` uri as an adapter builds it, arriving now (after every mark so far). */
export function callOn(
  store: MarkStore,
  tool: string,
  uri: string,
  session: string,
  turn: string | undefined,
  verb = verbOf(tool),
): CallContext {
  return { tool, verb, session, turn, uri, path: uri.replace('file:///ws/', ''), arrival: store.watermark };
}

/** The verb an adapter supplies for a tool: ours, or one of Copilot's. */
export function verbOf(tool: string): string {
  return OWN_TOOL_VERB[tool as OwnToolId] ?? copilotAgent.verb(tool);
}
