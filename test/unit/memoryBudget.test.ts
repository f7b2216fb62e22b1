// Bounded memory (the store's bounds, docs/design.md §Names): 100 000 reads over 5 000 files and 100 chats keep the mark store
// within its limits — mark count and the byte budget of last-seen texts — checked every 1000 reads,
// and the store still answers for what it keeps. The heap the store retains under this workload is
// measured by `npm run bench` (bench/core.bench.ts, rows marks.workload.heap and
// marks.workload.afterDrop, with their goals), not asserted here.
import * as assert from 'node:assert/strict';
import { DEFAULT_LIMITS, MarkStore } from '../../src/core/marks';
import { CHATS, FILES, markWorkload, READS } from './markWorkload';

const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

suite('bounded memory: the mark store under 100 000 reads', () => {
  test(`${READS} reads over ${FILES} files and ${CHATS} chats stay within maxMarks and the snapshot budget (checked every 1000 reads), and the last read's text is kept`, function () {
    this.timeout(60_000);
    const store = new MarkStore();
    const broken: string[] = [];
    const m = markWorkload(store, (st) => {
      if (st.size > st.limits.maxMarks) broken.push(`marks ${st.size} > maxMarks ${st.limits.maxMarks}`);
      if (st.snapshotSize > st.limits.snapshotBudgetBytes)
        broken.push(`snapshots ${st.snapshotSize} B > budget ${st.limits.snapshotBudgetBytes} B`);
    });
    assert.deepEqual(broken, [], 'no limit was broken during the workload');
    assert.equal(m.maxSizeSeen, DEFAULT_LIMITS.maxMarks, 'the workload is big enough to reach the mark limit');
    assert.equal(m.size, DEFAULT_LIMITS.maxMarks, 'a full store stays full: eviction drops one old mark per new one');
    assert.ok(
      m.maxSnapshotSeen > DEFAULT_LIMITS.snapshotBudgetBytes * 0.9,
      `the workload fills the snapshot budget (${mib(m.maxSnapshotSeen)})`,
    );
    assert.ok(
      m.textBytesGenerated > DEFAULT_LIMITS.snapshotBudgetBytes * 10,
      `far more text was read (${mib(m.textBytesGenerated)}) than the budget keeps`,
    );
    // the store still answers for what it keeps: the newest mark of the last read has its text
    const last = store.all().at(-1)!;
    assert.ok(store.snapshot(last.session, last.uri, last.hash), 'the last read text is kept for diffs');
    store.dispose();
  });
});
