// Bounded memory (issue 3 §7): 100 000 reads over 5 000 files and 100 chats keep the mark store
// within its limits — mark count and the byte budget of last-seen texts — and the heap it retains
// stays near that budget. The heap is measured in a child `node --expose-gc` (this same bundled
// file, run as a script), so real garbage collections separate what the store keeps from garbage.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { DEFAULT_LIMITS, MarkStore } from '../../src/core/marks';

const READS = 100_000;
const FILES = 5_000;
const CHATS = 100;

/** A realistic source file: 200 B to ~12 KB, different for every version. Flat, one-byte strings. */
function fileText(file: number, version: number): string {
  const size = 200 + ((file * 7919) % 12000);
  return Buffer.alloc(size, `// file ${file} version ${version}\n`).toString('latin1');
}

interface Measurement {
  reads: number;
  ms: number;
  maxSizeSeen: number;
  maxSnapshotSeen: number;
  size: number;
  snapshotSize: number;
  textBytesGenerated: number;
  heapBefore?: number;
  heapWithStore?: number;
  heapAfterDrop?: number;
  retained?: number;
  gc: boolean;
  failure?: string;
}

/** The workload: every read stamps a mark with its full text, as `Guard.read` does. */
function workload(store: MarkStore, check: (store: MarkStore) => void): Omit<Measurement, 'gc'> {
  const versions = new Int32Array(FILES);
  let maxSizeSeen = 0;
  let maxSnapshotSeen = 0;
  let textBytesGenerated = 0;
  const started = Date.now();
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
  return { reads: READS, ms: Date.now() - started, maxSizeSeen, maxSnapshotSeen, size: store.size, snapshotSize: store.snapshotSize, textBytesGenerated };
}

const withinLimits = (store: MarkStore) => {
  assert.ok(store.size <= store.limits.maxMarks, `marks ${store.size} > maxMarks ${store.limits.maxMarks}`);
  assert.ok(store.snapshotSize <= store.limits.snapshotBudgetBytes, `snapshots ${store.snapshotSize} B > budget ${store.limits.snapshotBudgetBytes} B`);
};

function childMain(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  const collect = () => {
    for (let i = 0; i < 3; i++) gc?.();
  };
  collect();
  const heapBefore = process.memoryUsage().heapUsed;
  let store: MarkStore | undefined = new MarkStore();
  let failure: string | undefined;
  const result = workload(store, (st) => {
    try {
      withinLimits(st);
    } catch (e) {
      failure ??= String((e as Error).message);
    }
  });
  // the store still answers for what it keeps: the newest mark of the last read has its text
  const last = store.all().at(-1)!;
  if (!store.snapshot(last.session, last.uri, last.hash)) failure ??= 'the last read text is not kept for diffs';
  collect();
  const heapWithStore = process.memoryUsage().heapUsed;
  store.dispose();
  store = undefined;
  collect();
  const heapAfterDrop = process.memoryUsage().heapUsed;
  const out: Measurement = { ...result, failure, heapBefore, heapWithStore, heapAfterDrop, retained: heapWithStore - heapAfterDrop, gc: !!gc };
  process.stdout.write(`RESULT ${JSON.stringify(out)}\n`);
}

const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

if (process.env.EDITGUARD_MEMORY_CHILD === '1') {
  childMain();
} else {
  suite('bounded memory: the mark store under 100 000 reads', () => {
    test(`${READS} reads over ${FILES} files and ${CHATS} chats stay within maxMarks and the snapshot budget (checked every 1000 reads), and the heap the store retains stays near that budget (child node --expose-gc)`, function () {
      this.timeout(180_000);
      const child = spawnSync(process.execPath, ['--expose-gc', __filename], {
        env: { ...process.env, EDITGUARD_MEMORY_CHILD: '1' },
        encoding: 'utf8',
        timeout: 170_000,
      });
      const line = /^RESULT (.*)$/m.exec(child.stdout ?? '');
      assert.ok(line, `the measuring child printed a result (status ${child.status}, stderr: ${child.stderr})`);
      const m = JSON.parse(line[1]) as Measurement;
      assert.ok(m.gc, 'the child had a real gc()');
      assert.equal(m.failure, undefined, `a limit was broken during the workload: ${m.failure}`);
      const retained = m.retained!;
      assert.equal(m.maxSizeSeen, DEFAULT_LIMITS.maxMarks, 'the workload is big enough to reach the mark limit');
      assert.ok(m.maxSnapshotSeen > DEFAULT_LIMITS.snapshotBudgetBytes * 0.9, `the workload fills the snapshot budget (${mib(m.maxSnapshotSeen)})`);
      console.log(`      MEASURE memory: ${m.reads} reads in ${m.ms} ms (${((m.ms * 1000) / m.reads).toFixed(1)} µs/read), ${mib(m.textBytesGenerated)} of text read; store holds ${m.size} marks (limit ${DEFAULT_LIMITS.maxMarks}), snapshots ${mib(m.snapshotSize)} (budget ${mib(DEFAULT_LIMITS.snapshotBudgetBytes)})`);
      console.log(
        `      MEASURE memory heap: after ${m.reads} reads the store retains ${mib(retained)} of heap (heap ${mib(m.heapBefore!)} before, ${mib(m.heapWithStore!)} with the store, ${mib(m.heapAfterDrop!)} after dropping it); ` +
          `${m.size} marks, snapshots counted ${mib(m.snapshotSize)} of ${mib(DEFAULT_LIMITS.snapshotBudgetBytes)}`,
      );
      // The snapshot budget counts UTF-16 bytes; these texts are one-byte strings, so they use about
      // half of what is counted. Marks: ~10 000 small objects. A leak of dropped marks or snapshots
      // (100 000 reads of ~6 KB each ≈ 600 MiB of text) would be far beyond this bound.
      const bound = DEFAULT_LIMITS.snapshotBudgetBytes + 16 * 1024 * 1024;
      assert.ok(retained <= bound, `the store retains ${mib(retained)}, over ${mib(bound)}`);
      assert.ok(m.heapAfterDrop! - m.heapBefore! < 16 * 1024 * 1024, `heap returns near its start once the store is dropped (${mib(m.heapAfterDrop! - m.heapBefore!)} left)`);
    });
  });
}
