// VS Code's documents as the gate's core assumes them (src/core/editor.ts) and as the unit tests'
// editor model plays them (test/unit/memoryEditor.ts): each behaviour, observed in the real host.
// If VS Code changes one of these, this suite fails first and says which assumption broke.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { asEditorHolds } from '../../src/core/text';
import { VsCodeEditor } from '../../src/editor/vscodeEditor';
import { activateExtension, cleanUp, deleteOnDisk, docFor, makeFile, waitFor } from './helpers';
import { evictDocument, insertAtEnd, openClean, typeWhenAgentEditLands, waitForLoad, writeBehindVsCode } from './lifecycleHelpers';

const eolOf = (doc: vscode.TextDocument) => (doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n');

suite('VS Code documents (what the core assumes of the editor)', () => {
  suiteSetup(activateExtension);
  teardown(cleanUp);

  test('a document holds one line ending: loading applies the majority rule, a lone CR counting as a break', async () => {
    const cases: Array<[string, string, '\n' | '\r\n']> = [
      ['a\r\nb\nc\r\n', 'a\r\nb\r\nc\r\n', '\r\n'],
      ['a\rb\nc\n', 'a\nb\nc\n', '\n'],
      ['x\ry', 'x\r\ny', '\r\n'],
      ['a\nb\r\nc\n', 'a\nb\nc\n', '\n'],
      ['a\r\rb\n', 'a\r\n\r\nb\r\n', '\r\n'],
      ['no break', 'no break', '\n'],
    ];
    for (const [contents, held, eol] of cases) {
      const doc = await vscode.workspace.openTextDocument(makeFile('eol-load', contents).uri);
      assert.strictEqual(JSON.stringify(doc.getText()), JSON.stringify(held), `VS Code's text of ${JSON.stringify(contents)}`);
      assert.strictEqual(eolOf(doc), eol, `VS Code's line ending of ${JSON.stringify(contents)}`);
      // the core's rule gives the same
      assert.deepStrictEqual(asEditorHolds(contents, '\n'), { text: held, eol }, `asEditorHolds(${JSON.stringify(contents)})`);
    }
  });

  test("an edit's text is written with the document's line ending, each break on its own", async () => {
    const { f, doc } = await openClean('eol-edit', 'a\r\nb\r\n');
    const edit = new vscode.WorkspaceEdit();
    edit.insert(f.uri, new vscode.Position(1, 0), 'p\nq\rr\r\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.strictEqual(JSON.stringify(doc.getText()), JSON.stringify('a\r\np\r\nq\r\nr\r\nb\r\n'));
    const lf = await openClean('eol-edit-lf', 'x\n');
    const next = new vscode.WorkspaceEdit();
    next.insert(lf.f.uri, new vscode.Position(0, 0), '\r');
    assert.ok(await vscode.workspace.applyEdit(next));
    assert.strictEqual(JSON.stringify(lf.doc.getText()), JSON.stringify('\nx\n'), 'a lone CR next to a break stays a break of its own');
  });

  test('a clean document loads a disk change late, with the line ending of the new contents; a dirty one keeps its text', async () => {
    const { f, doc } = await openClean('lag', 'one\r\ntwo\r\n');
    writeBehindVsCode(f, 'uno\ndos\n');
    assert.strictEqual(doc.getText(), 'one\r\ntwo\r\n', 'right after the write the document still has the old text');
    await waitForLoad(f, 'uno\ndos\n');
    assert.strictEqual(eolOf(doc), '\n');
    writeBehindVsCode(f, 'solo');
    await waitForLoad(f, 'solo');
    assert.strictEqual(eolOf(doc), '\n', 'contents without a break get the default (files.eol: LF here)');

    const dirty = await openClean('lag-dirty', 'base\n');
    assert.ok(await vscode.workspace.applyEdit(insertAtEnd(dirty.doc, 'typed\n')));
    writeBehindVsCode(dirty.f, 'other program\n');
    // give the watcher time to deliver the change it would load into a clean document
    const probe = await openClean('lag-probe', 'p\n');
    writeBehindVsCode(probe.f, 'q\n');
    await waitForLoad(probe.f, 'q\n');
    assert.strictEqual(dirty.doc.getText(), 'base\ntyped\n');
    assert.ok(dirty.doc.isDirty);
  });

  test('an edit made for an older version is refused (applyEdit answers false)', async () => {
    const { f, doc } = await openClean('stale-edit', 'v\n');
    const first = new vscode.WorkspaceEdit();
    first.insert(f.uri, new vscode.Position(0, 0), 'a');
    const second = new vscode.WorkspaceEdit();
    second.insert(f.uri, new vscode.Position(0, 0), 'b');
    // both made for the same version: the one that lands second meets a newer one
    const [one, two] = await Promise.all([vscode.workspace.applyEdit(first), vscode.workspace.applyEdit(second)]);
    assert.deepStrictEqual([one, two], [true, false]);
    assert.strictEqual(doc.getText(), 'av\n');
  });

  test('a dropped document is closed; opened again it is a new object whose version starts at 1', async function () {
    const { f, doc } = await openClean('reopen', 'v1\n');
    for (const c of ['x', 'y']) assert.ok(await vscode.workspace.applyEdit(insertAtEnd(doc, c)));
    assert.ok(await doc.save());
    assert.ok(doc.version >= 3);
    const opened = await evictDocument(f);
    assert.ok(doc.isClosed, 'the old object says it is closed');
    assert.ok(opened > 0 && opened < 300, `dropped after opening ${opened} others`);
    writeBehindVsCode(f, 'changed elsewhere\n');
    const again = await vscode.workspace.openTextDocument(f.uri);
    assert.notStrictEqual(again, doc);
    assert.strictEqual(again.version, 1);
    assert.strictEqual(again.getText(), 'changed elsewhere\n');
  });

  test('a document with unsaved changes is not dropped', async function () {
    const { f, doc } = await openClean('keep-dirty', 'base\n');
    assert.ok(await vscode.workspace.applyEdit(insertAtEnd(doc, 'typed\n')));
    await assert.rejects(evictDocument(f, 120), /VS Code to drop the document/);
    assert.ok(!doc.isClosed && doc.isDirty);
    assert.strictEqual(docFor(f), doc);
  });

  test('a dirty document stays open when its file is deleted; creating the file reverts it, losing its unsaved text', async () => {
    const { f, doc } = await openClean('orphan', 'keep\n');
    assert.ok(await vscode.workspace.applyEdit(insertAtEnd(doc, 'typed\n')));
    const other = await openClean('orphan-clean', 'clean\n');
    // once the watcher has reported the deletions, the documents have heard all they will
    await deleteOnDisk(f, other.f);
    assert.ok(!doc.isClosed && doc.isDirty, 'the dirty document is still open and dirty');
    assert.strictEqual(doc.getText(), 'keep\ntyped\n');
    assert.ok(!other.doc.isClosed && !other.doc.isDirty, 'a clean one stays open, clean');
    // this is why the gate never creates a file over such a buffer
    const create = new vscode.WorkspaceEdit();
    create.createFile(f.uri, { overwrite: false, ignoreIfExists: false, contents: new TextEncoder().encode('created\n') });
    assert.ok(await vscode.workspace.applyEdit(create));
    await waitFor(() => doc.getText() === 'created\n', 'the document to revert to the created file', 3000);
    assert.ok(!doc.isDirty, 'the unsaved text is gone');
  });

  test('a save takes the text after its participants; the document moves to new versions while it saves', async () => {
    const { f, doc } = await openClean('participant', 'a   \n');
    assert.ok(await vscode.workspace.applyEdit(insertAtEnd(doc, 'b   \n')));
    const participant = vscode.workspace.onWillSaveTextDocument((e) => {
      if (e.document !== doc) return;
      // what format on save does: an edit inside the save
      e.waitUntil(Promise.resolve([vscode.TextEdit.replace(new vscode.Range(0, 1, 0, 4), '')]));
    });
    try {
      const before = doc.version;
      assert.ok(await doc.save());
      assert.ok(doc.version > before);
      assert.strictEqual(fs.readFileSync(f.abs, 'utf8'), 'a\nb   \n');
      assert.ok(!doc.isDirty);
    } finally {
      participant.dispose();
    }
  });

  test('a save over a file modified since is refused when it would write other bytes, and goes through when it writes exactly what the file holds', async () => {
    const other = await openClean('save-newer', 'one\n');
    assert.ok(await vscode.workspace.applyEdit(insertAtEnd(other.doc, 'two\n')));
    writeBehindVsCode(other.f, 'one\nanother program wrote this\n');
    assert.strictEqual(await other.doc.save(), false, 'the content of the file is newer');
    assert.strictEqual(fs.readFileSync(other.f.abs, 'utf8'), 'one\nanother program wrote this\n', 'the newer file is kept');
    assert.ok(other.doc.isDirty);

    const same = await openClean('save-newer-same', 'x\n');
    assert.ok(await vscode.workspace.applyEdit(insertAtEnd(same.doc, 'y\n')));
    writeBehindVsCode(same.f, 'x\ny\n');
    assert.strictEqual(await same.doc.save(), true, 'the bytes it writes are the bytes on disk');
    assert.ok(!same.doc.isDirty);
  });

  test('reload(): a dirty document follows the disk only when reverted; the revert drops its unsaved changes, and a tab it had to open is closed again', async () => {
    const editor = new VsCodeEditor();
    const tabs = (uri: vscode.Uri) =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString());
    const { f, doc } = await openClean('reload', 'old\n');
    assert.ok(await vscode.workspace.applyEdit(insertAtEnd(doc, 'unsaved\n')));
    writeBehindVsCode(f, 'new on disk\n');
    const probe = await openClean('reload-probe', 'p\n');
    writeBehindVsCode(probe.f, 'q\n');
    await waitForLoad(probe.f, 'q\n');
    assert.strictEqual(doc.getText(), 'old\nunsaved\n', 'a dirty document does not load the disk change');
    // VS Code opens a dirty file's editor by itself, in the background, about 0.8 s after it became dirty
    // (on a busy machine that can be before this line): the revert then needs no tab of its own
    const tabsBefore = tabs(f.uri).length;
    assert.strictEqual(await editor.reload(editor.openDocument(f.uri.toString())!), true);
    assert.strictEqual(doc.getText(), 'new on disk\n');
    assert.ok(!doc.isDirty);
    assert.strictEqual(
      tabs(f.uri).length,
      tabsBefore,
      tabsBefore ? 'the tab VS Code had opened stays' : 'the tab the revert needed is closed again',
    );

    const shown = await openClean('reload-shown', 'a\n');
    await vscode.window.showTextDocument(shown.doc, { preview: false });
    assert.ok(await vscode.workspace.applyEdit(insertAtEnd(shown.doc, 'b\n')));
    writeBehindVsCode(shown.f, 'c\n');
    assert.strictEqual(await editor.reload(editor.openDocument(shown.f.uri.toString())!), true);
    assert.strictEqual(shown.doc.getText(), 'c\n');
    assert.strictEqual(tabs(shown.f.uri).length, 1, 'a tab the user had stays');
    editor.dispose();
  });

  test('stillAt(): a keystroke sent just before it is seen when it answers (refused, or in a newer version), editor visible; on a quiet document it changes nothing', async () => {
    const editor = new VsCodeEditor();
    const { f, doc } = await openClean('still-at', 'x\n');
    await vscode.window.showTextDocument(doc);
    const quiet = editor.openDocument(f.uri.toString())!;
    const version = doc.version;
    assert.strictEqual(await editor.stillAt(quiet), true);
    assert.strictEqual(doc.version, version, 'the version does not move');
    assert.ok(!doc.isDirty, 'the document stays clean');
    const typed = typeWhenAgentEditLands(
      doc,
      (t) => t.startsWith('agent'),
      (d) => insertAtEnd(d, 'K'),
    );
    const edit = new vscode.WorkspaceEdit();
    edit.insert(f.uri, new vscode.Position(0, 0), 'agent ');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const ours = doc.version;
    const still = await editor.stillAt(quiet);
    // the keystroke, sent before the check, is seen by the time it answers: refused, or a newer version
    assert.ok(!still || doc.version !== ours, `the keystroke went unseen (stillAt ${still}, version ${doc.version})`);
    assert.ok(await typed, 'the keystroke was applied');
    assert.strictEqual(doc.getText(), 'agent x\nK');
  });

  test('sync(): a change the workbench makes before it handles the round trip has reached the document when it answers', async () => {
    const editor = new VsCodeEditor();
    try {
      const { doc } = await openClean('sync', 'x\n');
      await vscode.window.showTextDocument(doc);
      await waitFor(() => vscode.window.activeTextEditor?.document === doc, 'the editor to show the document');
      const version = doc.version;
      const asOf = performance.now();
      // typed in the workbench (the editor's own type command runs there), the round trip sent right behind it
      const typed = vscode.commands.executeCommand('type', { text: 'K' });
      await editor.sync(asOf);
      assert.ok(
        doc.version > version && doc.getText().includes('K'),
        `the keystroke is in the document (${JSON.stringify(doc.getText())})`,
      );
      await typed;
    } finally {
      editor.dispose();
    }
  });

  test("watchDisk(): another program's create, change (sed -i's rename over the file too) and delete are reported, each once; the editor's own save is not, nor a change made after the watch ended", async () => {
    const editor = new VsCodeEditor();
    try {
      const changed = makeFile('watch-changed', 'one\n');
      const renamed = makeFile('watch-renamed', 'one\n');
      const deleted = makeFile('watch-deleted', 'gone\n');
      const saved = await openClean('watch-saved', 'mine\n');
      const later = makeFile('watch-later', 'later\n');
      const made = changed.abs.replace('watch-changed', 'watch-made');
      // the files there before the watch were made past the clocks' slack before it (their times against this process's)
      const madeAt = Date.now();
      await waitFor(() => Date.now() > madeAt + 100, 'the clock to pass the files made before the watch', 1000, 10);
      const watch = editor.watchDisk();
      fs.writeFileSync(made, 'new\n');
      fs.appendFileSync(changed.abs, 'two\n');
      // as `sed -i` writes: a new file renamed over the old one
      fs.writeFileSync(`${renamed.abs}.tmp`, 'ONE\n');
      fs.renameSync(`${renamed.abs}.tmp`, renamed.abs);
      fs.rmSync(deleted.abs);
      assert.ok(await vscode.workspace.applyEdit(insertAtEnd(saved.doc, 'typed\n')));
      assert.ok(await saved.doc.save());
      const stoppedAt = Date.now();
      const stopping = watch.stop(1000, [renamed.uri.toString()]);
      // after the end of the watch, past the clocks' slack (the file's time against this process's): not what ran meanwhile
      await waitFor(() => Date.now() > stoppedAt + 100, 'the clock to pass the end of the watch', 1000, 10);
      fs.appendFileSync(later.abs, 'more\n');
      const changes = await stopping;
      const kinds = new Map(changes.map((c) => [c.uri, c.kind]));
      assert.strictEqual(changes.length, kinds.size, `each file once: ${JSON.stringify(changes)}`);
      assert.strictEqual(kinds.get(vscode.Uri.file(made).toString()), 'created', JSON.stringify(changes));
      assert.strictEqual(kinds.get(changed.uri.toString()), 'changed', JSON.stringify(changes));
      // a new file renamed over it: reported as made (held by an editor, the core takes it for a change)
      assert.ok(['changed', 'created'].includes(kinds.get(renamed.uri.toString()) ?? ''), JSON.stringify(changes));
      assert.strictEqual(kinds.get(deleted.uri.toString()), 'deleted', JSON.stringify(changes));
      assert.ok(!kinds.has(saved.f.uri.toString()), `the editor's own save is not another program's: ${JSON.stringify(changes)}`);
      assert.ok(!kinds.has(later.uri.toString()), `a change after the watch ended is left out: ${JSON.stringify(changes)}`);
    } finally {
      editor.dispose();
    }
  });
});
