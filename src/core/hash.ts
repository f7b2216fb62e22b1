// SHA-256 of a document's text, the identity the gate compares. One pass over the UTF-8 bytes is
// the least any content gate can do; the per-version cache makes a repeat check of an unchanged
// document free.
import { createHash } from 'node:crypto';

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

interface CachedHash {
  version: number;
  hash: string;
}

/**
 * Hashes per (document key, version). VS Code bumps `TextDocument.version` on every change, so an
 * unchanged version means unchanged text. Bounded: the least recently used entries go first.
 */
export class HashCache {
  private readonly entries = new Map<string, CachedHash>();

  constructor(private readonly capacity = 512) {}

  /** `text` is a function so an unchanged document is not even copied out of the editor. */
  hash(key: string, version: number, text: () => string): string {
    const cached = this.entries.get(key);
    if (cached && cached.version === version) {
      // refresh recency
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached.hash;
    }
    const hash = sha256(text());
    this.entries.delete(key);
    this.entries.set(key, { version, hash });
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return hash;
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
