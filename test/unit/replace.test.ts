import * as assert from 'node:assert/strict';
import { planReplace } from '../../src/core/replace';

function apply(text: string, oldString: string, newString: string, replaceAll = false): string {
  const plan = planReplace(text, oldString, newString, replaceAll);
  assert.equal(plan.kind, 'ok', JSON.stringify(plan));
  return plan.kind === 'ok' ? plan.newText : '';
}

suite('replace matching', () => {
  test('exact text, once', () => {
    assert.equal(apply('a\nb\nc\n', 'b\n', 'B\n'), 'a\nB\nc\n');
  });

  test('a \\n oldString matches a CRLF document, which stays CRLF', () => {
    const doc = 'one\r\ntwo\r\nthree\r\n';
    const out = apply(doc, 'one\ntwo\n', 'uno\ndos\n');
    assert.equal(out, 'uno\r\ndos\r\nthree\r\n');
  });

  test('in a mixed-ending file only the matched bytes change', () => {
    const doc = 'a\r\nb\nc\r\nd\r\n';
    assert.equal(apply(doc, 'b\nc', 'X'), 'a\r\nX\r\nd\r\n');
  });

  test('a match that ends at a CRLF covers it whole (no stray \\r)', () => {
    assert.equal(apply('x\r\ny\r\n', 'x\n', ''), 'y\r\n');
  });

  test('ambiguous: counts matches and names their lines', () => {
    const plan = planReplace('foo\nbar\nfoo\nfoo\n', 'foo', 'baz');
    assert.deepEqual(plan, { kind: 'ambiguous', count: 3, lines: [1, 3, 4] });
  });

  test('replaceAll changes every occurrence', () => {
    const plan = planReplace('foo\nbar\nfoo\n', 'foo', 'baz', true);
    assert.equal(plan.kind, 'ok');
    if (plan.kind === 'ok') {
      assert.equal(plan.count, 2);
      assert.equal(plan.newText, 'baz\nbar\nbaz\n');
    }
  });

  test('no match with different indentation points at the region and shows its lines', () => {
    const plan = planReplace('def f():\n    return 1\n', 'def f():\n  return 1', 'x');
    assert.equal(plan.kind, 'no-match');
    if (plan.kind === 'no-match') {
      assert.match(plan.detail, /lines 1–2, but with different whitespace/);
      assert.match(plan.detail, /2\t {4}return 1/);
    }
  });

  test('no match where only the first line matches says where', () => {
    const plan = planReplace('a\nb\nc\nd\n', 'b\nX', 'y');
    assert.equal(plan.kind, 'no-match');
    if (plan.kind === 'no-match') assert.match(plan.detail, /first line of oldString matches line 2/);
  });

  test('oldString pasted with line-number prefixes is detected', () => {
    const plan = planReplace('alpha\nbeta\n', '1\talpha\n2\tbeta', 'x');
    assert.equal(plan.kind, 'no-match');
    if (plan.kind === 'no-match') assert.match(plan.detail, /line numbers.*not part of the file.*does occur/s);
  });

  test('nothing similar: says so', () => {
    const plan = planReplace('a\n', 'zzz', 'y');
    assert.equal(plan.kind, 'no-match');
  });

  test('identical oldString and newString, and an empty oldString, are invalid', () => {
    assert.equal(planReplace('a', 'a', 'a').kind, 'invalid');
    assert.equal(planReplace('a', '', 'b').kind, 'invalid');
    assert.deepEqual(planReplace('', '', 'b').kind, 'ok', 'an empty file can be filled');
  });
});
