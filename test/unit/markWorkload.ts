// The bounded-memory workload (the store's bounds, docs/design.md §Names): 100 000 reads over 5 000 files and 100 chats, each
// stamping a mark with its full text, as `GuardedTools.read` does. Shared by the unit test of the store's
// limits (memoryBudget.test.ts) and the heap measurement of `npm run bench` (bench/core.bench.ts,
// rows marks.workload.*): the test asserts what the store keeps, the bench reports what that costs.
import { createHash } from 'node:crypto';
import type { MarkStore } from '../../src/core/marks';

export const READS = 100_000;
export const FILES = 5_000;
export const CHATS = 100;

/** A realistic source file: 200 B to ~12 KB, different for every version. Flat, one-byte strings. */
function fileText(file: number, version: number): string {
  const size = 200 + ((file * 7919) % 12000);
  return Buffer.alloc(size, `// file ${file} version ${version}\n`).toString('latin1');
}

export interface WorkloadResult {
  reads: number;
  /** the largest mark count and snapshot size seen at the checkpoints */
  maxSizeSeen: number;
  maxSnapshotSeen: number;
  size: number;
  snapshotSize: number;
  textBytesGenerated: number;
}

/** Runs the workload on `store`; `check` sees the store every 1000 reads and after the last. Deterministic. */
export function markWorkload(store: MarkStore, check: (store: MarkStore) => void = () => {}): WorkloadResult {
  const versions = new Int32Array(FILES);
  let maxSizeSeen = 0;
  let maxSnapshotSeen = 0;
  let textBytesGenerated = 0;
  let seed = 0x2f6b1d3;
  const random = (n: number) => {
    // xorshift32: the same workload every run
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % n;
  };
  for (let i = 0; i < READS; i++) {
    // a skewed mix: most reads go to a few hundred hot files, the rest anywhere
    const file = random(4) === 0 ? random(FILES) : random(400);
    const chat = random(CHATS);
    if (i % 3 === 0) versions[file]++; // the file changed since the last read
    const text = fileText(file, versions[file]);
    textBytesGenerated += text.length;
    store.stamp({
      session: `vscode-chat-session://local/${Buffer.from(`chat-${chat}`).toString('base64')}`,
      uri: `file:///workspace/project/src/module${file % 50}/file${file}.ts`,
      hash: createHash('sha256').update(text).digest('hex'),
      turn: `request_${chat}_${Math.floor(i / 1000)}`,
      origin: i % 10 === 0 ? 'refusal' : i % 7 === 0 ? 'write' : 'read',
      text,
    });
    if (i % 1000 === 0 || i === READS - 1) {
      check(store);
      maxSizeSeen = Math.max(maxSizeSeen, store.size);
      maxSnapshotSeen = Math.max(maxSnapshotSeen, store.snapshotSize);
    }
  }
  return { reads: READS, maxSizeSeen, maxSnapshotSeen, size: store.size, snapshotSize: store.snapshotSize, textBytesGenerated };
}
