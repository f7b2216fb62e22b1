// Files that are hard to treat as text (docs/design.md §Documents) — binary, too large for the extension host,
// notebooks, other encodings and BOMs, empty, no final newline, mixed line endings, very long
// lines — through vscode.lm.invokeTool in the real host. Refusals leave the bytes as they were;
// edits change only what they should, byte for byte on disk.
import * as assert from 'assert';
import * as fs from 'fs';
import {
  activateExtension,
  cleanUp,
  diskBytes,
  diskText,
  docFor,
  expectStatus,
  makeFile,
  numberedLines,
  READ,
  readFile,
  REPLACE,
  replaceString,
  setConfig,
  type TestFile,
  WRITE,
  writeFile,
} from './helpers';
import { assertUnchanged, invokeRaw, stateOf } from './reliabilityHelpers';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000100' +
    '05fe02fe0000000049454e44ae426082',
  'hex',
);

async function refusesEveryTool(f: TestFile, code: string, says: RegExp): Promise<void> {
  const before = stateOf(f);
  for (const [tool, input] of [
    [READ, { filePath: f.rel }],
    [WRITE, { filePath: f.rel, content: 'text\n' }],
    [WRITE, { filePath: f.rel, content: 'text\n', append: true }],
    [REPLACE, { filePath: f.rel, oldString: 'a', newString: 'b' }],
  ] as const) {
    const out = await invokeRaw(tool, input);
    expectStatus(out, 'error', { code });
    assert.match(out.text, says, `${tool}: the message says what is wrong:\n${out.text.slice(0, 400)}`);
    assertUnchanged(f, before, `${tool} on ${f.rel}`);
  }
}

suite('hard files', () => {
  suiteSetup(async () => {
    await activateExtension();
  });
  teardown(cleanUp);

  test('a PNG is binary: every tool refuses it, the bytes stay', async () => {
    const f = makeFile('image', PNG, '.png');
    await refusesEveryTool(f, 'binary', /binary/i);
  });

  test('a .txt full of NUL bytes is binary too', async () => {
    const f = makeFile('nuls', Buffer.concat([Buffer.from('head\n'), Buffer.alloc(64, 0), Buffer.from('\ntail\n')]));
    await refusesEveryTool(f, 'binary', /binary/i);
  });

  test('a file over 50 MiB is too-large for every tool, and the message names the limit', async function () {
    const f = makeFile('huge', 'x');
    // 51 MiB of real text lines
    const line = 'abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz\n';
    const chunk = line.repeat(Math.ceil((1024 * 1024) / line.length));
    const fd = fs.openSync(f.abs, 'w');
    for (let i = 0; i < 51; i++) fs.writeSync(fd, chunk);
    fs.closeSync(fd);
    try {
      assert.ok(fs.statSync(f.abs).size > 50 * 1024 * 1024);
      const sizeBefore = fs.statSync(f.abs).size;
      const mtimeBefore = fs.statSync(f.abs).mtimeMs;
      for (const [tool, input] of [
        [READ, { filePath: f.rel }],
        [WRITE, { filePath: f.rel, content: 'small\n' }],
        [REPLACE, { filePath: f.rel, oldString: 'abc', newString: 'x', replaceAll: true }],
      ] as const) {
        const out = await invokeRaw(tool, input);
        expectStatus(out, 'error', { code: 'too-large' });
        assert.match(out.text, /50(\.0)? MiB/, `${tool}: names the limit:\n${out.text}`);
        assert.strictEqual(fs.statSync(f.abs).size, sizeBefore, `${tool}: size unchanged`);
        assert.strictEqual(fs.statSync(f.abs).mtimeMs, mtimeBefore, `${tool}: not rewritten`);
      }
    } finally {
      fs.rmSync(f.abs, { force: true });
    }
  });

  test('a notebook: reads show its raw JSON; write, append and replace are refused naming "notebook"; the JSON is intact', async () => {
    const json =
      JSON.stringify(
        { cells: [{ cell_type: 'markdown', metadata: {}, source: ['# Title\n'] }], metadata: {}, nbformat: 4, nbformat_minor: 5 },
        null,
        1,
      ) + '\n';
    const f = makeFile('notebook', json, '.ipynb');
    const read = await readFile(f.rel);
    expectStatus(read, 'ok');
    assert.ok(
      numberedLines(read.text).some(([, l]) => l.includes('"nbformat": 4')),
      `the read shows the raw JSON:\n${read.text}`,
    );
    const before = stateOf(f);
    for (const [tool, input] of [
      [WRITE, { filePath: f.rel, content: '{}' }],
      [WRITE, { filePath: f.rel, content: '\n', append: true }],
      [REPLACE, { filePath: f.rel, oldString: '# Title', newString: '# Changed' }],
    ] as const) {
      const out = await invokeRaw(tool, input);
      expectStatus(out, 'error', { code: 'invalid-input' });
      assert.match(out.text, /notebook/i);
      assertUnchanged(f, before, `${tool} on a notebook`);
    }
    assert.doesNotThrow(() => JSON.parse(diskText(f)), 'the notebook is still valid JSON');
  });

  test('UTF-16LE with BOM: a replace keeps the encoding and the BOM (bytes on disk)', async () => {
    const enc = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
    const f = makeFile('utf16', enc('hello\nwörld\n'));
    const read = await readFile(f.rel);
    expectStatus(read, 'ok');
    assert.deepStrictEqual(
      numberedLines(read.text),
      [
        [1, 'hello'],
        [2, 'wörld'],
      ],
      `the read decodes UTF-16:\n${read.text}`,
    );
    expectStatus(await replaceString(f.rel, 'wörld', 'wörld – ünïcode'), 'ok');
    assert.deepStrictEqual(diskBytes(f), enc('hello\nwörld – ünïcode\n'), `disk is UTF-16LE with BOM: ${diskBytes(f).toString('hex')}`);
  });

  test('UTF-8 with BOM: a replace keeps the BOM', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const f = makeFile('utf8bom', Buffer.concat([bom, Buffer.from('first\nsecond\n')]));
    expectStatus(await readFile(f.rel), 'ok');
    expectStatus(await replaceString(f.rel, 'second', 'zweite'), 'ok');
    assert.deepStrictEqual(diskBytes(f), Buffer.concat([bom, Buffer.from('first\nzweite\n')]));
  });

  test('windows-1252 set by files.encoding: a replace writes windows-1252 bytes, not UTF-8', async () => {
    await setConfig('files', 'encoding', 'windows1252');
    const f = makeFile('cp1252', Buffer.from('caf\xe9 cr\xe8me\nna\xefve\n', 'latin1'));
    const read = await readFile(f.rel);
    expectStatus(read, 'ok');
    assert.deepStrictEqual(
      numberedLines(read.text),
      [
        [1, 'café crème'],
        [2, 'naïve'],
      ],
      `decoded as windows-1252:\n${read.text}`,
    );
    expectStatus(await replaceString(f.rel, 'naïve', 'déjà vu'), 'ok');
    assert.deepStrictEqual(
      diskBytes(f),
      Buffer.from('caf\xe9 cr\xe8me\nd\xe9j\xe0 vu\n', 'latin1'),
      `disk bytes: ${diskBytes(f).toString('hex')}`,
    );
    assert.strictEqual(docFor(f)?.encoding, 'windows1252');
  });

  test('an empty file: the read says empty; replace (empty oldString), write and append work', async () => {
    const f = makeFile('empty', '');
    const read = await readFile(f.rel);
    const json = expectStatus(read, 'ok');
    assert.match(read.text, /empty/i);
    assert.strictEqual(json.totalLines, 0);
    expectStatus(await replaceString(f.rel, '', 'first line\n'), 'ok');
    assert.strictEqual(diskText(f), 'first line\n');

    const g = makeFile('empty-append', '');
    expectStatus(await readFile(g.rel), 'ok');
    expectStatus(await writeFile(g.rel, 'appended\n', true), 'ok');
    assert.strictEqual(diskText(g), 'appended\n');

    const h = makeFile('empty-write', '');
    expectStatus(await readFile(h.rel), 'ok');
    expectStatus(await writeFile(h.rel, 'written'), 'ok');
    assert.strictEqual(diskText(h), 'written');
  });

  test('no final newline: replace on the last line and append keep exactly the bytes asked for', async () => {
    const f = makeFile('no-eol', 'one\ntwo');
    const read = await readFile(f.rel);
    assert.deepStrictEqual(numberedLines(read.text), [
      [1, 'one'],
      [2, 'two'],
    ]);
    expectStatus(await replaceString(f.rel, 'two', 'TWO'), 'ok');
    assert.strictEqual(diskText(f), 'one\nTWO', 'no newline was added');
    expectStatus(await readFile(f.rel), 'ok');
    expectStatus(await writeFile(f.rel, '!', true), 'ok');
    assert.strictEqual(diskText(f), 'one\nTWO!', 'append adds exactly its content');
  });

  test('mixed line endings: VS Code holds one line ending; the read and the write say so, and only the matched text changes', async () => {
    // VS Code gives a document one line ending (here CRLF, the majority) and writes it on save, as for
    // any edit made in the editor; the tools must not mistake that for a change on disk, and must say it
    const original = 'a\r\nb\nc\r\nd\ne\r\n';
    const f = makeFile('mixed-eol', original);
    const read = await readFile(f.rel);
    expectStatus(read, 'ok');
    assert.match(read.text, /mixed line endings \(or lone carriage returns\) on disk; VS Code holds it with CRLF only/, read.text);
    const out = await replaceString(f.rel, 'c', 'C');
    expectStatus(out, 'ok');
    assert.match(
      out.text,
      /mixed line endings \(or lone carriage returns\) on disk; VS Code holds it with CRLF only, and saving writes every line that way/,
      out.text,
    );
    assert.strictEqual(
      JSON.stringify(diskBytes(f).toString('latin1')),
      JSON.stringify('a\r\nb\r\nC\r\nd\r\ne\r\n'),
      'only "c" changed, with the line endings VS Code holds',
    );
  });

  test('a 100 000-character line: the read shows it whole or says it was cut, never silently; a replace in its middle is exact', async () => {
    const long = 'x'.repeat(50_000) + 'NEEDLE' + 'y'.repeat(49_994);
    assert.strictEqual(long.length, 100_000);
    const f = makeFile('long-line', `short\n${long}\nend\n`);
    const read = await readFile(f.rel);
    const json = expectStatus(read, 'ok');
    const rows = numberedLines(read.text);
    assert.deepStrictEqual(rows[0], [1, 'short']);
    const shownLong = rows.find(([n]) => n === 2)?.[1];
    if (shownLong !== long) {
      // cut to keep the result readable: the result must say so and how to go on
      assert.ok(
        json.truncated === true || /line cut/i.test(read.text),
        `a cut read says it was cut (json.truncated or "line cut"):\n${read.text.slice(0, 600)}`,
      );
      assert.match(read.text, /offset|line cut/i, 'and how to read the rest');
      const ranged = await readFile(f.rel, { offset: 2, limit: 1 });
      expectStatus(ranged, 'ok');
      const row = numberedLines(ranged.text).find(([n]) => n === 2)?.[1] ?? '';
      assert.ok(
        row === long || (long.startsWith(row.replace(/ … \(line cut: \d+ characters\)$/, '')) && /line cut: 100000 characters/.test(row)),
        `line 2 is shown whole, or its start with its length:\n${row.slice(-120)}`,
      );
    }
    expectStatus(await replaceString(f.rel, 'NEEDLE', 'pin'), 'ok');
    assert.strictEqual(diskText(f), `short\n${long.replace('NEEDLE', 'pin')}\nend\n`);
  });
});
