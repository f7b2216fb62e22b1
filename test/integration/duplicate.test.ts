// Rule 11 in the real host: under the default ownWriteKeepsMark (sameTurn), a section appended again
// in the same chat turn is refused `duplicate` — nothing written, the diagnostic over the lines where
// it stands — and the retry that says it means it (allowDuplicate: true) lands.
import * as assert from 'assert';
import {
  activateExtension,
  activateScriptedAgent,
  call,
  chatTurn,
  cleanUp,
  diagnosticCode,
  DIAGNOSTIC_CODE,
  diskBytes,
  diskText,
  expectStatus,
  guardDiagnostics,
  makeFile,
  newChat,
  newestMark,
  type ScriptedCall,
  waitFor,
  WRITE,
} from './helpers';

const SECTION = [
  '',
  '## Release checklist',
  '',
  '- Run the whole test suite on a clean checkout.',
  '- Update the changelog with every user-visible change.',
  '- Tag the release and push the tag to the remote.',
  '',
].join('\n');

const appendAllowingDuplicate = (filePath: string, content: string): ScriptedCall => ({
  tool: WRITE,
  input: { filePath, content, append: true, allowDuplicate: true },
});

suite('rule 11: a section appended again is refused duplicate', () => {
  suiteSetup(async () => {
    await activateExtension();
    await activateScriptedAgent();
  });

  setup(newChat);
  teardown(cleanUp);

  test('read, append a 5-line section, append it again in the same turn: refused duplicate, bytes unchanged, the diagnostic shows; the retry with allowDuplicate: true lands', async () => {
    const original = '# Notes\n\nWritten by the user.\n';
    const f = makeFile('dup-append', original, '.md');

    const turn = await chatTurn([call.read(f.rel), call.write(f.rel, SECTION, true), call.write(f.rel, SECTION, true)]);
    const [read, first, again] = turn.results;
    expectStatus(read, 'ok');
    expectStatus(first, 'ok');
    const afterFirst = diskBytes(f);
    assert.strictEqual(afterFirst.toString('utf8'), original + SECTION);
    assert.strictEqual(newestMark(f.uri)?.origin, 'write', 'the first append left an own-write mark (sameTurn: it counts in this turn)');

    expectStatus(again, 'blocked');
    assert.strictEqual(again.json?.reason, 'duplicate', again.text);
    // where the section stands: its heading is line 5 of the file, its last line 9
    const lines = diskText(f).split('\n');
    const heading = lines.indexOf('## Release checklist') + 1;
    const last = lines.indexOf('- Tag the release and push the tag to the remote.') + 1;
    assert.deepStrictEqual(again.json?.duplicateLines, { start: heading, end: last });
    assert.ok(again.text.includes(`${heading}\t## Release checklist`), again.text);
    assert.match(again.text, /allowDuplicate: true/);
    assert.ok(diskBytes(f).equals(afterFirst), 'the refused append wrote nothing');

    const diagnostics = await waitFor(
      () => (guardDiagnostics(f.uri).length ? guardDiagnostics(f.uri) : undefined),
      'the blocked-write diagnostic',
    );
    assert.strictEqual(diagnosticCode(diagnostics[0]), DIAGNOSTIC_CODE);
    assert.strictEqual(diagnostics[0].range.start.line, heading - 1, 'over the lines where the section already stands');
    assert.match(diagnostics[0].message, /allowDuplicate/);

    // a new turn would need a fresh look (the own write expired): the retry comes in the same turn
    const retryTurn = await chatTurn([call.read(f.rel), appendAllowingDuplicate(f.rel, SECTION)]);
    expectStatus(retryTurn.results[1], 'ok');
    assert.strictEqual(diskText(f), original + SECTION + SECTION, 'the retry that says it means it landed');
    await waitFor(() => (guardDiagnostics(f.uri).length === 0 ? true : undefined), 'the diagnostic to clear after the write');
  });

  test('in one turn, the retry with allowDuplicate: true right after the refusal lands without a new read', async () => {
    const original = '# Notes\n';
    const f = makeFile('dup-retry', original, '.md');
    const turn = await chatTurn([
      call.read(f.rel),
      call.write(f.rel, SECTION, true),
      call.write(f.rel, SECTION, true),
      appendAllowingDuplicate(f.rel, SECTION),
    ]);
    const [read, first, again, retry] = turn.results;
    expectStatus(read, 'ok');
    expectStatus(first, 'ok');
    expectStatus(again, 'blocked', { reason: 'duplicate' });
    expectStatus(retry, 'ok');
    assert.strictEqual(diskText(f), original + SECTION + SECTION);
  });

  test('an ordinary append of one repeated line passes in the same turn', async () => {
    const f = makeFile('dup-ordinary', 'log:\nstarted server on port 8080\n');
    const turn = await chatTurn([
      call.read(f.rel),
      call.write(f.rel, 'started server on port 8080\n', true),
      call.write(f.rel, 'started server on port 8080\n', true),
    ]);
    for (const r of turn.results) expectStatus(r, 'ok');
    assert.strictEqual(diskText(f), 'log:\nstarted server on port 8080\nstarted server on port 8080\nstarted server on port 8080\n');
  });
});
