// Rule 11 (docs/design.md §Rules): a write the gate allows that would repeat a block the file
// already holds is refused `duplicate`; `allowDuplicate: true` lets it through; ordinary appends never trip it.
import * as assert from 'node:assert/strict';
import { blockOf, DUPLICATE_MIN_CHARS, DUPLICATE_MIN_LINES, findAppendDuplicate, findWriteDuplicate } from '../../src/core/duplicate';
import { sha256 } from '../../src/core/hash';
import type { BlockedWrite, CallContext, GateSettings } from '../../src/core/ports';
import { callOn, coreFixture } from './memoryDocuments';

const A = 'file:///ws/notes.md';

function setup(settings: Partial<GateSettings> = {}) {
  const { docs, store, log, gate, tools } = coreFixture(settings);
  const blocks: BlockedWrite[] = [];
  gate.onDidBlock((b) => blocks.push(b));
  const call = (tool: string, turn = 'turn-1'): CallContext => callOn(store, tool, A, 'chat-1', turn);
  const read = (turn?: string) => tools.read(call('editGuard_readFile', turn), {});
  const write = (content: string, opts: { append?: boolean; allowDuplicate?: boolean; turn?: string } = {}) =>
    tools.write(call('editGuard_writeFile', opts.turn), { content, append: opts.append === true, allowDuplicate: opts.allowDuplicate });
  return { docs, store, log, gate, tools, blocks, read, write };
}

/** A section of five lines, as an agent appends one. */
const SECTION = [
  '## Release checklist',
  '',
  '- Run the whole test suite on a clean checkout.',
  '- Update the changelog with every user-visible change.',
  '- Tag the release and push the tag to the remote.',
].join('\n');

const HEAD = '# Notes\n\nSome text written by the user.\n';

suite('rule 11: a write that would repeat a block the file holds is refused duplicate', () => {
  test('the section appended again in the same turn is refused duplicate, naming and showing the lines where it stands; nothing is written', async () => {
    const t = setup();
    t.docs.file(A, HEAD);
    await t.read();
    const first = await t.write(`\n${SECTION}\n`, { append: true });
    assert.equal(first.data.status, 'ok');
    const landed = t.docs.text(A);
    const sectionStart = landed.split('\n').indexOf('## Release checklist') + 1;
    const again = await t.write(`\n${SECTION}\n`, { append: true });
    assert.equal(again.data.status, 'blocked');
    assert.equal(again.data.reason, 'duplicate');
    assert.deepEqual(again.data.duplicateLines, { start: sectionStart, end: sectionStart + SECTION.split('\n').length - 1 });
    assert.equal(t.docs.text(A), landed, 'nothing was written');
    assert.match(again.text, /^BLOCKED: nothing was written\./);
    assert.match(again.text, new RegExp(`lines ${sectionStart}–${sectionStart + 4}`));
    assert.match(again.text, /allowDuplicate: true/);
    // the lines are shown numbered, as a read shows them
    assert.ok(again.text.includes(`${sectionStart}\t## Release checklist`), again.text);
    assert.ok(again.text.includes(`${sectionStart + 4}\t- Tag the release`), again.text);
    // the diagnostic covers the lines where it stands (0-based)
    assert.deepEqual(t.blocks.at(-1)?.changedLines, [{ start: sectionStart - 1, end: sectionStart + 3 }]);
    assert.equal(t.blocks.at(-1)?.reason, 'duplicate');
  });

  test('the refusal stamps no mark: the newest mark is still the own write', async () => {
    const t = setup();
    t.docs.file(A, HEAD);
    await t.read();
    await t.write(`${SECTION}\n`, { append: true });
    const before = t.store.newest('chat-1', A);
    const again = await t.write(`${SECTION}\n`, { append: true });
    assert.equal(again.data.reason, 'duplicate');
    assert.deepEqual(t.store.newest('chat-1', A), before);
    assert.equal(before?.origin, 'write');
  });

  test('the retry with allowDuplicate: true lands the section a second time', async () => {
    const t = setup();
    t.docs.file(A, HEAD);
    await t.read();
    await t.write(`${SECTION}\n`, { append: true });
    assert.equal((await t.write(`${SECTION}\n`, { append: true })).data.reason, 'duplicate');
    const before = t.docs.text(A);
    const retry = await t.write(`${SECTION}\n`, { append: true, allowDuplicate: true });
    assert.equal(retry.data.status, 'ok');
    assert.equal(t.docs.text(A), `${before}${SECTION}\n`);
    assert.equal(t.store.newest('chat-1', A)?.hash, sha256(t.docs.text(A)));
  });

  test('the section met with other line endings and trailing whitespace is still the same block', async () => {
    const t = setup();
    t.docs.file(A, `${HEAD}${SECTION.split('\n').join('  \n')}\n`);
    await t.read();
    const r = await t.write(`${SECTION.replace(/\n/g, '\r\n')}\r\n`, { append: true });
    assert.equal(r.data.reason, 'duplicate');
    assert.deepEqual(r.data.duplicateLines, { start: 4, end: 8 });
  });

  // each an append an agent makes all the time, to a file that already holds a line just like it
  const ordinary: Array<{ name: string; file: string; append: string }> = [
    {
      name: 'a log line',
      file: '2024-05-01 12:00:01 INFO server started on port 8080\n',
      append: '2024-05-01 12:00:01 INFO server started on port 8080\n',
    },
    { name: 'a closing brace', file: 'function f() {\n  return 1;\n}\n', append: '}\n' },
    { name: 'a blank line', file: 'one\n\ntwo\n', append: '\n' },
    { name: 'blank lines', file: 'one\n\n\n\ntwo\n', append: '\n\n\n' },
    { name: 'a repeated short line (})', file: 'a {\n}\nb {\n}\n', append: '}\n}\n}\n' },
    { name: 'a repeated short line (end)', file: 'do\n  x\nend\nend\nend\n', append: 'end\nend\nend\n' },
    { name: 'a repeated short line (---)', file: '---\ntitle: x\n---\n---\n---\n', append: '---\n---\n---\n' },
    { name: 'a CSV row like an earlier one', file: 'id,name,amount\n1,alice,10\n2,bob,20\n', append: '3,alice,10\n' },
    { name: 'a CSV row equal to an earlier one', file: 'id,name,amount\n1,alice,10\n', append: '1,alice,10\n' },
    { name: 'three CSV rows equal to earlier ones (short)', file: 'id,name\n1,al\n2,bo\n3,cy\n', append: '1,al\n2,bo\n3,cy\n' },
    {
      name: 'a single repeated import line',
      file: "import { readFileSync } from 'node:fs';\nconst x = 1;\n",
      append: "import { readFileSync } from 'node:fs';\n",
    },
    {
      name: 'a new test whose setup lines repeat an earlier one (the block as a whole is new)',
      file: "test('a', () => {\n  const docs = new MemoryDocuments();\n  const store = new MarkStore();\n  assert.ok(run(docs, store));\n});\n",
      append:
        "test('b', () => {\n  const docs = new MemoryDocuments();\n  const store = new MarkStore();\n  assert.ok(other(docs, store));\n});\n",
    },
    {
      name: 'two long lines already there (fewer than 3 lines)',
      file: `${'x'.repeat(50)} one\n${'y'.repeat(50)} two\n`,
      append: `${'x'.repeat(50)} one\n${'y'.repeat(50)} two\n`,
    },
    { name: 'a markdown rule and heading pair', file: '## A\ntext\n\n---\n\n## B\n', append: '\n---\n\n## B\n' },
  ];
  for (const c of ordinary) {
    test(`no false alarm: ${c.name}`, async () => {
      const t = setup();
      t.docs.file(A, c.file);
      await t.read();
      const r = await t.write(c.append, { append: true });
      assert.equal(r.data.status, 'ok', r.text);
      assert.equal(t.docs.text(A), c.file + c.append);
    });
  }

  test('the threshold: a block of fewer non-trivial lines or characters is no duplicate, the same block grown past it is', () => {
    // three non-trivial lines of 20 non-whitespace characters each reach both bounds
    const line = (i: number) => `line ${i} ${'w'.repeat(16 - String(i).length)}`;
    const block = Array.from({ length: DUPLICATE_MIN_LINES }, (_, i) => line(i));
    assert.equal(block.join('').replace(/\s/g, '').length, DUPLICATE_MIN_CHARS);
    assert.deepEqual(blockOf(`\n${block.join('\n')}\n\n`), block);
    assert.equal(blockOf(block.slice(1).join('\n')), undefined, 'one line too few');
    assert.equal(blockOf(`${block.join('\n').slice(0, -1)}`), undefined, 'one character too few');
    assert.equal(blockOf(`${block.join('\n}\n')}`.replace(/^line 0.*$/m, '---')), undefined, 'a trivial line does not count');
  });

  test('an overwrite that keeps the old text and adds the same section again is refused duplicate', async () => {
    const t = setup();
    const text = `${HEAD}\n${SECTION}\n\n## Later\nmore text\n`;
    t.docs.file(A, text);
    await t.read();
    const r = await t.write(`${HEAD}\n${SECTION}\n\n${SECTION}\n\n## Later\nmore text\n`);
    assert.equal(r.data.reason, 'duplicate');
    assert.deepEqual(r.data.duplicateLines, { start: 5, end: 9 });
    assert.match(r.text, /Your write would keep lines 5–9/);
    assert.equal(t.docs.text(A), text);
    assert.equal((await t.write(`${HEAD}\n${SECTION}\n\n${SECTION}\n\n## Later\nmore text\n`, { allowDuplicate: true })).data.status, 'ok');
  });

  test('an overwrite with new content that shares a section with the file once is not refused', async () => {
    const t = setup();
    t.docs.file(A, `${HEAD}\n${SECTION}\n`);
    await t.read();
    const next = `# Rewritten\n\nAll new words here.\n\n${SECTION}\n\n## Another part\nwith its own text\n`;
    const r = await t.write(next);
    assert.equal(r.data.status, 'ok', r.text);
    assert.equal(t.docs.text(A), next);
  });

  test('an overwrite that edits a section in place (the file held it once, it still does) is not refused', async () => {
    const t = setup();
    t.docs.file(A, `${HEAD}\n${SECTION}\n`);
    await t.read();
    const next = `${HEAD}\n${SECTION.replace('clean checkout', 'fresh clone')}\n`;
    assert.equal((await t.write(next)).data.status, 'ok');
  });

  test('an overwrite that drops the lines around a section (the file held it once, it still does) is not refused', async () => {
    const t = setup();
    t.docs.file(A, `${HEAD}old intro\n${SECTION}\nold outro\n## End\n`);
    await t.read();
    const next = `${HEAD}${SECTION}\n## End\n`;
    assert.equal((await t.write(next)).data.status, 'ok');
    assert.equal(t.docs.text(A), next);
  });

  test('a file that held the block twice may keep it twice: only a write that adds a copy is refused', async () => {
    const t = setup();
    t.docs.file(A, `${SECTION}\n\nfirst\n${SECTION}\nsecond\n`);
    await t.read();
    assert.equal((await t.write(`${SECTION}\n\n${SECTION}\n`)).data.status, 'ok');
    const r = await t.write(`${SECTION}\n\n${SECTION}\n\n${SECTION}\n`);
    assert.equal(r.data.reason, 'duplicate');
    assert.match(r.text, /it stands there 2 times/);
  });

  test('gate off (rule 8): no duplicate check', async () => {
    const t = setup({ enabled: false });
    t.docs.file(A, `${SECTION}\n`);
    const r = await t.write(`${SECTION}\n`, { append: true });
    assert.equal(r.data.status, 'ok');
    assert.equal(t.docs.text(A), `${SECTION}\n${SECTION}\n`);
  });

  test('the gate comes first: not-read and changed win over duplicate', async () => {
    const t = setup();
    t.docs.file(A, `${SECTION}\n`);
    assert.equal((await t.write(`${SECTION}\n`, { append: true })).data.reason, 'not-read');
    // that refusal showed the text; now the user changes it
    t.docs.userEdit(A, `${SECTION}\nuser line\n`);
    assert.equal((await t.write(`${SECTION}\n`, { append: true })).data.reason, 'changed');
    // and once seen, the same append is a duplicate
    assert.equal((await t.write(`${SECTION}\n`, { append: true })).data.reason, 'duplicate');
    assert.equal(t.docs.text(A), `${SECTION}\nuser line\n`);
  });

  test('own-write-expired wins too: in the next turn the gate refuses first; once it has shown the text, the append is a duplicate', async () => {
    const t = setup();
    t.docs.file(A, HEAD);
    await t.read('T1');
    await t.write(`${SECTION}\n`, { append: true, turn: 'T1' });
    assert.equal((await t.write(`${SECTION}\n`, { append: true, turn: 'T2' })).data.reason, 'own-write-expired');
    // that refusal showed the whole text (a mark of it): now the append is a duplicate
    assert.equal((await t.write(`${SECTION}\n`, { append: true, turn: 'T2' })).data.reason, 'duplicate');
  });

  test('a long section (over 4 KB, the quick first-line test first) appended again is refused too', async () => {
    const t = setup();
    const long = Array.from({ length: 120 }, (_, i) => `- item ${i}: a line of the long section, written once`).join('\n');
    assert.ok(long.length > 4096);
    t.docs.file(A, `${HEAD}${long}\n`);
    await t.read();
    const r = await t.write(`${long}\n`, { append: true });
    assert.equal(r.data.reason, 'duplicate');
    assert.deepEqual(r.data.duplicateLines, { start: 4, end: 123 });
  });

  test('the search: whole lines only, the first place named, the count given', () => {
    const text = `pre ${SECTION}\n\n${SECTION}\nmid\n${SECTION}\n`;
    const found = findAppendDuplicate(text, `${SECTION}\n`);
    // not at line 1, where the section's first line is only the end of a line
    assert.deepEqual(found && { start: found.start, end: found.end, count: found.count }, { start: 7, end: 11, count: 2 });
    assert.match(findWriteDuplicate(text, `${text}${SECTION}\n`) ? 'found' : '', /found/);
    assert.equal(findAppendDuplicate(`${SECTION}x\n`, `${SECTION}\n`), undefined, 'a last line with more on it is another line');
  });
});
