// An in-memory `DocumentPort` for the core's unit tests: documents with text, an unsaved flag and
// the same "apply only onto the checked text" contract as the VS Code adapter.
import type { DocumentPort, LoadResult, Logger, SaveResult } from '../../src/core/guard';
import { sha256 } from '../../src/core/hash';
import { applySpanEdits, type TextSpanEdit } from '../../src/core/replace';

interface MemoryDoc {
  text: string;
  dirty: boolean;
  /** what is on disk */
  disk: string;
}

export class MemoryDocuments implements DocumentPort {
  readonly docs = new Map<string, MemoryDoc>();
  /** format on save */
  formatter: ((text: string) => string) | undefined;
  /** runs after the check and before the edit lands (to simulate a racing edit) */
  beforeApply: ((uri: string) => void) | undefined;
  saves = 0;

  file(uri: string, text: string): this {
    this.docs.set(uri, { text, dirty: false, disk: text });
    return this;
  }

  /** The user types without saving. */
  userEdit(uri: string, text: string): void {
    const doc = this.get(uri);
    doc.text = text;
    doc.dirty = doc.text !== doc.disk;
  }

  /** Another program changes the file on disk (the clean document follows). */
  diskChange(uri: string, text: string): void {
    const doc = this.get(uri);
    doc.disk = text;
    if (!doc.dirty) doc.text = text;
  }

  text(uri: string): string {
    return this.get(uri).text;
  }

  get(uri: string): MemoryDoc {
    const doc = this.docs.get(uri);
    if (!doc) throw new Error(`no document ${uri}`);
    return doc;
  }

  async load(uri: string): Promise<LoadResult> {
    await Promise.resolve();
    const doc = this.docs.get(uri);
    if (!doc) return { exists: false };
    return { exists: true, text: doc.text, hash: sha256(doc.text), dirty: doc.dirty };
  }

  async applyEdits(uri: string, expectedHash: string, edits: readonly TextSpanEdit[], resultHash: string): Promise<boolean> {
    this.beforeApply?.(uri);
    const doc = this.get(uri);
    if (sha256(doc.text) !== expectedHash) return false;
    doc.text = applySpanEdits(doc.text, edits);
    if (sha256(doc.text) !== resultHash) throw new Error('the core announced the wrong hash for the edited text');
    doc.dirty = doc.text !== doc.disk;
    await Promise.resolve();
    return true;
  }

  async create(uri: string, text: string): Promise<boolean> {
    if (this.docs.has(uri)) return false;
    this.file(uri, text);
    return true;
  }

  async save(uri: string): Promise<SaveResult> {
    const doc = this.get(uri);
    const before = doc.text;
    if (this.formatter) doc.text = this.formatter(doc.text);
    doc.disk = doc.text;
    doc.dirty = false;
    this.saves++;
    return doc.text === before ? { saved: true } : { saved: true, reformatted: doc.text };
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
