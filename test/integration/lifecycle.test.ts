// The gate across VS Code's real document lifecycle: one test per way the editor differs from a file
// system (documents dropped and reopened, deleted files with unsaved buffers, keystrokes as an edit
// is saved, one line ending per document, late or missing disk loads, bytes that are not UTF-8).
// Each was a way a stale write slipped through, the user's work was lost, or a refusal never ended.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import * as path from 'path';
import {
  activateExtension,
  cleanUp,
  deleteOnDisk,
  diskBytes,
  diskText,
  docFor,
  expectStatus,
  fileRef,
  makeFile,
  newestMark,
  readFile,
  replaceString,
  sha256,
  uniquePath,
  watcherHasSeen,
  waitFor,
  writeFile,
} from './helpers';
import { evictDocument, insertAtEnd, openClean, typeWhenAgentEditLands, waitForLoad, writeBehindVsCode } from './lifecycleHelpers';
import { stateOf } from './reliabilityHelpers';

suite('document lifecycle in the real host', () => {
  const teardownSteps: Array<() => Thenable<unknown>> = [];
  suiteSetup(activateExtension);
  teardown(async () => {
    for (const step of teardownSteps.splice(0)) await step();
    await cleanUp();
  });

  test('a document VS Code dropped and opened again (version 1 again): a write from a read before the drop, after another program rewrote the file, is blocked and shows that change', async function () {
    const f = makeFile('dropped', 'line one\nline two\n');
    expectStatus(await readFile(f.rel), 'ok'); // the tool opens the document: version 1
    assert.strictEqual(docFor(f)?.version, 1);
    await evictDocument(f);
    writeBehindVsCode(f, 'line one\nline two, rewritten by git pull\n');
    // the next call opens the file again: a new document, version 1 again, other text
    const out = await replaceString(f.rel, 'line one', 'line 1');
    expectStatus(out, 'blocked', { reason: 'changed' });
    assert.match(out.text, /\+line two, rewritten by git pull/);
    assert.strictEqual(docFor(f)?.version, 1, 'the refused call met a reopened document at version 1');
    assert.strictEqual(diskText(f), 'line one\nline two, rewritten by git pull\n', "the other program's change is on disk, untouched");
    // the refusal counted as a read: the retry passes on the new text
    expectStatus(await replaceString(f.rel, 'line one', 'line 1'), 'ok');
    assert.strictEqual(diskText(f), 'line 1\nline two, rewritten by git pull\n');
  });

  test('an unsaved buffer whose file was deleted on disk: an unread write is refused with the buffer; a write after it goes into the buffer, stays unsaved, and does not recreate the file', async () => {
    const { f, doc } = await openClean('orphan', 'keep me\n');
    await vscode.window.showTextDocument(doc);
    assert.ok(await vscode.workspace.applyEdit(insertAtEnd(doc, 'unsaved work\n')));
    await deleteOnDisk(f); // a branch switch
    const blind = await writeFile(f.rel, 'agent content\n');
    expectStatus(blind, 'blocked', { reason: 'not-read' });
    assert.match(blind.text, /unsaved work/, 'the refusal shows the buffer, the file as the user has it');
    assert.ok(doc.isDirty && doc.getText() === 'keep me\nunsaved work\n', 'the buffer is untouched');
    assert.ok(!fs.existsSync(f.abs), 'no file was created');
    const retry = await replaceString(f.rel, 'unsaved work', 'unsaved work, then the agent');
    const json = expectStatus(retry, 'ok');
    assert.strictEqual(json.saved, false);
    assert.strictEqual(json.keptUnsaved, true);
    assert.match(retry.text, /deleted on disk/);
    assert.strictEqual(doc.getText(), 'keep me\nunsaved work, then the agent\n');
    assert.ok(doc.isDirty, 'still unsaved: the user decides');
    assert.ok(!fs.existsSync(f.abs), 'the file is still deleted: nothing recreated it behind the user');
  });

  test('a keystroke that reaches the document right after the agent edit is not saved by the agent: disk has the edit alone, the buffer keeps the keystroke unsaved, the next write is refused showing it', async () => {
    const { f, doc } = await openClean('keystroke', 'alpha\nbeta\n', { shown: true });
    expectStatus(await readFile(f.rel), 'ok');
    const typed = typeWhenAgentEditLands(
      doc,
      (t) => t.includes('ALPHA'),
      (d) => insertAtEnd(d, 'typed by the user\n'),
    );
    const out = await replaceString(f.rel, 'alpha', 'ALPHA');
    assert.ok(await typed, "VS Code accepted the user's keystroke");
    const json = expectStatus(out, 'ok');
    assert.strictEqual(json.saved, false, `not saved: ${out.text}`);
    assert.strictEqual(json.keptUnsaved, true);
    assert.match(out.text, /changed the file while your edit was being applied/);
    assert.strictEqual(diskText(f), 'alpha\nbeta\n', 'the disk has neither the edit nor the keystroke: nothing of the user was saved');
    assert.strictEqual(doc.getText(), 'ALPHA\nbeta\ntyped by the user\n');
    assert.ok(doc.isDirty);
    assert.strictEqual(newestMark(f.uri)?.hash, sha256('ALPHA\nbeta\n'), "the agent's mark is of its own edit, not of the keystroke");
    const next = await replaceString(f.rel, 'beta', 'BETA');
    expectStatus(next, 'blocked', { reason: 'changed' });
    assert.match(next.text, /\+typed by the user/);
  });

  test('a file with a lone carriage return can be read and edited: no refusal loop', async () => {
    const f = makeFile('lone-cr', 'first\rsecond\nthird\n');
    const read = await readFile(f.rel);
    expectStatus(read, 'ok');
    assert.match(read.text, /1\tfirst\n2\tsecond\n3\tthird/, 'VS Code counts the lone CR as a line break');
    const out = await replaceString(f.rel, 'third', 'THIRD');
    expectStatus(out, 'ok');
    assert.strictEqual(JSON.stringify(diskText(f)), JSON.stringify('first\nsecond\nTHIRD\n'), 'saved as VS Code holds it, one line ending');
  });

  test('LF text written over a CRLF file: written with CRLF, the result says so, and the write mark and the next read mark are of the document text', async () => {
    const f = makeFile('crlf-write', 'one\r\ntwo\r\n');
    expectStatus(await readFile(f.rel), 'ok');
    const out = await writeFile(f.rel, 'uno\ndos\ntres\n');
    expectStatus(out, 'ok');
    assert.match(out.text, /line endings are CRLF/);
    // no editor shows the file: the write went to the disk, and the document follows it
    await waitForLoad(f, 'uno\r\ndos\r\ntres\r\n');
    const doc = docFor(f)!;
    assert.strictEqual(JSON.stringify(doc.getText()), JSON.stringify('uno\r\ndos\r\ntres\r\n'));
    assert.strictEqual(diskBytes(f).toString('latin1'), 'uno\r\ndos\r\ntres\r\n');
    assert.strictEqual(newestMark(f.uri)?.hash, sha256(doc.getText()), 'the write mark is of the text VS Code holds');
    expectStatus(await readFile(f.rel), 'ok');
    assert.strictEqual(newestMark(f.uri)?.hash, sha256(doc.getText()), 'and so is the next read mark');
    assert.strictEqual(newestMark(f.uri)?.fresh, true);
  });

  test('a read right after another program rewrote the file (before VS Code loads it) shows the new text, and the write after it passes', async () => {
    // shown in an editor: the write waits for it to load the disk (a file no editor shows is written to the disk)
    const { f, doc } = await openClean('disk-lag', 'old\r\ntext\r\n', { shown: true });
    expectStatus(await readFile(f.rel), 'ok');
    // new contents with mixed line endings: VS Code will hold them with LF
    writeBehindVsCode(f, 'new\r\ncontents\nfrom\ngit\n');
    const read = await readFile(f.rel);
    expectStatus(read, 'ok');
    assert.match(read.text, /1\tnew\n2\tcontents\n3\tfrom\n4\tgit/);
    assert.strictEqual(newestMark(f.uri)?.hash, sha256('new\ncontents\nfrom\ngit\n'), 'the mark is of the text VS Code will hold');
    const out = await replaceString(f.rel, 'git', 'GIT');
    expectStatus(out, 'ok');
    assert.doesNotMatch(out.text, /Only line endings/);
    assert.strictEqual(doc.getText(), 'new\ncontents\nfrom\nGIT\n');
    assert.strictEqual(diskText(f), 'new\ncontents\nfrom\nGIT\n');
  });

  test('a write right after another program rewrote a file the agent had read is refused with that change, never as "only line endings"', async () => {
    const { f } = await openClean('disk-lag-stale', 'a\nb\n');
    expectStatus(await readFile(f.rel), 'ok');
    writeBehindVsCode(f, 'a\r\nb\r\nc from elsewhere\r\n');
    const out = await replaceString(f.rel, 'a', 'A');
    expectStatus(out, 'blocked', { reason: 'changed' });
    assert.match(out.text, /\+c from elsewhere/);
    assert.doesNotMatch(out.text, /Only line endings/);
    expectStatus(await replaceString(f.rel, 'a', 'A'), 'ok');
    await waitForLoad(f, 'A\r\nb\r\nc from elsewhere\r\n');
    assert.strictEqual(diskBytes(f).toString('latin1'), 'A\r\nb\r\nc from elsewhere\r\n');
  });

  test('when VS Code does not load a disk change (the folder is in files.watcherExclude), the tools read the disk and the write goes to the disk, though an editor shows the file', async function () {
    // the setting merges with its defaults, so wait for our key rather than the whole value
    const files = () => vscode.workspace.getConfiguration('files', null);
    await files().update('watcherExclude', { '**/unwatched-*/**': true }, vscode.ConfigurationTarget.Workspace);
    teardownSteps.push(() => files().update('watcherExclude', undefined, vscode.ConfigurationTarget.Workspace));
    await waitFor(
      () => files().get<Record<string, boolean>>('watcherExclude')?.['**/unwatched-*/**'] === true,
      'files.watcherExclude to take effect',
    );
    const g = fileRef(`${uniquePath('unwatched', '')}/file.txt`);
    fs.mkdirSync(path.dirname(g.abs), { recursive: true });
    fs.writeFileSync(g.abs, 'first\n');
    const doc = await vscode.workspace.openTextDocument(g.uri);
    // shown: a file no editor shows goes to the disk anyway; this one is not refused for a load that never comes
    await vscode.window.showTextDocument(doc, { preview: false });
    expectStatus(await readFile(g.rel), 'ok');
    writeBehindVsCode(g, 'second, written by a build\n');
    // a file written after it in a watched folder: once the watcher reported that one, it would have reported ours
    await watcherHasSeen(makeFile('watched-after', 'written after the build\n'));
    assert.strictEqual(doc.getText(), 'first\n', 'VS Code did not load the change (the premise of this test)');
    const read = await readFile(g.rel);
    assert.match(read.text, /1\tsecond, written by a build/);
    const out = await replaceString(g.rel, 'second', '2nd');
    expectStatus(out, 'ok');
    assert.match(out.text, /written to the file itself/);
    assert.strictEqual(fs.readFileSync(g.abs, 'utf8'), '2nd, written by a build\n');
    assert.ok(!docFor(g)?.isDirty, 'the document the editor never reloaded is left clean');
  });

  test('bytes that are not valid UTF-8: the read says so; write and replace elsewhere are refused and the bytes stay', async () => {
    const bytes = Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from(' au lait\nsecond line\n')]);
    const f = makeFile('latin1', bytes);
    const read = await readFile(f.rel);
    expectStatus(read, 'ok');
    assert.match(read.text, /not valid UTF-8/);
    for (const out of [
      await replaceString(f.rel, 'second line', 'SECOND'),
      await writeFile(f.rel, 'x\n'),
      await writeFile(f.rel, 'x\n', true),
    ]) {
      expectStatus(out, 'error', { code: 'binary' });
      assert.match(out.text, /not valid UTF-8.*\uFFFD/s);
    }
    assert.ok(diskBytes(f).equals(bytes), 'the file is byte for byte as before');
    assert.strictEqual(stateOf(f).dirty, false);
  });
});
