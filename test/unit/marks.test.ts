import * as assert from 'node:assert/strict';
import { MarkStore } from '../../src/core/marks';

suite('mark store', () => {
  test('newest mark wins, per chat and file', () => {
    const store = new MarkStore();
    store.stamp({ session: 'A', uri: 'u', hash: 'h1', origin: 'read' });
    store.stamp({ session: 'A', uri: 'u', hash: 'h2', origin: 'read' });
    store.stamp({ session: 'B', uri: 'u', hash: 'h3', origin: 'read' });
    assert.equal(store.newest('A', 'u')?.hash, 'h2');
    assert.equal(store.newest('B', 'u')?.hash, 'h3');
    assert.equal(store.newest('C', 'u'), undefined);
  });

  test('rule 9: a call counts only the marks that existed when it arrived', () => {
    const store = new MarkStore();
    store.stamp({ session: 'A', uri: 'u', hash: 'old', origin: 'read' });
    const arrival = store.watermark;
    store.stamp({ session: 'A', uri: 'u', hash: 'new', origin: 'refusal' });
    assert.equal(store.newest('A', 'u', arrival)?.hash, 'old');
    assert.equal(store.newest('A', 'u')?.hash, 'new');
  });

  test('keeps the history of turns, bounded per file', () => {
    const store = new MarkStore({ maxMarks: 100, maxMarksPerFile: 3, snapshotBudgetBytes: 1000 });
    for (let i = 0; i < 5; i++) store.stamp({ session: 'A', uri: 'u', hash: `h${i}`, turn: `t${i}`, origin: 'read' });
    assert.deepEqual(
      store.all().map((m) => m.turn),
      ['t2', 't3', 't4'],
    );
  });

  test('is bounded in count: the oldest marks go first', () => {
    const store = new MarkStore({ maxMarks: 10, maxMarksPerFile: 5, snapshotBudgetBytes: 1000 });
    for (let i = 0; i < 25; i++) store.stamp({ session: `s${i % 3}`, uri: `u${i}`, hash: 'h', origin: 'read' });
    assert.equal(store.size, 10);
    assert.deepEqual(
      store.all().map((m) => m.uri),
      Array.from({ length: 10 }, (_, k) => `u${15 + k}`),
    );
  });

  test('keeps last-seen texts within the byte budget, dropping the oldest', () => {
    const store = new MarkStore({ maxMarks: 100, maxMarksPerFile: 5, snapshotBudgetBytes: 100 }); // 50 UTF-16 chars
    store.stamp({ session: 'A', uri: 'u1', hash: 'h1', origin: 'read', text: 'x'.repeat(20) });
    store.stamp({ session: 'A', uri: 'u2', hash: 'h2', origin: 'read', text: 'y'.repeat(20) });
    store.stamp({ session: 'A', uri: 'u3', hash: 'h3', origin: 'read', text: 'z'.repeat(20) });
    assert.ok(store.snapshotSize <= 100);
    assert.equal(store.snapshot('A', 'u1', 'h1'), undefined, 'oldest dropped');
    assert.equal(store.snapshot('A', 'u3', 'h3'), 'z'.repeat(20));
    assert.equal(store.snapshot('A', 'u3', 'other-hash'), undefined, 'a snapshot is only given for its own hash');
  });

  test('freshness follows observed hashes; clear forgets one chat or all', () => {
    const store = new MarkStore();
    let changes = 0;
    store.onDidChange(() => changes++);
    store.stamp({ session: 'A', uri: 'u', hash: 'h1', origin: 'read' });
    store.stamp({ session: 'B', uri: 'v', hash: 'h1', origin: 'read' });
    assert.equal(store.staleFiles('A').length, 0);
    store.observe('u', 'h2');
    assert.deepEqual(
      store.staleFiles('A').map((m) => m.uri),
      ['u'],
    );
    store.observe('untracked', 'zzz');
    store.clear('A');
    assert.equal(store.newest('A', 'u'), undefined);
    assert.ok(store.newest('B', 'v'));
    store.clear();
    assert.equal(store.size, 0);
    assert.equal(changes, 5, 'stamp, stamp, observe, clear A, clear all (untracked observe is silent)');
  });
});

suite('mark store: bursts', () => {
  test('the same sight again refreshes the newest mark instead of adding one', () => {
    const store = new MarkStore({ maxMarks: 100, maxMarksPerFile: 3, snapshotBudgetBytes: 1000 });
    const read = store.stamp({ session: 'A', uri: 'u', hash: 'h0', origin: 'read', turn: 't' });
    store.stamp({ session: 'A', uri: 'u', hash: 'h1', origin: 'write', turn: 't' });
    for (let i = 0; i < 99; i++) store.stamp({ session: 'A', uri: 'u', hash: 'h1', origin: 'refusal', turn: 't' });
    assert.equal(store.size, 3);
    assert.equal(store.newest('A', 'u', read.seq + 1), read, 'a call in flight since the read still finds it');
  });
});

suite('mark store: bookkeeping', () => {
  test('stamping and clearing forever does not grow the store (removed marks are compacted away)', () => {
    const store = new MarkStore();
    for (let i = 0; i < 50_000; i++) {
      store.stamp({ session: 'A', uri: `u${i % 7}`, hash: `h${i}`, origin: 'read' });
      if (i % 3 === 0) store.clear('A');
    }
    const queue = (store as unknown as { queue: unknown[] }).queue;
    assert.ok(queue.length <= 2 * store.size + 1025, `queue of ${queue.length} for ${store.size} live marks`);
    assert.equal(store.all().length, store.size, 'all() lists only live marks');
  });

  test('retagTurn: the marks of one turn stamped under another name of it join that turn, in that chat only', () => {
    const store = new MarkStore();
    store.stamp({ session: 's1', uri: 'file:///a', hash: 'h1', turn: 'chat#1', origin: 'write' });
    store.stamp({ session: 's1', uri: 'file:///b', hash: 'h2', turn: 'chat#0', origin: 'read' });
    store.stamp({ session: 's2', uri: 'file:///a', hash: 'h1', turn: 'chat#1', origin: 'write' });
    store.retagTurn('s1', 'chat#1', 'request-9');
    assert.equal(store.newest('s1', 'file:///a')?.turn, 'request-9');
    assert.equal(store.newest('s1', 'file:///b')?.turn, 'chat#0');
    assert.equal(store.newest('s2', 'file:///a')?.turn, 'chat#1');
  });
});
