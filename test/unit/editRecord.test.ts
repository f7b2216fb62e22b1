// The edit record and the revert that keeps later work (docs/design.md §Edit record,
// §Revert), over the core's own document port on the model of VS Code's editor.
import * as assert from 'node:assert/strict';
import { EditRecord, type EditRecordStorage, type EditScope } from '../../src/core/editRecord';
import { ExternalEdits } from '../../src/core/externalEdits';
import { sha256 } from '../../src/core/hash';
import { linesOf, revertChange } from '../../src/core/merge';
import type { CallContext } from '../../src/core/ports';
import { spanEdit } from '../../src/core/revert';
import { applySpanEdits } from '../../src/core/replace';
import { callOn, coreFixture, MemoryLog } from './memoryDocuments';

const A = 'file:///ws/a.txt';
const B = 'file:///ws/b.txt';
const C = 'file:///ws/c.txt';
const LABELS = { current: 'current', reverted: 'reverted' };

/** The storage as a map, counting what it holds. */
class MemoryStorage implements EditRecordStorage {
  index: string | undefined;
  readonly texts = new Map<string, string>();
  async readIndex() {
    return this.index;
  }
  async writeIndex(json: string) {
    this.index = json;
  }
  async readText(hash: string) {
    return this.texts.get(hash);
  }
  async writeText(hash: string, text: string) {
    this.texts.set(hash, text);
  }
  async deleteText(hash: string) {
    this.texts.delete(hash);
  }
  /** Bytes on "disk": the index and every text. */
  bytes(): number {
    return Buffer.byteLength(this.index ?? '') + [...this.texts.values()].reduce((n, t) => n + Buffer.byteLength(t), 0);
  }
}

function setup(budget = 64 * 1024 * 1024) {
  const { docs, store, log, gate, tools } = coreFixture();
  const storage = new MemoryStorage();
  const record = new EditRecord({ storage, budget: () => budget, gate, labels: LABELS, log });
  gate.onDidWrite((w) => record.record(w));
  const call = (tool: string, uri: string, turn = 'turn-1', session = 'chat-1'): CallContext => callOn(store, tool, uri, session, turn);
  const read = (uri: string, turn?: string, session?: string) => tools.read(call('editGuard_readFile', uri, turn, session), {});
  const replace = (uri: string, oldString: string, newString: string, turn?: string, session?: string) =>
    tools.replace(call('editGuard_replaceString', uri, turn, session), { oldString, newString, replaceAll: false });
  const write = (uri: string, content: string, turn?: string) =>
    tools.write(call('editGuard_writeFile', uri, turn), { content, append: false });
  const editsOf = (uri: string) => record.all().filter((r) => r.uri === uri);
  return { docs, store, gate, record, storage, read, replace, write, editsOf, log, call };
}

const NUMBERS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'].map((w) => `${w}\n`).join('');

suite('revert: the three-way merge that takes out only the agent change', () => {
  test('a file that still holds what the agent left gets back its earlier text, byte for byte', () => {
    const before = 'a\r\nb\r\nc';
    const after = 'a\r\nB\r\nc';
    assert.deepEqual(revertChange(after, after, before, LABELS), { kind: 'clean', text: before });
  });

  test('a later change elsewhere in the file is kept, the agent change is taken out', () => {
    const after = NUMBERS.replace('three', 'THREE (agent)');
    const current = after.replace('seven', 'seven (user)');
    const merged = revertChange(current, after, NUMBERS, LABELS);
    assert.deepEqual(merged, { kind: 'clean', text: NUMBERS.replace('seven', 'seven (user)') });
  });

  test('a later change of the same lines is a conflict, with its lines and the markers', () => {
    const after = NUMBERS.replace('three', 'THREE (agent)');
    const current = after.replace('THREE (agent)', 'THREE (agent, then user)');
    const merged = revertChange(current, after, NUMBERS, LABELS);
    assert.equal(merged.kind, 'conflict');
    if (merged.kind !== 'conflict') return;
    assert.deepEqual(merged.lines, [{ start: 3, end: 3 }]);
    assert.match(merged.marked, /<<<<<<< current\nTHREE \(agent, then user\)\n=======\nthree\n>>>>>>> reverted\n/);
  });

  test('a change the user already undid by hand leaves nothing to undo', () => {
    const after = NUMBERS.replace('three', 'THREE');
    assert.deepEqual(revertChange(NUMBERS, after, NUMBERS, LABELS), { kind: 'clean', text: NUMBERS });
  });

  test('lines keep their breaks, so joining them gives the text back', () => {
    for (const text of ['', 'x', 'a\nb', 'a\r\nb\r\n', '\n\n']) assert.equal(linesOf(text).join(''), text);
  });

  test('the one edit between two texts never splits a CRLF or a surrogate pair', () => {
    for (const [from, to] of [
      ['a\r\nb', 'a\nb'],
      ['x😀y', 'x😁y'],
      ['same', 'same'],
      ['ab\r\n', 'ab\r\ncd\r\n'],
    ]) {
      const edit = spanEdit(from, to);
      assert.equal(applySpanEdits(from, [edit]), to);
      assert.notEqual(from[edit.start - 1] === '\r' && from[edit.start] === '\n', true);
    }
  });
});

suite('edit record: what it keeps', () => {
  test('every write that lands is recorded with its chat, turn, tool and texts; a refused one is not', async () => {
    const t = setup();
    t.docs.file(A, NUMBERS);
    await t.replace(A, 'one', 'ONE'); // not read: refused
    assert.equal(t.record.all().length, 0);
    await t.read(A);
    await t.replace(A, 'one', 'ONE');
    await t.write(B, 'new file\n');
    const [edit, create] = t.record.all();
    assert.equal(edit.uri, A);
    assert.equal(edit.session, 'chat-1');
    assert.equal(edit.turn, 'turn-1');
    assert.equal(edit.tool, 'editGuard_replaceString');
    assert.equal(edit.saved, true);
    assert.equal(await t.record.text(edit.beforeHash as string), NUMBERS);
    assert.equal(await t.record.text(edit.afterHash), NUMBERS.replace('one', 'ONE'));
    assert.equal(create.beforeHash, undefined, 'a create has no text before');
  });

  test('the budget holds under many edits: the oldest go first, their texts with them, the newest stay', async () => {
    const budget = 200_000;
    const t = setup(budget);
    const big = (i: number) => `${'x'.repeat(20_000)}\nversion ${i}\n`;
    t.docs.file(A, big(0));
    await t.read(A);
    for (let i = 1; i <= 60; i++) await t.write(A, big(i));
    await t.record.flush();
    assert.ok(t.record.bytes() <= budget, `${t.record.bytes()} > ${budget}`);
    assert.ok(t.storage.bytes() <= budget, `the storage holds ${t.storage.bytes()} bytes`);
    const kept = t.record.all();
    assert.ok(kept.length > 1 && kept.length < 60, `${kept.length} kept`);
    assert.equal(await t.record.text(kept[kept.length - 1].afterHash), big(60));
    // every text still stored is one a kept record refers to
    const referenced = new Set(kept.flatMap((r) => [r.beforeHash, r.afterHash]));
    for (const hash of t.storage.texts.keys()) assert.ok(referenced.has(hash));
  });

  test('a new edit record over the same storage has the same edits (a window reload)', async () => {
    const t = setup();
    t.docs.file(A, NUMBERS);
    await t.read(A);
    await t.replace(A, 'two', 'TWO');
    t.record.attach('names', () => ({ chats: 1 }));
    await t.record.flush();
    const again = new EditRecord({ storage: t.storage, budget: () => 1 << 26, gate: t.gate, labels: LABELS, log: new MemoryLog() });
    await again.load();
    assert.deepEqual(again.all(), t.record.all());
    assert.deepEqual(again.attachment('names'), { chats: 1 });
    assert.equal(await again.text(again.all()[0].beforeHash as string), NUMBERS);
  });

  test('an edit that lands while the saved record is being read comes after the loaded ones, and nothing is lost', async () => {
    const t = setup();
    t.docs.file(A, NUMBERS);
    await t.read(A);
    await t.replace(A, 'two', 'TWO');
    await t.record.flush();
    // the next window: its record is loading when the agent's first edit lands
    const again = new EditRecord({ storage: t.storage, budget: () => 1 << 26, gate: t.gate, labels: LABELS, log: new MemoryLog() });
    const loading = again.load();
    again.record({
      session: 'chat-2',
      turn: undefined,
      tool: 'editGuard_writeFile',
      uri: B,
      before: 'created',
      after: { hash: sha256('b\n'), text: 'b\n' },
      saved: true,
    });
    await loading;
    assert.deepEqual(
      again.all().map((r) => r.uri),
      [A, B],
    );
    assert.ok(again.all()[1].seq > again.all()[0].seq);
  });

  test('an index that is not ours, or broken, loads as an empty record and is reported', async () => {
    for (const index of ['{', 'null', '{"version":2}', JSON.stringify({ version: 1, records: [{ id: 3 }], sizes: {} })]) {
      const storage = new MemoryStorage();
      storage.index = index;
      const log = new MemoryLog();
      const record = new EditRecord({ storage, budget: () => 1 << 20, gate: coreFixture().gate, labels: LABELS, log });
      await record.load();
      assert.deepEqual(record.all(), [], index);
    }
  });
});

suite('edit record: taking edits back', () => {
  test('revert one edit: the file gets its text back and is saved', async () => {
    const t = setup();
    t.docs.file(A, NUMBERS);
    await t.read(A);
    await t.replace(A, 'two', 'TWO');
    const [result] = await t.record.revert(t.editsOf(A));
    assert.equal(result.kind, 'reverted');
    assert.equal(t.docs.get(A).disk, NUMBERS);
    assert.equal(t.docs.get(A).dirty, false);
    assert.ok(t.record.all()[0].revertedAt !== undefined);
  });

  test('revert a turn over three files, newest edit of each first', async () => {
    const t = setup();
    for (const uri of [A, B, C]) t.docs.file(uri, NUMBERS);
    for (const uri of [A, B, C]) await t.read(uri);
    await t.replace(A, 'one', 'ONE');
    await t.replace(A, 'ONE', 'ONE ONE');
    await t.replace(B, 'two', 'TWO');
    await t.replace(C, 'three', 'THREE');
    await t.read(C, 'turn-2');
    await t.replace(C, 'six', 'SIX', 'turn-2'); // another turn, not next to the first: stays
    const results = await t.record.revert({ kind: 'turn', session: 'chat-1', turn: 'turn-1' });
    assert.deepEqual(
      results.map((r) => r.kind),
      ['reverted', 'reverted', 'reverted'],
    );
    assert.equal(t.docs.text(A), NUMBERS);
    assert.equal(t.docs.text(B), NUMBERS);
    assert.equal(t.docs.text(C), NUMBERS.replace('six', 'SIX'));
  });

  test('each scope a command names — a chat, a turn, a file in a turn, one edit — selects exactly its edits', async () => {
    const t = setup();
    for (const uri of [A, B]) t.docs.file(uri, NUMBERS);
    await t.read(A);
    await t.read(B);
    await t.replace(A, 'one', 'ONE');
    await t.replace(B, 'two', 'TWO');
    await t.read(A, 'turn-2');
    await t.replace(A, 'six', 'SIX', 'turn-2');
    await t.read(B, 'turn-1', 'chat-2');
    await t.replace(B, 'eight', 'EIGHT', 'turn-1', 'chat-2');
    const [a1, b1, a2, other] = t.record.all();
    const ids = (scope: EditScope) => t.record.select(scope).map((r) => r.id);
    assert.deepEqual(ids({ kind: 'chat', session: 'chat-1' }), [a1.id, b1.id, a2.id]);
    assert.deepEqual(ids({ kind: 'turn', session: 'chat-1', turn: 'turn-1' }), [a1.id, b1.id]);
    assert.deepEqual(ids({ kind: 'file', session: 'chat-1', turn: 'turn-2', uri: A }), [a2.id]);
    assert.deepEqual(ids({ kind: 'edit', id: other.id }), [other.id]);
    assert.deepEqual(ids({ kind: 'edit', id: 'gone' }), []);
  });

  test('a revert by scope tells its listeners, and the gate, the text it left; a file left unchanged tells no one', async () => {
    const t = setup();
    t.docs.file(A, NUMBERS);
    t.docs.file(B, NUMBERS);
    await t.read(A);
    await t.read(B);
    await t.replace(A, 'one', 'ONE');
    await t.replace(B, 'two', 'TWO');
    t.docs.file(B, NUMBERS); // the user took B's edit back by hand: nothing left to undo there
    const heard: Array<{ uri: string; hash: string }> = [];
    t.record.onDidRevert((done) => heard.push(done));
    const results = await t.record.revert({ kind: 'chat', session: 'chat-1' });
    assert.deepEqual(
      results.map((r) => [r.uri, r.kind]),
      [
        [A, 'reverted'],
        [B, 'unchanged'],
      ],
    );
    assert.deepEqual(heard, [{ uri: A, hash: sha256(NUMBERS) }]);
    assert.ok(
      t.record.all().every((r) => r.revertedAt !== undefined),
      'both are reverted: nothing is left to undo',
    );
    // the chat that saw the agent's version is told the user reverted it
    const again = await t.replace(A, 'ONE', 'ONE!');
    assert.equal(again.data.status, 'blocked');
    assert.match(again.text, /reverted/);
  });

  test('after the user typed elsewhere, the revert keeps their text byte for byte, and leaves it unsaved', async () => {
    const t = setup();
    t.docs.file(A, NUMBERS);
    await t.read(A);
    await t.replace(A, 'two', 'TWO');
    t.docs.userEdit(A, t.docs.text(A).replace('seven', 'seven, said the user'));
    const [result] = await t.record.revert(t.editsOf(A));
    assert.equal(result.kind, 'reverted');
    if (result.kind === 'reverted') {
      assert.equal(result.keptLaterChanges, true);
      assert.equal(result.keptUnsaved, true);
      assert.equal(result.saved, false);
    }
    assert.equal(t.docs.text(A), NUMBERS.replace('seven', 'seven, said the user'));
    assert.equal(t.docs.get(A).dirty, true, 'the buffer had unsaved changes: it stays unsaved');
    assert.equal(t.docs.get(A).disk, NUMBERS.replace('two', 'TWO'), 'nothing was saved');
  });

  test("the user's edits of the lines right above and below the agent's are kept, and the revert lands", async () => {
    const t = setup();
    t.docs.file(A, NUMBERS);
    await t.read(A);
    await t.replace(A, 'two\nthree', 'TWO\nTHREE');
    t.docs.diskChange(A, t.docs.text(A).replace('one', 'one (user)').replace('four', 'four (user)'));
    const [result] = await t.record.revert(t.editsOf(A));
    assert.equal(result.kind, 'reverted');
    assert.equal(t.docs.text(A), NUMBERS.replace('one', 'one (user)').replace('four', 'four (user)'));
  });

  test('an overlapping change: nothing is changed, the conflict says where', async () => {
    const t = setup();
    t.docs.file(A, NUMBERS);
    await t.read(A);
    await t.replace(A, 'two', 'TWO');
    const overlapped = t.docs.text(A).replace('TWO', 'TWO and the user');
    t.docs.diskChange(A, overlapped);
    const [result] = await t.record.revert(t.editsOf(A));
    assert.equal(result.kind, 'conflict');
    if (result.kind === 'conflict') assert.deepEqual(result.lines, [{ start: 2, end: 2 }]);
    assert.equal(t.docs.text(A), overlapped);
    assert.equal(t.record.all()[0].revertedAt, undefined, 'still to be reverted');
  });

  test('a file deleted since: a clear outcome, nothing created', async () => {
    const t = setup();
    t.docs.file(A, NUMBERS);
    await t.read(A);
    await t.replace(A, 'two', 'TWO');
    t.docs.memory.evict(A);
    t.docs.memory.deleteFile(A);
    const [result] = await t.record.revert(t.editsOf(A));
    assert.equal(result.kind, 'missing');
    assert.equal(t.docs.memory.disk(A), undefined);
  });

  test('a file the agent created and nobody changed is deleted; with its line changed since, it is a conflict and stays', async () => {
    const t = setup();
    await t.write(A, 'made by the agent\n');
    await t.write(B, 'also made by the agent\n');
    t.docs.userEdit(B, 'made by the agent, kept by the user\n');
    const results = await t.record.revert(t.record.all());
    assert.deepEqual(
      results.map((r) => r.kind),
      ['reverted', 'conflict'],
    );
    assert.equal(t.docs.memory.disk(A), undefined);
    assert.equal(t.docs.text(B), 'made by the agent, kept by the user\n');
  });

  test("a file the agent created, which the user added lines to: the agent's lines come out, the user's stay", async () => {
    const t = setup();
    await t.write(A, 'agent 1\nagent 2\n');
    t.docs.userEdit(A, 'written by the user\nagent 1\nagent 2\nalso by the user\n');
    const [result] = await t.record.revert(t.editsOf(A));
    assert.deepEqual(result, {
      uri: A,
      ids: [t.editsOf(A)[0].id],
      kind: 'reverted',
      keptLaterChanges: true,
      saved: false,
      keptUnsaved: true,
      deleted: false,
      restored: false,
    });
    assert.equal(t.docs.text(A), 'written by the user\nalso by the user\n');
    assert.equal(t.docs.get(A).dirty, true, 'the buffer had unsaved changes: it stays unsaved');
  });

  test('a file the agent created, from which the user only deleted lines: nothing anyone else wrote is left, so it is deleted', async () => {
    const t = setup();
    await t.write(A, 'agent 1\nagent 2\nagent 3\n');
    t.docs.diskChange(A, 'agent 1\nagent 3\n');
    const [result] = await t.record.revert(t.editsOf(A));
    assert.equal(result.kind === 'reverted' && result.deleted, true, JSON.stringify(result));
    assert.equal(t.docs.memory.disk(A), undefined);
  });

  test('a file the agent created, emptied of its text in an unsaved buffer: the buffer is emptied and left unsaved, not deleted', async () => {
    const t = setup();
    await t.write(A, 'agent 1\nagent 2\n');
    t.docs.userEdit(A, 'agent 2\n');
    const [result] = await t.record.revert(t.editsOf(A));
    assert.equal(result.kind === 'reverted' && !result.deleted && result.keptUnsaved, true, JSON.stringify(result));
    assert.equal(t.docs.text(A), '');
    assert.equal(t.docs.memory.disk(A), 'agent 1\nagent 2\n', 'the user saves or closes it');
  });

  test("a file the agent created, with a line the user changed: a conflict over the agent's lines, and nothing changes", async () => {
    const t = setup();
    await t.write(A, 'agent 1\nagent 2\nagent 3\n');
    t.docs.diskChange(A, 'agent 1\nagent 2, changed by the user\nagent 3\n');
    const [result] = await t.record.revert(t.editsOf(A));
    assert.equal(result.kind, 'conflict');
    if (result.kind === 'conflict') {
      assert.deepEqual(result.lines, [{ start: 1, end: 3 }]);
      assert.match(result.marked, /^<<<<<<< current\nagent 1\nagent 2, changed by the user\nagent 3\n=======\n>>>>>>> reverted\n$/);
    }
    assert.equal(t.docs.text(A), 'agent 1\nagent 2, changed by the user\nagent 3\n');
    assert.equal(t.record.all()[0].revertedAt, undefined, 'still to be reverted');
  });

  test("after a revert the agent's next write is refused `changed`, saying the user reverted it, and other results name it", async () => {
    const t = setup();
    t.docs.file(A, NUMBERS);
    t.docs.file(B, 'b\n');
    await t.read(A);
    await t.read(B);
    await t.replace(A, 'two', 'TWO');
    const [result] = await t.record.revert(t.editsOf(A));
    assert.equal(result.kind, 'reverted');
    const again = await t.replace(A, 'three', 'THREE');
    assert.equal(again.data.status, 'blocked');
    assert.equal(again.data.reason, 'changed');
    assert.match(again.text, /The user reverted your earlier edit of a\.txt/);
    assert.match(again.text, /-TWO\n\+two/);
    assert.equal(t.docs.text(A), NUMBERS);
    const other = await t.read(B);
    assert.doesNotMatch(other.text, /a\.txt/, 'the refusal showed a.txt: it is no longer stale');
    await t.read(A);
    await t.replace(A, 'three', 'THREE');
    await t.record.revert(t.record.all().filter((r) => r.uri === A && r.revertedAt === undefined));
    const notice = await t.read(B);
    assert.match(notice.text, /changed since you read them: a\.txt \(reverted by the user\)/);
    assert.equal(sha256(t.docs.text(A)), sha256(NUMBERS));
  });

  test('an edit already reverted is not reverted twice', async () => {
    const t = setup();
    t.docs.file(A, NUMBERS);
    await t.read(A);
    await t.replace(A, 'two', 'TWO');
    await t.record.revert(t.editsOf(A));
    t.docs.userEdit(A, 'the user rewrote it\n');
    assert.deepEqual(await t.record.revert(t.editsOf(A)), []);
    assert.equal(t.docs.text(A), 'the user rewrote it\n');
  });
});

suite("revert: an agent's deletes and moves, and files renamed since", () => {
  /** An agent's own tool (through its hooks) that deleted `uri`: checked, then the file goes, then recorded. */
  async function agentDeletes(t: ReturnType<typeof setup> & { edits: ExternalEdits }, uri: string, turn = 'turn-9') {
    const ctx = { ...t.call('apply_patch', uri, turn), agent: 'copilot' };
    assert.deepEqual(await t.edits.check([ctx]), { allow: true });
    t.docs.memory.deleteFile(uri);
    await t.edits.recordWrite(ctx);
  }
  function withEdits() {
    const t = setup();
    return { ...t, edits: new ExternalEdits(t.gate) };
  }

  test('a delete that landed is recorded with the text it removed; reverting it makes the file again, byte for byte', async () => {
    const t = withEdits();
    const text = 'line one\r\nline two, with é and 😀\r\nno break at the end';
    t.docs.file(A, text);
    await t.read(A, 'turn-9');
    await agentDeletes(t, A);
    const [record] = t.editsOf(A);
    assert.equal(record.deleted, true);
    assert.equal(await t.record.text(record.beforeHash!), text);
    const [result] = await t.record.revert([record]);
    assert.equal(result.kind, 'reverted', JSON.stringify(result));
    assert.ok(result.kind === 'reverted' && result.restored);
    assert.equal(t.docs.memory.disk(A), text);
  });

  test('a file that stands where the agent deleted one is never overwritten by the revert', async () => {
    const t = withEdits();
    t.docs.file(A, 'the old text\n');
    await t.read(A, 'turn-9');
    await agentDeletes(t, A);
    t.docs.file(A, 'a new file the user made there\n');
    const [result] = await t.record.revert(t.editsOf(A));
    assert.equal(result.kind, 'occupied');
    assert.equal(t.docs.memory.disk(A), 'a new file the user made there\n');
  });

  test("a move (a patch's Update with Move to: the source deleted, the target created) reverted as a turn: the source is back, the target gone", async () => {
    const t = withEdits();
    t.docs.file(A, 'moving text\n');
    await t.read(A, 'turn-9');
    const target = { ...t.call('apply_patch', B, 'turn-9'), agent: 'copilot' };
    const source = { ...t.call('apply_patch', A, 'turn-9'), agent: 'copilot' };
    assert.deepEqual(await t.edits.check([source, target]), { allow: true });
    t.docs.memory.deleteFile(A);
    t.docs.memory.writeDisk(B, 'moving text\n');
    await t.edits.recordWrite(source);
    await t.edits.recordWrite(target);
    const results = await t.record.revert(t.record.all());
    assert.deepEqual(results.map((r) => r.kind).sort(), ['reverted', 'reverted']);
    assert.equal(t.docs.memory.disk(A), 'moving text\n');
    assert.equal(t.docs.memory.disk(B), undefined, 'the moved-to file, unchanged since, is deleted');
  });

  test('a file renamed in the editor keeps its records under the new name, and a revert works there', async () => {
    const t = setup();
    t.docs.file(A, NUMBERS);
    await t.read(A);
    await t.replace(A, 'two', 'TWO');
    t.docs.memory.deleteFile(A);
    t.docs.memory.writeDisk(C, NUMBERS.replace('two', 'TWO'));
    t.record.rename([{ from: A, to: C }]);
    assert.equal(t.editsOf(A).length, 0);
    const [result] = await t.record.revert(t.editsOf(C));
    assert.equal(result.kind, 'reverted', JSON.stringify(result));
    assert.equal(t.docs.memory.disk(C), NUMBERS);
    // a folder's rename moves the records of the files in it
    t.record.rename([{ from: 'file:///ws', to: 'file:///moved' }]);
    assert.deepEqual(
      t.record.all().map((r) => r.uri),
      ['file:///moved/c.txt'],
    );
  });
});
