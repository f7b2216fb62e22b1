// The gate over the editor's document lifecycle (src/core/documents.ts through GuardedTools), on the model
// of VS Code's editor: one behaviour per test, each the unit-level twin of a real-host test in
// test/integration/lifecycle.test.ts.
import * as assert from 'node:assert/strict';
import type { CallContext, GateSettings } from '../../src/core/ports';
import { sha256 } from '../../src/core/hash';
import { MarkStore } from '../../src/core/marks';
import type { ToolName } from '../../src/core/types';
import { callOn, coreOver, MemoryDocuments } from './memoryDocuments';

const A = 'file:///ws/a.txt';

function setup() {
  const docs = new MemoryDocuments();
  const editor = docs.memory;
  const store = new MarkStore();
  const settings: GateSettings = { enabled: true, ownWriteKeepsMark: 'sameTurn', maxReadLines: 2000 };
  const { tools } = coreOver(store, docs, () => settings);
  const ctx = (tool: ToolName): CallContext => callOn(store, tool, A, 'chat', 'turn');
  return {
    docs,
    editor,
    store,
    read: () => tools.read(ctx('editGuard_readFile'), {}),
    write: (content: string, append = false) => tools.write(ctx('editGuard_writeFile'), { content, append }),
    replace: (oldString: string, newString: string) =>
      tools.replace(ctx('editGuard_replaceString'), { oldString, newString, replaceAll: false }),
  };
}

/**
 * The agent read a CRLF file, then another program rewrote it with a text VS Code holds the same (the
 * last line break a lone CR), and the editor, which loads disk changes late, has not taken in the new stat.
 */
async function afterSameTextChange() {
  const t = setup();
  t.editor.diskLoads = 'late';
  t.editor.writeDisk(A, 'a\r\nb\r\n');
  await t.read();
  t.editor.writeDisk(A, 'a\r\nb\r');
  return t;
}

suite('documents: the gate over the editor lifecycle', () => {
  test('a document dropped and opened again starts at version 1: its hash is not the old version 1 one, so a stale write is blocked', async () => {
    const t = setup();
    t.editor.writeDisk(A, 'one\n');
    await t.read();
    assert.equal(t.editor.document(A)?.version, 1);
    t.editor.evict(A);
    t.editor.writeDisk(A, 'other program\n');
    const out = await t.replace('one', 'ONE');
    assert.equal(out.data.reason, 'changed');
    assert.equal(t.editor.document(A)?.version, 1, 'the call met a new document at version 1');
    assert.equal(t.editor.disk(A), 'other program\n');
  });

  test("a deleted file's unsaved buffer is the file: a write goes into it, unsaved, and the file is not created", async () => {
    const t = setup();
    t.editor.writeDisk(A, 'keep\n');
    t.editor.userEdit(A, 'keep\ntyped\n');
    t.editor.deleteFile(A);
    assert.equal((await t.write('agent\n')).data.reason, 'not-read', 'unread: refused, with the buffer shown');
    const out = await t.replace('typed', 'typed, agent');
    assert.equal(out.data.status, 'ok');
    assert.equal(out.data.keptUnsaved, true);
    assert.match(out.text, /deleted on disk/);
    assert.equal(t.editor.document(A)?.text, 'keep\ntyped, agent\n');
    assert.equal(t.editor.document(A)?.isDirty, true);
    assert.equal(t.editor.disk(A), undefined, 'no file was created');
  });

  test('a create never goes over a buffer with unsaved changes (the editor would revert it)', async () => {
    const t = setup();
    t.editor.writeDisk(A, 'x\n');
    t.editor.userEdit(A, 'x\ny\n');
    t.editor.deleteFile(A);
    assert.deepEqual(await t.docs.create(A, 'new\n'), { created: false });
    assert.equal(t.editor.document(A)?.text, 'x\ny\n');
  });

  test("a keystroke on its way when a guarded tool's call arrives: the tool decides on the text with it (one round trip, Editor.sync)", async () => {
    const t = setup();
    t.editor.writeDisk(A, 'a\n');
    await t.read();
    t.editor.atSync = () => t.editor.userEdit(A, 'a\nkeystroke\n');
    const before = t.editor.syncs;
    const out = await t.replace('a', 'A');
    assert.equal(out.data.reason, 'changed', 'the read was of the text before the keystroke');
    assert.ok(t.editor.syncs > before);
  });

  test('a keystroke that reaches the document after the edit and before the save: not saved, the mark is of the edit', async () => {
    const t = setup();
    t.editor.writeDisk(A, 'a\n');
    await t.read();
    t.editor.inFlight = () => t.editor.userEdit(A, 'A\nkeystroke\n');
    const out = await t.replace('a', 'A');
    assert.equal(out.data.saved, false);
    assert.equal(out.data.keptUnsaved, true);
    assert.equal(t.editor.disk(A), 'a\n');
    assert.equal(t.editor.document(A)?.isDirty, true);
    assert.equal(t.store.newest('chat', A)?.hash, sha256('A\n'));
    assert.equal((await t.replace('A', 'B')).data.reason, 'changed');
  });

  test('a change during the save (format on save) is shown and marked; one after the save stays unsaved and is shown too', async () => {
    const t = setup();
    t.editor.writeDisk(A, 'a\n');
    await t.read();
    t.editor.formatter = (s) => s.toUpperCase();
    const out = await t.replace('a', 'b');
    assert.equal(out.data.formatterChanged, true);
    assert.equal(t.editor.disk(A), 'B\n');
    assert.equal(t.store.newest('chat', A)?.hash, sha256('B\n'));
    t.editor.formatter = undefined;
    t.editor.afterSave = (doc) => t.editor.userEdit(doc.uri, `${doc.text}late\n`);
    const next = await t.replace('B', 'C');
    assert.equal(t.editor.disk(A), 'C\n');
    assert.equal(t.editor.document(A)?.isDirty, true);
    assert.match(next.text, /also holds changes made while the file was being saved/);
  });

  test('a lone CR is a line break, as VS Code holds it: read, replace and save, no refusal loop', async () => {
    const t = setup();
    t.editor.writeDisk(A, 'first\rsecond\n');
    const read = await t.read();
    assert.match(read.text, /1\tfirst\n2\tsecond/);
    assert.match(read.text, /mixed line endings \(or lone carriage returns\)/);
    assert.equal((await t.replace('second', 'SECOND')).data.status, 'ok');
    assert.equal(t.editor.disk(A), 'first\nSECOND\n');
  });

  test("text written into a CRLF document gets CRLF, and the own-write mark is of the document's text", async () => {
    const t = setup();
    t.editor.writeDisk(A, 'one\r\ntwo\r\n');
    await t.read();
    const out = await t.write('uno\ndos\n');
    assert.match(out.text, /line endings are CRLF/);
    assert.equal(t.editor.disk(A), 'uno\r\ndos\r\n');
    assert.equal(t.store.newest('chat', A)?.hash, sha256('uno\r\ndos\r\n'));
  });

  test('a disk change the editor loads late: the read shows the disk as the editor will hold it, and the write waits for the load', async () => {
    const t = setup();
    t.editor.diskLoads = 'late';
    t.editor.writeDisk(A, 'old\n');
    await t.read();
    t.editor.writeDisk(A, 'new\r\nmixed\nends\n');
    assert.equal(t.editor.document(A)?.text, 'old\n', 'the document lags');
    const read = await t.read();
    assert.match(read.text, /1\tnew\n2\tmixed\n3\tends/);
    assert.equal(t.store.newest('chat', A)?.hash, sha256('new\nmixed\nends\n'));
    const out = await t.replace('ends', 'ENDS');
    assert.equal(out.data.saved, true);
    assert.equal(t.editor.document(A)?.text, 'new\nmixed\nENDS\n');
    assert.equal(t.editor.directWrites, 0, 'through the editor, once it had loaded');
  });

  test('a disk change the editor never loads: the write goes to the disk, onto the text that was checked', async () => {
    const t = setup();
    t.editor.diskLoads = 'never';
    t.editor.writeDisk(A, 'old\n');
    await t.read();
    t.editor.writeDisk(A, 'built\n');
    await t.read();
    const out = await t.replace('built', 'BUILT');
    assert.equal(out.data.status, 'ok');
    assert.match(out.text, /on disk/);
    assert.equal(t.editor.disk(A), 'BUILT\n');
    assert.equal(t.editor.document(A)?.text, 'old\n', 'the document the editor never reloaded is left alone');
    assert.equal(t.store.newest('chat', A)?.hash, sha256('BUILT\n'));
    assert.equal((await t.replace('BUILT', 'again')).data.status, 'ok', 'the own write counts in the same turn');
  });

  test('the same in a file an editor shows: nothing goes to the disk behind it (the user may type into it before it loads); read again in a moment', async () => {
    const t = setup();
    t.editor.diskLoads = 'never';
    t.editor.shown.add(A);
    t.editor.writeDisk(A, 'old\n');
    await t.read();
    t.editor.writeDisk(A, 'built\n');
    await t.read();
    const out = await t.replace('built', 'BUILT');
    assert.equal(out.data.status, 'blocked');
    assert.equal(out.data.reason, 'write-in-flight');
    assert.match(out.text, /The editor that shows a\.txt has not loaded the file's newer version yet/);
    assert.equal(t.editor.disk(A), 'built\n', 'the disk is as the other program left it');
    assert.equal(t.editor.document(A)?.text, 'old\n');
  });

  test('a file no editor shows: the edit goes to the disk, compared with the checked text and written in one step, not through a save', async () => {
    const t = setup();
    t.editor.straightToDisk = true;
    t.editor.writeDisk(A, 'START\nEND\n');
    await t.read();
    const out = await t.replace('END', 'G-1\nEND');
    assert.equal(out.data.status, 'ok');
    assert.equal(out.data.saved, true);
    assert.equal(t.editor.disk(A), 'START\nG-1\nEND\n');
    assert.equal(t.editor.saves, 0, 'no save through the editor: its stat check and its write are a round trip apart');
    assert.equal(t.store.newest('chat', A)?.hash, sha256('START\nG-1\nEND\n'));
  });

  test('a shown file in a folder the editor does not watch (files.watcherExclude): the write goes to the disk, not refused for a load that never comes', async () => {
    const t = setup();
    t.editor.diskLoads = 'never';
    t.editor.shown.add(A);
    t.editor.unwatched.add(A);
    t.editor.writeDisk(A, 'old\n');
    await t.read();
    t.editor.writeDisk(A, 'built\n');
    await t.read();
    const out = await t.replace('built', 'BUILT');
    assert.equal(out.data.status, 'ok', out.text);
    assert.match(out.text, /written to the file itself/);
    assert.equal(t.editor.disk(A), 'BUILT\n');
    assert.equal(t.editor.document(A)?.text, 'old\n', 'the document the editor never reloads is left alone');
  });

  test('a file no editor shows whose newer version the editor loads during the write: the write lands (a load is no keystroke)', async () => {
    const t = setup();
    t.editor.straightToDisk = true;
    t.editor.diskLoads = 'late';
    t.editor.writeDisk(A, 'START\nEND\n');
    await t.read();
    t.editor.writeDisk(A, 'START\nMIDDLE\nEND\n');
    // the read shows the disk's text, which the editor has not loaded yet
    assert.match((await t.read()).text, /MIDDLE/);
    // it loads it while the write's round trip runs: the document's version moves, and it stays clean
    t.editor.inFlight = () => t.editor.loadPending();
    const out = await t.replace('END', 'G-1\nEND');
    assert.equal(out.data.status, 'ok', out.text);
    assert.equal(t.editor.disk(A), 'START\nMIDDLE\nG-1\nEND\n');
  });

  test('a file of another encoding than UTF-8 is never written straight to the disk: the editor writes its bytes', async () => {
    const t = setup();
    t.editor.straightToDisk = true;
    t.editor.writeDisk(A, 'START\nEND\n');
    await t.read();
    t.editor.document(A)!.encoding = 'utf16le';
    const out = await t.replace('END', 'G-1\nEND');
    assert.equal(out.data.status, 'ok', out.text);
    assert.equal(t.editor.saves, 1, 'saved through the editor, which encodes the text');
    assert.equal(t.editor.disk(A), 'START\nG-1\nEND\n');
  });

  test("another program's line that lands between the check and that write is never written over: the call is refused with it", async () => {
    const t = setup();
    t.editor.straightToDisk = true;
    t.editor.writeDisk(A, 'START\nEND\n');
    await t.read();
    // the other program appends after the gate checked the text, before the write compares the disk with it
    const writeFileIf = t.editor.writeFileIf.bind(t.editor);
    t.editor.writeFileIf = (uri, bytes, holds) => {
      t.editor.writeDisk(A, `${t.editor.disk(A)}P-1\n`);
      return writeFileIf(uri, bytes, holds);
    };
    const out = await t.replace('END', 'G-1\nEND');
    assert.equal(out.data.status, 'blocked');
    assert.equal(out.data.reason, 'changed');
    assert.equal(t.editor.disk(A), 'START\nEND\nP-1\n', "the other program's line stands; nothing of the stale edit");
  });

  test('the user saves the buffer while it holds the edit, before the edit is saved (this host hears of their save late): ok, saved once, never refused as changed', async () => {
    const t = setup();
    t.editor.writeDisk(A, 'START\nEND\n');
    await t.read();
    // at the save's round trip the user presses Ctrl+S; the document's stat here is still the one from before it
    t.editor.inFlight = () => {
      const doc = t.editor.document(A)!;
      const heardOf = { ...doc.stat };
      void t.editor.save(doc).then(() => (doc.stat = heardOf));
    };
    const out = await t.replace('END', 'G-1\nEND');
    assert.equal(out.data.status, 'ok', out.text);
    assert.equal(out.data.saved, true);
    assert.equal(t.editor.disk(A), 'START\nG-1\nEND\n', 'the line once: the disk holds the edit the user saved');
  });

  test("the user's Ctrl+S saves the buffer, the edit in it, just before the edit's own save: ok, saved once (the editor's save then finds nothing to save)", async () => {
    const t = setup();
    t.editor.writeDisk(A, 'START\nEND\n');
    await t.read();
    t.editor.inFlight = () => void t.editor.save(t.editor.document(A)!);
    const out = await t.replace('END', 'G-1\nEND');
    assert.equal(out.data.status, 'ok', out.text);
    assert.equal(out.data.saved, true);
    assert.equal(t.editor.disk(A), 'START\nG-1\nEND\n');
    assert.equal(t.editor.reloads, 0, 'nothing taken back');
  });

  test('the user types while a write waits for the editor to load a newer version: nothing goes to the disk under their buffer, and the write is refused with their change', async () => {
    const t = setup();
    t.editor.diskLoads = 'never';
    t.editor.writeDisk(A, 'old\n');
    await t.read();
    t.editor.writeDisk(A, 'built\n');
    await t.read();
    // the user's keystroke is the change the write was waiting for
    t.editor.nextChange = async (document) => {
      t.editor.userEdit(document.uri, 'old\ntyped\n');
      return true;
    };
    const out = await t.replace('built', 'BUILT');
    assert.equal(out.data.status, 'blocked', out.text);
    assert.equal(out.data.reason, 'changed');
    assert.equal(t.editor.disk(A), 'built\n', 'nothing written on disk under the unsaved buffer');
    assert.equal(t.editor.directWrites, 0);
    assert.deepEqual(t.docs.get(A), { text: 'old\ntyped\n', disk: 'built\n', dirty: true });
  });

  test('a disk change that leaves the text as the editor holds it (only line endings), after the agent read: the write goes to the disk, since the editor would refuse to save', async () => {
    const t = await afterSameTextChange();
    const out = await t.write('c\r\n', true);
    assert.equal(out.data.saved, true, out.text);
    assert.match(out.text, /on disk/);
    assert.equal(t.editor.disk(A), 'a\r\nb\r\nc\r\n');
    assert.equal(t.editor.saves, 0, "the editor's save (which it would refuse) was not asked for");
  });

  test('after such a write, whose text the document already holds, the next write goes to the disk too: the editor has still not taken in the stat', async () => {
    const t = await afterSameTextChange();
    const same = await t.write('a\r\nb\r\n'); // the text the editor holds: on disk, and nothing for the editor to load
    assert.match(same.text, /written to the file itself/, same.text);
    const next = await t.write('c\r\n', true);
    assert.match(
      next.text,
      /written to the file itself/,
      `the editor would be asked to save a file it has not caught up with: ${next.text}`,
    );
    assert.equal(t.editor.disk(A), 'a\r\nb\r\nc\r\n');
    assert.equal(t.editor.saves, 0);
  });

  test('once the editor has taken in the new stat of such a change (a load that leaves the text as it was), the write goes through the editor and saves', async () => {
    const t = await afterSameTextChange();
    await t.read(); // the gate compared the document with the disk: the stat is newer than the editor's
    t.editor.loadPending(); // the editor loads it: same text, no new version, but the stat is current now
    const out = await t.write('c\r\n', true);
    assert.equal(out.data.saved, true, out.text);
    assert.doesNotMatch(out.text, /written to the file itself/, `a save the editor would now accept is not bypassed: ${out.text}`);
    assert.equal(t.editor.disk(A), 'a\r\nb\r\nc\r\n');
    assert.equal(t.editor.saves, 1);
  });

  test('the same change to a file the user had open before the agent looked: the write goes to the disk too', async () => {
    const t = setup();
    t.editor.diskLoads = 'late';
    t.editor.writeDisk(A, 'a\r\nb\r\n');
    t.editor.userEdit(A, 'a\r\nb\r\n'); // the user opened it (no change)
    t.editor.writeDisk(A, 'a\r\nb\r');
    await t.read();
    const out = await t.write('c\r\n', true);
    assert.equal(out.data.saved, true, out.text);
    assert.equal(t.editor.disk(A), 'a\r\nb\r\nc\r\n');
    assert.equal(t.editor.saves, 0);
  });

  test('bytes that are not valid UTF-8: reads say so, edits are refused (saving would write U+FFFD)', async () => {
    const t = setup();
    t.editor.writeDiskBytes(A, new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a])); // "café" in Latin-1
    const read = await t.read();
    assert.match(read.text, /not valid UTF-8/);
    const out = await t.replace('caf', 'CAF');
    assert.equal(out.data.code, 'binary');
    assert.equal(t.editor.saves, 0);
  });
});
