// The three guarded tools called through vscode.lm.invokeTool on real documents (rules 1–6, 9 and 10
// of docs/design.md, and the plain-call side of rule 3). Plain invokeTool calls carry
// no toolInvocationToken: they all belong to one "no chat" session and each call is its own turn.
import * as vscode from 'vscode';
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  activateExtension,
  changeOnDisk,
  cleanUp,
  diffLines,
  diskBytes,
  diskText,
  expectStatus,
  fileRef,
  invoke,
  makeFile,
  newestMark,
  numberedLines,
  openInEditor,
  READ,
  readFile,
  REPLACE,
  replaceString,
  setConfig,
  setSetting,
  sha256,
  sleep,
  uniquePath,
  userEdit,
  waitFor,
  WRITE,
  writeFile,
} from './helpers';

suite('guarded tools (plain invokeTool)', () => {
  suiteSetup(async () => {
    await activateExtension();
  });

  teardown(cleanUp);

  test('a write to an existing file never read is blocked (not-read), file byte-identical, result shows the numbered text; the retry passes (rules 2, 6)', async () => {
    const original = 'alpha\nbeta\ngamma\n';
    const f = makeFile('a-never-read', original);
    const before = diskBytes(f);

    const blocked = await writeFile(f.rel, 'overwritten by the agent\n');
    const json = expectStatus(blocked, 'blocked', { reason: 'not-read' });
    assert.strictEqual(json.path, f.rel, 'json.path is workspace-relative');
    assert.ok(diskBytes(f).equals(before), 'nothing was written: the file is byte-identical');
    assert.match(blocked.text, /\b(never|not|hasn't|haven't)\b[^\n]*\bread\b/i, 'the text says the file was never read');
    assert.deepStrictEqual(
      numberedLines(blocked.text),
      [
        [1, 'alpha'],
        [2, 'beta'],
        [3, 'gamma'],
      ],
      `the result holds the current numbered content:\n${blocked.text}`,
    );

    // rule 6: the refusal stamped a mark, so the very next call (no read in between) is the corrected edit
    const retry = await writeFile(f.rel, 'overwritten by the agent\n');
    const ok = expectStatus(retry, 'ok');
    assert.strictEqual(diskText(f), 'overwritten by the agent\n', 'the retry landed on disk');
    assert.strictEqual(ok.saved, true, 'the document had no unsaved changes, so the write was saved');
  });

  test('read, unsaved user edit in the editor, then replace is blocked (changed) with a diff of the user change; the user text stays unsaved (rules 2, 6)', async () => {
    const original = 'one\ntwo\nthree\n';
    const f = makeFile('b-user-edit', original);
    expectStatus(await readFile(f.rel), 'ok');

    const editor = await openInEditor(f);
    await userEdit(editor.document, 'two', 'two typed by the user');

    const blocked = await replaceString(f.rel, 'three', 'THREE');
    expectStatus(blocked, 'blocked', { reason: 'changed' });
    assert.match(blocked.text, /changed/i, 'the text says the file changed since the read');
    const diff = diffLines(blocked.text);
    assert.ok(diff.hunks.length > 0, `the result has a unified diff hunk:\n${blocked.text}`);
    assert.ok(
      diff.removed.some((l) => l === 'two'),
      `the diff removes the line the agent saw:\n${blocked.text}`,
    );
    assert.ok(
      diff.added.some((l) => l === 'two typed by the user'),
      `the diff adds the user's line:\n${blocked.text}`,
    );

    const doc = editor.document;
    assert.strictEqual(doc.getText(), 'one\ntwo typed by the user\nthree\n', 'buffer: the user text is there, the agent edit is not');
    assert.strictEqual(doc.isDirty, true, 'the user change is still unsaved');
    assert.strictEqual(diskText(f), original, 'disk unchanged');
  });

  test('rule 6: after a changed refusal the immediate retry passes and keeps the user edit unsaved', async () => {
    const original = 'head\nbody\ntail\n';
    const f = makeFile('r6-retry', original);
    expectStatus(await readFile(f.rel), 'ok');
    const editor = await openInEditor(f);
    await userEdit(editor.document, 'body', 'body edited by user');

    expectStatus(await replaceString(f.rel, 'tail', 'TAIL'), 'blocked', { reason: 'changed' });
    const retry = await replaceString(f.rel, 'tail', 'TAIL');
    const json = expectStatus(retry, 'ok');
    assert.strictEqual(
      editor.document.getText(),
      'head\nbody edited by user\nTAIL\n',
      'both the user edit and the agent edit are in the buffer',
    );
    assert.strictEqual(json.keptUnsaved, true, 'the write went into a buffer with user changes: left unsaved');
    assert.strictEqual(editor.document.isDirty, true);
    assert.strictEqual(diskText(f), original, 'nothing saved to disk');
  });

  test('read, then the file changed on disk while not open in an editor: the write is blocked (changed) with a diff of the disk change, and the next call passes (rules 2, 6)', async () => {
    const f = makeFile('c-disk-change', 'x = 1\ny = 2\n');
    expectStatus(await readFile(f.rel), 'ok');
    assert.ok(
      !vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === f.uri.toString()),
      'the file is not open in an editor',
    );

    await changeOnDisk(f, 'x = 1\ny = 2 changed on disk\n');

    const blocked = await writeFile(f.rel, 'agent version\n');
    expectStatus(blocked, 'blocked', { reason: 'changed' });
    assert.strictEqual(diskText(f), 'x = 1\ny = 2 changed on disk\n', 'the disk change is not clobbered');
    const diff = diffLines(blocked.text);
    assert.ok(diff.added.includes('y = 2 changed on disk'), `the diff shows the disk change:\n${blocked.text}`);

    const appendBlocked = await writeFile(f.rel, 'more\n', true);
    // the refusal above stamped a mark, so this append is the "corrected" call and passes
    expectStatus(appendBlocked, 'ok');
    assert.strictEqual(diskText(f), 'x = 1\ny = 2 changed on disk\nmore\n', 'append after the refusal landed once');
  });

  test('creating a new file (and its folders) succeeds without a read (rule 4)', async () => {
    const rel = uniquePath('d-new/deeper/still-deeper/created');
    const f = fileRef(rel);
    assert.ok(!fs.existsSync(f.abs), 'test setup: file does not exist');

    const out = await writeFile(rel, 'brand new\ncontent\n');
    const json = expectStatus(out, 'ok');
    assert.strictEqual(json.created, true, 'json.created');
    assert.strictEqual(json.path, rel);
    assert.strictEqual(diskText(f), 'brand new\ncontent\n', 'the file and its folders exist with the content');

    // an absolute path works the same and is reported workspace-relative
    const rel2 = uniquePath('d-new-abs/sub/created');
    const f2 = fileRef(rel2);
    const json2 = expectStatus(await writeFile(f2.abs, 'by absolute path\n'), 'ok');
    assert.strictEqual(json2.created, true);
    assert.strictEqual(json2.path, rel2, 'absolute filePath reported workspace-relative');
    assert.strictEqual(diskText(f2), 'by absolute path\n');
  });

  test('replace on a missing file is error not-found; no match is no-match; ambiguous is ambiguous; the file is unchanged (rule 5)', async () => {
    const missing = fileRef(uniquePath('e-missing'));
    const notFound = await replaceString(missing.rel, 'a', 'b');
    expectStatus(notFound, 'error', { code: 'not-found' });
    assert.match(notFound.text, /not found|does not exist|doesn't exist|no such file/i, 'a clear "not found" text');
    assert.ok(!fs.existsSync(missing.abs), 'replace did not create the file');

    const original = 'dup line\nsomething else\ndup line\n';
    const f = makeFile('e-matches', original);
    expectStatus(await readFile(f.rel), 'ok');

    const noMatch = await replaceString(f.rel, 'not in the file at all', 'x');
    expectStatus(noMatch, 'error', { code: 'no-match' });
    assert.ok(noMatch.text.trim().length > 0, 'the text explains the error');
    assert.strictEqual(diskText(f), original, 'no-match: file unchanged');

    const ambiguous = await replaceString(f.rel, 'dup line', 'single line');
    const amb = expectStatus(ambiguous, 'error', { code: 'ambiguous' });
    assert.strictEqual(amb.matches, 2, 'json.matches counts the occurrences');
    assert.match(ambiguous.text, /\b2\b/, 'the text says how many matches');
    assert.strictEqual(diskText(f), original, 'ambiguous: file unchanged');

    // an error is not a write: the mark from the read still stands, and replaceAll resolves the ambiguity
    const all = await replaceString(f.rel, 'dup line', 'single line', true);
    const allJson = expectStatus(all, 'ok');
    assert.strictEqual(allJson.replacements, 2);
    assert.strictEqual(diskText(f), 'single line\nsomething else\nsingle line\n');
  });

  test('bad input and paths outside the workspace are clear errors, never throws, and write nothing', async () => {
    const f = makeFile('e-bad-input', 'unchanged\n');
    expectStatus(await readFile(f.rel), 'ok');

    const noContent = await invoke(WRITE, { filePath: f.rel });
    expectStatus(noContent, 'error', { code: 'invalid-input' });
    const noOld = await invoke(REPLACE, { filePath: f.rel, newString: 'x' });
    expectStatus(noOld, 'error', { code: 'invalid-input' });
    const badOffset = await invoke(READ, { filePath: f.rel, offset: 'ten' });
    expectStatus(badOffset, 'error', { code: 'invalid-input' });
    assert.strictEqual(diskText(f), 'unchanged\n', 'bad input wrote nothing');

    const outside = path.join(os.tmpdir(), `editguard-outside-${Date.now()}.txt`);
    const out = await writeFile(outside, 'should not be created\n');
    expectStatus(out, 'error', { code: 'outside-workspace' });
    assert.ok(!fs.existsSync(outside), 'no file was created outside the workspace');

    const missingRead = await readFile(fileRef(uniquePath('e-missing-read')).rel);
    expectStatus(missingRead, 'error', { code: 'not-found' });
  });

  test('rule 3: when format-on-save changes the written text, the result shows the change and the mark is taken after it', async () => {
    // a real formatter, registered through the public API, for this test's file type only:
    // it strips trailing spaces
    const provider = vscode.languages.registerDocumentFormattingEditProvider(
      { scheme: 'file', pattern: '**/*.egfmt' },
      {
        provideDocumentFormattingEdits(doc) {
          const edits: vscode.TextEdit[] = [];
          for (let i = 0; i < doc.lineCount; i++) {
            const line = doc.lineAt(i);
            const trimmed = line.text.replace(/ +$/, '');
            if (trimmed !== line.text) edits.push(vscode.TextEdit.delete(new vscode.Range(i, trimmed.length, i, line.text.length)));
          }
          return edits;
        },
      },
    );
    try {
      await setConfig('editor', 'formatOnSave', true);
      const f = makeFile('r3-formatter', 'start\n', '.egfmt');
      expectStatus(await readFile(f.rel), 'ok');

      const out = await writeFile(f.rel, 'start\nspaces after   \nend\n');
      const json = expectStatus(out, 'ok');
      assert.strictEqual(diskText(f), 'start\nspaces after\nend\n', 'test setup: the formatter ran on save');
      assert.strictEqual(json.formatterChanged, true, 'json.formatterChanged');
      const diff = diffLines(out.text);
      assert.ok(
        diff.removed.includes('spaces after   ') && diff.added.includes('spaces after'),
        `the result shows the formatter's change as a diff:\n${out.text}`,
      );
      const mark = newestMark(f.uri);
      assert.ok(mark);
      assert.strictEqual(mark.origin, 'write');
      assert.strictEqual(mark.hash, sha256('start\nspaces after\nend\n'), 'the mark is of the formatted text');
      assert.strictEqual(mark.fresh, true);
    } finally {
      provider.dispose();
    }
  });

  test('a ranged read (offset/limit) marks the whole file: hash of the full text; a replace outside the range passes (rule 1)', async () => {
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`);
    const text = lines.join('\n'); // no trailing newline: 50 lines exactly
    const f = makeFile('i-ranged', text);

    const out = await readFile(f.rel, { offset: 10, limit: 5 });
    const json = expectStatus(out, 'ok');
    assert.deepStrictEqual(
      numberedLines(out.text),
      [
        [10, 'line 10'],
        [11, 'line 11'],
        [12, 'line 12'],
        [13, 'line 13'],
        [14, 'line 14'],
      ],
      `only the requested range is shown:\n${out.text}`,
    );
    assert.strictEqual(json.startLine, 10);
    assert.strictEqual(json.endLine, 14);
    assert.strictEqual(json.totalLines, 50);
    assert.match(out.text, /offset/, 'the text says how to read on (mentions offset)');

    const mark = newestMark(f.uri);
    assert.ok(mark, 'the ranged read stamped a mark');
    assert.strictEqual(mark.origin, 'read');
    assert.strictEqual(mark.hash, sha256(text), 'the mark hashes the whole text, not the range');
    assert.strictEqual(mark.fresh, true);

    const replaced = await replaceString(f.rel, 'line 40', 'line forty');
    expectStatus(replaced, 'ok');
    assert.strictEqual(diskText(f), text.replace('line 40', 'line forty'), 'a replace outside the read range passed');
  });

  test('reads are capped at editGuard.maxReadLines and say so', async () => {
    await setSetting('maxReadLines', 20);
    const text = Array.from({ length: 30 }, (_, i) => `row ${i + 1}`).join('\n');
    const f = makeFile('i-cap', text);
    const out = await readFile(f.rel);
    const json = expectStatus(out, 'ok');
    const rows = numberedLines(out.text);
    assert.strictEqual(rows.length, 20, `20 numbered lines:\n${out.text}`);
    assert.deepStrictEqual(rows[19], [20, 'row 20']);
    assert.strictEqual(json.truncated, true);
    assert.strictEqual(json.totalLines, 30);
    assert.match(out.text, /offset/, 'the cut note mentions offset');
    // still a whole-file mark
    assert.strictEqual(newestMark(f.uri)?.hash, sha256(text));
  });

  test('replace in a CRLF file works and the file stays CRLF on disk', async () => {
    const original = 'first\r\nsecond\r\nthird\r\n';
    const f = makeFile('k-crlf', original);
    expectStatus(await readFile(f.rel), 'ok');

    expectStatus(await replaceString(f.rel, 'second', 'SECOND'), 'ok');
    assert.strictEqual(diskBytes(f).toString('latin1'), 'first\r\nSECOND\r\nthird\r\n', 'single-line replace, CRLF kept');

    // a multi-line oldString written with \n (as models do) matches the CRLF text, and the result keeps CRLF
    expectStatus(await readFile(f.rel), 'ok');
    const multi = await replaceString(f.rel, 'SECOND\nthird', 'two\nthree\nfour');
    expectStatus(multi, 'ok');
    const bytes = diskBytes(f).toString('latin1');
    assert.strictEqual(bytes, 'first\r\ntwo\r\nthree\r\nfour\r\n', 'multi-line replace, CRLF kept');
    assert.ok(!/[^\r]\n/.test(bytes), 'no bare LF on disk');
  });

  test('an agent write into a document with unsaved user changes does not save them (keptUnsaved)', async () => {
    const original = 'keep\nme\n';
    const f = makeFile('l-unsaved', original);
    const editor = await openInEditor(f);
    await userEdit(editor.document, 'keep', 'keep (user, unsaved)');

    // the read sees the buffer, unsaved changes included
    const read = await readFile(f.rel);
    expectStatus(read, 'ok');
    assert.deepStrictEqual(
      numberedLines(read.text).slice(0, 2),
      [
        [1, 'keep (user, unsaved)'],
        [2, 'me'],
      ],
      'read shows the buffer',
    );

    const out = await replaceString(f.rel, 'me', 'ME');
    const json = expectStatus(out, 'ok');
    assert.strictEqual(json.keptUnsaved, true, 'json.keptUnsaved');
    assert.strictEqual(json.saved, false, 'json.saved is false');
    assert.match(out.text, /unsaved|not saved/i, 'the text says the change was left unsaved');

    const doc = editor.document;
    assert.strictEqual(doc.getText(), 'keep (user, unsaved)\nME\n', 'the buffer has both edits');
    assert.strictEqual(doc.isDirty, true, 'still dirty');
    assert.strictEqual(diskText(f), original, 'disk unchanged: the user changes were not saved');
  });

  test('a full overwrite into a dirty document also stays unsaved', async () => {
    const original = 'on disk\n';
    const f = makeFile('l-overwrite', original);
    const editor = await openInEditor(f);
    await userEdit(editor.document, 'on disk', 'typed, unsaved');
    expectStatus(await readFile(f.rel), 'ok');

    const json = expectStatus(await writeFile(f.rel, 'agent rewrite\n'), 'ok');
    assert.strictEqual(json.keptUnsaved, true);
    assert.strictEqual(editor.document.getText(), 'agent rewrite\n');
    assert.strictEqual(editor.document.isDirty, true);
    assert.strictEqual(diskText(f), original);
  });

  test('rule 3 (plain calls): an own write does not keep the mark for the next call under sameTurn (own-write-expired); with always it does', async () => {
    const f = makeFile('r3-plain', 'a\nb\n');
    expectStatus(await readFile(f.rel), 'ok');
    expectStatus(await writeFile(f.rel, 'a\nb\nc\n'), 'ok');
    const mark = newestMark(f.uri);
    assert.ok(mark);
    assert.strictEqual(mark.origin, 'write', 'the own write re-marked the file');
    assert.strictEqual(mark.hash, sha256('a\nb\nc\n'), 'with the new hash');

    const blocked = await replaceString(f.rel, 'c', 'C');
    expectStatus(blocked, 'blocked', { reason: 'own-write-expired' });
    assert.strictEqual(diskText(f), 'a\nb\nc\n', 'blocked: nothing written');

    await setSetting('ownWriteKeepsMark', 'always');
    const g = makeFile('r3-always', 'a\nb\n');
    expectStatus(await readFile(g.rel), 'ok');
    expectStatus(await writeFile(g.rel, 'a\nb\nc\n'), 'ok');
    expectStatus(await replaceString(g.rel, 'c', 'C'), 'ok');
    assert.strictEqual(diskText(g), 'a\nb\nC\n');
  });

  test('rule 9: five parallel appends carrying the same fresh mark: exactly one lands', async () => {
    const original = 'log:\n';
    const f = makeFile('r9-parallel', original);
    expectStatus(await readFile(f.rel), 'ok');

    const outs = await Promise.all([1, 2, 3, 4, 5].map((i) => writeFile(f.rel, `entry ${i}\n`, true)));
    const ok = outs.filter((o) => o.json.status === 'ok');
    const blocked = outs.filter((o) => o.json.status === 'blocked');
    assert.strictEqual(ok.length, 1, `exactly one append landed: ${JSON.stringify(outs.map((o) => o.json))}`);
    assert.strictEqual(blocked.length, 4, 'the other four were blocked (not errors)');
    const landed = /entry (\d)/.exec(diskText(f));
    assert.ok(landed, 'one entry on disk');
    assert.strictEqual(diskText(f), `${original}entry ${landed[1]}\n`, 'disk holds the original plus exactly one entry');
  });

  test('rule 10: a tool result lists files this chat read that changed since (staleFiles and text)', async () => {
    const a = makeFile('r10-written', 'A\n');
    const b = makeFile('r10-changed', 'B\n');
    expectStatus(await readFile(a.rel), 'ok');
    expectStatus(await readFile(b.rel), 'ok');

    const editor = await openInEditor(b);
    await userEdit(editor.document, 'B', 'B changed by user');
    assert.strictEqual(newestMark(b.uri)?.fresh, false, 'before the call, readMarks() already reports b stale');

    const out = await writeFile(a.rel, 'A2\n');
    const json = expectStatus(out, 'ok');
    assert.ok(Array.isArray(json.staleFiles), `json.staleFiles is a list: ${JSON.stringify(json)}`);
    assert.ok(json.staleFiles.includes(b.rel), `staleFiles names ${b.rel}: ${JSON.stringify(json.staleFiles)}`);
    assert.ok(!json.staleFiles.includes(a.rel), 'the file just written is not stale');
    assert.ok(out.text.includes(b.rel), `the text names the stale file:\n${out.text}`);
    assert.match(out.text, /changed since you read/i, 'the notice says they changed since the read');
    assert.strictEqual(diskText(a), 'A2\n');
  });

  test('rule 10: the notice also lists a file the user is still typing in while the tool runs', async () => {
    const a = makeFile('r10-typing-written', 'A\n');
    const b = makeFile('r10-typing-busy', 'B\n');
    expectStatus(await readFile(a.rel), 'ok');
    expectStatus(await readFile(b.rel), 'ok');

    const editor = await openInEditor(b);
    await userEdit(editor.document, 'B', 'B changed by user');
    // the user keeps typing in b (a keystroke every 20 ms) while the agent writes a
    let typing = true;
    const typist = (async () => {
      while (typing) {
        const edit = new vscode.WorkspaceEdit();
        edit.insert(b.uri, editor.document.lineAt(0).range.end, '.');
        await vscode.workspace.applyEdit(edit);
        await sleep(20);
      }
    })();
    let out;
    try {
      out = await writeFile(a.rel, 'A2\n');
    } finally {
      typing = false;
      await typist;
    }
    const json = expectStatus(out, 'ok');
    assert.ok(
      json.staleFiles?.includes(b.rel),
      `b was changed before the call and is stale: staleFiles = ${JSON.stringify(json.staleFiles)}`,
    );
    assert.ok(out.text.includes(b.rel), `the text names ${b.rel}:\n${out.text}`);
  });

  test('rule 1: a read sees unsaved buffer text and a mark of that text lets a write through', async () => {
    const f = makeFile('r1-buffer', 'disk text\n');
    const editor = await openInEditor(f);
    await userEdit(editor.document, 'disk text', 'buffer text');
    const read = await readFile(f.rel);
    expectStatus(read, 'ok');
    assert.deepStrictEqual(numberedLines(read.text)[0], [1, 'buffer text']);
    const mark = newestMark(f.uri);
    assert.strictEqual(mark?.hash, sha256('buffer text\n'), 'the mark hashes the buffer, not the disk');
    await waitFor(() => newestMark(f.uri)?.fresh === true, 'the mark to be fresh');
  });
});
