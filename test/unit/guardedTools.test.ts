// The whole call flow of the core (check, write, marks, results) over an in-memory document port.
import * as assert from 'node:assert/strict';
import type { CallContext, GateSettings } from '../../src/core/ports';
import { sha256 } from '../../src/core/hash';
import type { ToolName } from '../../src/core/types';
import { callOn, coreFixture } from './memoryDocuments';

const A = 'file:///ws/a.txt';
const B = 'file:///ws/b.txt';

function setup(settings: Partial<GateSettings> = {}) {
  const { docs, store, log, current, gate, tools } = coreFixture(settings);
  const call = (tool: ToolName, uri: string, session = 'chat-1', turn: string | undefined = 'turn-1'): CallContext =>
    callOn(store, tool, uri, session, turn);
  const read = (uri: string, session?: string, turn?: string, range: { offset?: number; limit?: number } = {}) =>
    tools.read(call('editGuard_readFile', uri, session, turn), range);
  const write = (uri: string, content: string, session?: string, turn?: string, append = false) =>
    tools.write(call('editGuard_writeFile', uri, session, turn), { content, append });
  const replace = (uri: string, oldString: string, newString: string, session?: string, turn?: string) =>
    tools.replace(call('editGuard_replaceString', uri, session, turn), { oldString, newString, replaceAll: false });
  return { docs, store, log, gate, tools, current, call, read, write, replace };
}

suite('guard flow: rules 1–10 of docs/design.md', () => {
  test('rule 1: a read stamps a mark of the whole text, a ranged read too', async () => {
    const t = setup();
    const text = Array.from({ length: 30 }, (_, i) => `l${i}`).join('\n');
    t.docs.file(A, text);
    const r = await t.read(A, undefined, undefined, { offset: 10, limit: 2 });
    assert.equal(r.data.status, 'ok');
    assert.equal(r.data.startLine, 10);
    assert.equal(t.store.newest('chat-1', A)?.hash, sha256(text));
    assert.equal(t.store.newest('chat-1', A)?.origin, 'read');
  });

  test('rule 1: the mark is of the editor text, unsaved changes included', async () => {
    const t = setup();
    t.docs.file(A, 'disk\n');
    t.docs.userEdit(A, 'buffer\n');
    const r = await t.read(A);
    assert.match(r.text, /buffer/);
    assert.equal(t.store.newest('chat-1', A)?.hash, sha256('buffer\n'));
  });

  test('rule 2: overwrite, append and replace of an unread file are blocked and write nothing', async () => {
    const t = setup();
    t.docs.file(A, 'original\n');
    for (const result of [
      await t.write(A, 'x'),
      await t.write(A, 'x', 'chat-2', undefined, true),
      await t.replace(A, 'original', 'y', 'chat-3'),
    ]) {
      assert.equal(result.data.status, 'blocked');
      assert.equal(result.data.reason, 'not-read');
      assert.equal(t.docs.text(A), 'original\n');
    }
    assert.equal(t.docs.saves, 0);
  });

  test('rule 2: after a read the write passes and lands', async () => {
    const t = setup();
    t.docs.file(A, 'a\nb\n');
    await t.read(A);
    const r = await t.replace(A, 'b', 'B');
    assert.equal(r.data.status, 'ok');
    assert.equal(t.docs.text(A), 'a\nB\n');
    assert.equal(r.data.saved, true);
  });

  test('rule 2: a change after the read (unsaved user edit) blocks with reason changed', async () => {
    const t = setup();
    t.docs.file(A, 'a\nb\n');
    await t.read(A);
    t.docs.userEdit(A, 'a\nb\nuser line\n');
    const r = await t.replace(A, 'b', 'B');
    assert.equal(r.data.reason, 'changed');
    assert.equal(t.docs.text(A), 'a\nb\nuser line\n');
    assert.equal(t.docs.get(A).dirty, true, "the user's edit stays unsaved");
  });

  test('rule 3 (sameTurn): own write keeps the mark in its turn, not in the next', async () => {
    const t = setup();
    t.docs.file(A, 'one\n');
    await t.read(A, 'chat-1', 'T1');
    assert.equal((await t.write(A, 'two\n', 'chat-1', 'T1')).data.status, 'ok');
    assert.equal((await t.replace(A, 'two', 'three', 'chat-1', 'T1')).data.status, 'ok');
    const later = await t.replace(A, 'three', 'four', 'chat-1', 'T2');
    assert.equal(later.data.reason, 'own-write-expired');
    assert.equal(t.docs.text(A), 'three\n');
  });

  test('rule 3 (never): any own write needs a fresh read, even in the same turn', async () => {
    const t = setup({ ownWriteKeepsMark: 'never' });
    t.docs.file(A, 'one\n');
    await t.read(A, 'chat-1', 'T1');
    await t.write(A, 'two\n', 'chat-1', 'T1');
    assert.equal((await t.replace(A, 'two', 'x', 'chat-1', 'T1')).data.reason, 'own-write-expired');
  });

  test('rule 3 (always): own write keeps the mark into later turns', async () => {
    const t = setup({ ownWriteKeepsMark: 'always' });
    t.docs.file(A, 'one\n');
    await t.read(A, 'chat-1', 'T1');
    await t.write(A, 'two\n', 'chat-1', 'T1');
    assert.equal((await t.replace(A, 'two', 'x', 'chat-1', 'T2')).data.status, 'ok');
  });

  test('rule 3: when saving reformats the file, the result shows it and the mark is of the saved text', async () => {
    const t = setup();
    t.docs.file(A, 'a\n');
    t.docs.formatter = (s) => s.replace(/ +$/gm, '');
    await t.read(A, 'chat-1', 'T1');
    const r = await t.write(A, 'b   \n', 'chat-1', 'T1');
    assert.equal(r.data.formatterChanged, true);
    assert.match(r.text, /Saving changed the file \(format on save/);
    assert.match(r.text, /^\+b$/m);
    assert.equal(t.store.newest('chat-1', A)?.hash, sha256('b\n'));
    assert.equal((await t.replace(A, 'b\n', 'c\n', 'chat-1', 'T1')).data.status, 'ok', 'the same turn continues from the saved text');
  });

  test('rule 4: creating a file that does not exist needs no read', async () => {
    const t = setup();
    const r = await t.write(B, 'new\n');
    assert.equal(r.data.status, 'ok');
    assert.equal(r.data.created, true);
    assert.equal(t.docs.text(B), 'new\n');
  });

  test('rule 5: replace on a missing file is a not-found error', async () => {
    const t = setup();
    const r = await t.replace(B, 'a', 'b');
    assert.equal(r.data.status, 'error');
    assert.equal(r.data.code, 'not-found');
    assert.equal(t.docs.memory.disk(B), undefined);
  });

  test('rule 6: a never-read refusal shows the numbered content and stamps a mark; the retry passes', async () => {
    const t = setup();
    t.docs.file(A, 'alpha\nbeta\n');
    const r = await t.write(A, 'x\n');
    assert.match(r.text, /1\talpha\n2\tbeta/);
    assert.ok(r.lead && r.lead.startsWith('BLOCKED: nothing was written.') && r.text.startsWith(r.lead), 'the headline is the lead part');
    assert.equal(t.store.newest('chat-1', A)?.origin, 'refusal');
    assert.equal((await t.write(A, 'x\n')).data.status, 'ok');
    assert.equal(t.docs.text(A), 'x\n');
  });

  test('rule 6: a changed refusal shows a diff from the version the agent saw', async () => {
    const t = setup();
    t.docs.file(A, 'a\nb\nc\n');
    await t.read(A);
    t.docs.userEdit(A, 'a\nUSER\nc\n');
    const r = await t.replace(A, 'b', 'B');
    assert.match(r.text, /changed since you last read it \(edited in the editor, not yet saved\)/);
    assert.match(r.text, /^-b$/m);
    assert.match(r.text, /^\+USER$/m);
    assert.equal((await t.replace(A, 'USER', 'AGENT')).data.status, 'ok', 'the retry can follow at once');
    assert.equal(t.docs.text(A), 'a\nAGENT\nc\n');
  });

  test('rule 6: a changed refusal without a kept snapshot shows the content and says so (no diff promised)', async () => {
    const t = setup();
    t.docs.file(A, 'a\nb\n');
    await t.read(A);
    t.store.clear(); // the version the chat saw is gone (budget, history)
    t.store.stamp({ session: 'chat-1', uri: A, hash: sha256('a\nb\n'), origin: 'read' }); // a mark without its text
    t.docs.userEdit(A, 'a\nB\n');
    const r = await t.replace(A, 'b', 'c');
    assert.equal(r.data.reason, 'changed');
    assert.match(r.text, /Its current content is below/);
    assert.doesNotMatch(r.text, /diff below/);
    assert.match(r.text, /1\ta\n2\tB/);
  });

  test('rule 6: a changed refusal names a disk change and another chat as causes', async () => {
    const t = setup();
    t.docs.file(A, 'x\n');
    await t.read(A, 'chat-1');
    t.docs.diskChange(A, 'y\n');
    assert.match((await t.write(A, 'z\n', 'chat-1')).text, /changed on disk/);
    await t.read(A, 'chat-2');
    await t.write(A, 'w\n', 'chat-2');
    assert.match((await t.write(A, 'v\n', 'chat-1')).text, /written by another chat/);
  });

  test('rule 6: a refusal stays within the character budget (Copilot spills results over 8 KB to a file)', async () => {
    const t = setup({ maxResultChars: 2000 });
    const big = Array.from({ length: 400 }, (_, i) => `const value${i} = ${i}; // a line of a file the model never read`).join('\n');
    t.docs.file(A, big);
    const blind = await t.write(A, 'x');
    assert.ok(blind.text.length - (blind.lead ?? '').length < 2300, `body of ${blind.text.length} characters`);
    assert.match(blind.text, /Next: editGuard_readFile with offset: \d+/);
    await t.read(A);
    t.docs.userEdit(A, big.replace(/value/g, 'VALUE'));
    const changed = await t.write(A, 'y');
    assert.equal(changed.data.reason, 'changed');
    assert.ok(changed.text.length - (changed.lead ?? '').length < 2300, `body of ${changed.text.length} characters`);
    assert.match(changed.text, /more diff lines are not shown/);
  });

  test('rule 6: a blocked write announces the changed lines (for diagnostics)', async () => {
    const t = setup();
    const blocks: unknown[] = [];
    t.gate.onDidBlock((b) => blocks.push({ reason: b.reason, lines: b.changedLines }));
    t.docs.file(A, 'a\nb\nc\n');
    await t.read(A);
    t.docs.userEdit(A, 'a\nb\nC\n');
    await t.write(A, 'z');
    assert.deepEqual(blocks, [{ reason: 'changed', lines: [{ start: 2, end: 2 }] }]);
  });

  test('changedLines: a replace or an append names the lines it covers, a refusal the lines that changed since the read; an overwrite, a create and an unread refusal name none', async () => {
    const t = setup();
    t.docs.file(A, 'a\nb\nc\nd\n');
    await t.read(A);
    assert.deepEqual((await t.replace(A, 'b', 'B1\nB2')).data.changedLines, { start: 2, end: 3 });
    assert.deepEqual((await t.write(A, 'e\n', undefined, undefined, true)).data.changedLines, { start: 6, end: 6 });
    t.docs.userEdit(A, 'a\nB1\nB2\nC\nd\ne\n');
    const refused = await t.replace(A, 'd', 'D');
    assert.equal(refused.data.reason, 'changed');
    assert.deepEqual(refused.data.changedLines, { start: 4, end: 4 }, 'the line the user changed');
    const overwrite = await t.write(A, 'new\ntext\n');
    assert.equal(overwrite.data.status, 'ok');
    assert.equal(overwrite.data.changedLines, undefined, 'the whole file');
    assert.equal((await t.write(B, 'created\n')).data.changedLines, undefined, 'a new file');
    t.docs.file('file:///ws/c.txt', 'x\ny\n');
    const unread = await t.write('file:///ws/c.txt', 'z');
    assert.equal(unread.data.reason, 'not-read');
    assert.equal(unread.data.changedLines, undefined, 'never read: no diff, no lines');
  });

  test('rule 7: an internal gate error lets the write through and is logged', async () => {
    const t = setup();
    t.docs.file(A, 'a\n');
    t.gate.faultInjector = () => {
      throw new Error('boom');
    };
    const r = await t.write(A, 'b\n');
    assert.equal(r.data.status, 'ok');
    assert.equal(r.data.failOpen, true);
    assert.equal(t.docs.text(A), 'b\n');
    assert.ok(t.log.lines.some((l) => l.startsWith('error') && l.includes('boom')));
  });

  test('rule 7: a real staleness still blocks when the gate works', async () => {
    const t = setup();
    t.docs.file(A, 'a\n');
    assert.equal((await t.write(A, 'b\n')).data.status, 'blocked');
  });

  test('rule 8: with the gate off a write without a read passes', async () => {
    const t = setup({ enabled: false });
    t.docs.file(A, 'a\n');
    const r = await t.write(A, 'b\n');
    assert.equal(r.data.status, 'ok');
    assert.match(r.text, /turned off/);
  });

  test('rule 9: of N parallel writes carrying the same fresh mark, exactly one lands', async () => {
    const t = setup();
    t.docs.file(A, 'base\n');
    await t.read(A);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => t.write(A, `writer ${i}\n`, 'chat-1', undefined)));
    const landed = results.filter((r) => r.data.status === 'ok');
    assert.equal(landed.length, 1);
    for (const r of results.filter((x) => x.data.status === 'blocked')) {
      assert.match(r.text, /written by another of your calls that ran first/);
      assert.match(r.text, /^-base$/m, 'the diff is from the version the call was based on');
      assert.match(r.text, /^\+writer \d$/m);
    }
    assert.ok(
      results.filter((r) => r.data.status === 'blocked').every((r) => r.data.reason === 'changed' || r.data.reason === 'own-write-expired'),
    );
  });

  test('rule 9: a refusal stamped by a parallel call does not let an earlier-arrived call through', async () => {
    const t = setup();
    t.docs.file(A, 'base\n');
    const both = await Promise.all([t.write(A, 'one\n'), t.write(A, 'two\n')]);
    assert.deepEqual(
      both.map((r) => r.data.status),
      ['blocked', 'blocked'],
    );
    assert.equal(t.docs.text(A), 'base\n');
  });

  test('rule 9: an edit racing between check and apply (applyEdit false) is blocked as changed', async () => {
    const t = setup();
    t.docs.file(A, 'a\n');
    await t.read(A);
    t.docs.beforeApply = (uri) => {
      t.docs.beforeApply = undefined;
      t.docs.userEdit(uri, 'racing user edit\n');
    };
    const r = await t.write(A, 'agent\n');
    assert.equal(r.data.reason, 'changed');
    assert.equal(t.docs.text(A), 'racing user edit\n');
  });

  test('rule 10: a result lists files this chat read that changed since', async () => {
    const t = setup();
    t.docs.file(A, 'a\n').file(B, 'b\n');
    await t.read(A);
    await t.read(B);
    t.docs.userEdit(B, 'changed\n');
    const r = await t.replace(A, 'a', 'A');
    assert.deepEqual(r.data.staleFiles, ['b.txt']);
    assert.match(r.text, /changed since you read them: b\.txt/);
  });

  test('an agent write into a buffer with unsaved user changes is not saved', async () => {
    const t = setup();
    t.docs.file(A, 'a\n');
    t.docs.userEdit(A, 'a\nuser\n');
    await t.read(A);
    const r = await t.write(A, 'agent\n', 'chat-1', undefined, true);
    assert.equal(r.data.status, 'ok');
    assert.equal(r.data.keptUnsaved, true);
    assert.equal(r.data.saved, false);
    assert.equal(t.docs.get(A).disk, 'a\n');
    assert.equal(t.docs.text(A), 'a\nuser\nagent\n');
    assert.match(r.text, /left unsaved/);
    assert.match(r.text, /On disk .* still the old version/);
  });

  test('no-match and ambiguous replaces are clear errors that change nothing', async () => {
    const t = setup();
    t.docs.file(A, 'x\nx\n');
    await t.read(A);
    const none = await t.replace(A, 'nope', 'y');
    assert.equal(none.data.code, 'no-match');
    const many = await t.replace(A, 'x', 'y');
    assert.equal(many.data.code, 'ambiguous');
    assert.equal(many.data.matches, 2);
    assert.equal(t.docs.text(A), 'x\nx\n');
  });

  test('reading past the end is a clear error', async () => {
    const t = setup();
    t.docs.file(A, 'a\n');
    const r = await t.read(A, undefined, undefined, { offset: 5 });
    assert.equal(r.data.code, 'invalid-input');
    assert.match(r.data.message, /past the end/);
  });
});
