import * as assert from 'node:assert/strict';
import { renderNumbered } from '../../src/core/render';
import { changedLineRanges, unifiedDiff } from '../../src/core/diff';

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
    assert.equal(r.cutByCap, false);
  });

  test('the line cap cuts output and says so', () => {
    const r = renderNumbered(lines(50), { maxLines: 20 });
    assert.deepEqual([r.startLine, r.endLine, r.truncated, r.cutByCap], [1, 20, true, true]);
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
    const d = unifiedDiff('a\nb\nc\n', 'a\nB\nc\n', 'f.txt');
    assert.match(d.text, /^--- f\.txt/);
    assert.match(d.text, /@@ -1,3 \+1,3 @@/);
    assert.match(d.text, /^-b$/m);
    assert.match(d.text, /^\+B$/m);
  });

  test('a long diff is cut at maxLines and says how much was left out', () => {
    const d = unifiedDiff(lines(100), lines(100).replace(/line/g, 'LINE'), 'f', 50);
    assert.equal(d.text.split('\n').length, 50);
    assert.ok(d.omittedLines > 0);
  });

  test('CRLF against LF alone is no line change', () => {
    assert.deepEqual(changedLineRanges('a\nb\n', 'a\r\nb\r\n'), []);
  });

  test('changed line ranges point at the new text (0-based)', () => {
    assert.deepEqual(changedLineRanges('a\nb\nc\nd\n', 'a\nX\nc\nd\nE\n'), [{ start: 1, end: 1 }, { start: 4, end: 4 }]);
  });

  test('a deletion marks the line where it happened', () => {
    assert.deepEqual(changedLineRanges('a\nb\nc\n', 'a\nc\n'), [{ start: 1, end: 1 }]);
  });
});
