import * as assert from 'node:assert/strict';
import { renderNumbered } from '../../src/core/render';
import { changedLineRanges, unifiedDiff } from '../../src/core/diff';
import { cutNote, rangeHeader, SEEN_DIFF_LABELS } from '../../src/core/messages';

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

suite('numbered rendering', () => {
  test('numbers every line, right-aligned, tab-separated', () => {
    const r = renderNumbered(lines(10), { maxLines: 2000 });
    assert.equal(r.body.split('\n')[0], ' 1\tline 1');
    assert.equal(r.body.split('\n')[9], '10\tline 10');
    assert.deepEqual([r.startLine, r.endLine, r.totalLines, r.truncated], [1, 10, 10, false]);
  });

  test('offset and limit select a range and say more exists', () => {
    const r = renderNumbered(lines(10), { offset: 3, limit: 2, maxLines: 2000 });
    assert.equal(r.body, '3\tline 3\n4\tline 4');
    assert.equal(r.truncated, true);
    assert.equal(r.cut, 'limit');
  });

  test('the line cap cuts output and says so', () => {
    const r = renderNumbered(lines(50), { maxLines: 20 });
    assert.deepEqual([r.startLine, r.endLine, r.truncated, r.cut], [1, 20, true, 'lines']);
  });

  test('the character budget cuts output at a whole line and says so', () => {
    const r = renderNumbered(lines(1000), { maxLines: 2000, maxChars: 500 });
    assert.ok(r.body.length <= 500, `${r.body.length} characters`);
    assert.equal(r.cut, 'chars');
    assert.equal(r.body.split('\n').at(-1), `${String(r.endLine).padStart(String(r.endLine).length)}\tline ${r.endLine}`);
  });

  test('a single line longer than the budget is shown whole, alone', () => {
    const r = renderNumbered('x'.repeat(100_000) + '\nnext\n', { maxLines: 10, maxChars: 1000 });
    assert.equal(r.endLine, 1);
    assert.equal(r.longLine, true);
    assert.equal(r.body, '1\t' + 'x'.repeat(100_000));
    assert.equal(r.cut, 'chars');
  });

  test('CRLF lines and a missing final newline', () => {
    const r = renderNumbered('a\r\nb', { maxLines: 10 });
    assert.equal(r.body, '1\ta\n2\tb');
    assert.equal(r.totalLines, 2);
  });

  test('an empty file has no lines', () => {
    assert.equal(renderNumbered('', { maxLines: 10 }).totalLines, 0);
  });
});

suite('diffs', () => {
  test('a unified diff shows the change with context', () => {
    const d = unifiedDiff('a\nb\nc\n', 'a\nB\nc\n', 'f.txt', SEEN_DIFF_LABELS);
    assert.match(d.text, /^--- f\.txt/);
    assert.match(d.text, /@@ -1,3 \+1,3 @@/);
    assert.match(d.text, /^-b$/m);
    assert.match(d.text, /^\+B$/m);
  });

  test('a long diff is cut at maxLines and says how much was left out', () => {
    const d = unifiedDiff(lines(100), lines(100).replace(/line/g, 'LINE'), 'f', SEEN_DIFF_LABELS, 50);
    assert.equal(d.text.split('\n').length, 50);
    assert.ok(d.omittedLines > 0);
  });

  test('CRLF against LF alone is no line change', () => {
    assert.deepEqual(changedLineRanges('a\nb\n', 'a\r\nb\r\n'), []);
  });

  test('changed line ranges point at the new text (0-based)', () => {
    assert.deepEqual(changedLineRanges('a\nb\nc\nd\n', 'a\nX\nc\nd\nE\n'), [
      { start: 1, end: 1 },
      { start: 4, end: 4 },
    ]);
  });

  test('a deletion marks the line where it happened', () => {
    assert.deepEqual(changedLineRanges('a\nb\nc\n', 'a\nc\n'), [{ start: 1, end: 1 }]);
  });
});

suite('result wording', () => {
  test('headers say which lines, and that the numbers are not file text', () => {
    const whole = renderNumbered('a\n', { maxLines: 10 });
    assert.equal(
      rangeHeader('f.txt', whole),
      'f.txt (1 line; each line starts with its number and a tab, which are not part of the file):',
    );
    const part = renderNumbered(lines(30), { offset: 5, limit: 3, maxLines: 10 });
    assert.equal(
      rangeHeader('f.txt', part),
      'f.txt, lines 5–7 of 30 (each line starts with its number and a tab, which are not part of the file):',
    );
    assert.equal(cutNote(part, 10, 7000), '\nLines 8–30 are not shown. Next: editGuard_readFile with offset: 8.');
  });
});
