import * as assert from 'node:assert/strict';
import { applySpanEdits, changedLinesOf, firstMissingQuote, planReplace, type TextSpanEdit } from '../../src/core/replace';
import { foldLineEnds } from '../../src/core/text';

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

suite('the lines a change covers (changedLinesOf: the link under a call in the chat)', () => {
  const span = (text: string, edits: TextSpanEdit[]) => changedLinesOf(edits, applySpanEdits(text, edits));
  const at = (text: string, needle: string) => text.indexOf(needle);

  test('one line, several lines, a deletion, edits in any order: first edit to last, in the new text', () => {
    const text = 'a\nb\nc\nd\ne\n';
    assert.deepEqual(span(text, [{ start: at(text, 'b'), end: at(text, 'b') + 1, text: 'B' }]), { start: 2, end: 2 });
    assert.deepEqual(span(text, [{ start: at(text, 'b'), end: at(text, 'b') + 1, text: 'B1\nB2\nB3' }]), { start: 2, end: 4 });
    // a replacement that ends with its own line break covers its lines, not the next one
    assert.deepEqual(span(text, [{ start: at(text, 'b'), end: at(text, 'b') + 2, text: 'B1\nB2\n' }]), { start: 2, end: 3 });
    // deleting line b: the line it joined (c, now line 2)
    assert.deepEqual(span(text, [{ start: at(text, 'b'), end: at(text, 'c'), text: '' }]), { start: 2, end: 2 });
    const d = at(text, 'd');
    const b = at(text, 'b');
    // two edits, the later one given first; the first one adds a line, so d moves to line 5
    assert.deepEqual(
      span(text, [
        { start: d, end: d + 1, text: 'D' },
        { start: b, end: b + 1, text: 'B\nB' },
      ]),
      { start: 2, end: 5 },
    );
  });

  test('CRLF text counts lines alike; an append covers the appended lines', () => {
    const text = 'a\r\nb\r\nc\r\n';
    assert.deepEqual(span(text, [{ start: at(text, 'c'), end: at(text, 'c') + 1, text: 'C' }]), { start: 3, end: 3 });
    assert.deepEqual(span('a\nb\n', [{ start: 4, end: 4, text: 'c\nd\n' }]), { start: 3, end: 4 });
    // an append to a last line without a break continues that line
    assert.deepEqual(span('a\nb', [{ start: 3, end: 3, text: 'c' }]), { start: 2, end: 2 });
  });

  test('the whole file (an overwrite, a one-line file, an empty file) is no span', () => {
    assert.equal(span('a\nb\n', [{ start: 0, end: 4, text: 'x\ny\nz\n' }]), undefined);
    assert.equal(span('one', [{ start: 0, end: 3, text: 'two' }]), undefined);
    assert.equal(span('', [{ start: 0, end: 0, text: '' }]), undefined);
    assert.equal(changedLinesOf([], 'a\nb\n'), undefined);
  });
});

suite('rule 12: does a quote stand in the text as written (firstMissingQuote)', () => {
  const FILE = 'function sum(a, b) {\n  const total = a + b;\n  return total;\n}\n';

  test('an exact quote, whole lines or part of a line, stands in the text', () => {
    assert.equal(firstMissingQuote(FILE, ['  const total = a + b;\n  return total;\n']), undefined);
    assert.equal(
      firstMissingQuote(FILE, ['total = a']),
      undefined,
      "a quote may start and end inside a line, as the tool's exact match allows",
    );
    assert.equal(firstMissingQuote(FILE, [FILE]), undefined);
  });

  test('line endings are folded on both sides: an LF quote in a CRLF text, a CRLF quote in an LF text', () => {
    const crlf = FILE.replace(/\n/g, '\r\n');
    assert.equal(firstMissingQuote(crlf, ['{\n  const total = a + b;\n']), undefined);
    assert.equal(firstMissingQuote(FILE, ['{\r\n  const total = a + b;\r\n']), undefined);
  });

  test('spaces and tabs at line ends are ignored on both sides', () => {
    const trailing = FILE.replace('a + b;\n', 'a + b;  \t\n');
    assert.equal(firstMissingQuote(trailing, ['  const total = a + b;\n  return total;']), undefined, 'the file has them, the quote not');
    assert.equal(firstMissingQuote(FILE, ['  const total = a + b; \n  return total;\t']), undefined, 'the quote has them, the file not');
    assert.equal(firstMissingQuote(trailing.replace(/\n/g, '\r\n'), ['a + b;\n']), undefined, 'and before a CRLF');
  });

  test('a quote that differs in one line is missing: the stale copy the tool would still match by similarity', () => {
    const edited = FILE.replace('a + b', 'a + b + 0');
    const stale = '{\n  const total = a + b;\n  return total;\n}';
    assert.equal(firstMissingQuote(edited, [stale]), stale);
  });

  test('a quote whose indentation differs is missing (the tool would re-indent those lines)', () => {
    const quote = '    const total = a + b;\n    return total;';
    assert.equal(firstMissingQuote(FILE, [quote]), quote);
    assert.equal(firstMissingQuote(FILE, ['\tconst total = a + b;']), '\tconst total = a + b;');
  });

  test('the first missing quote of several is named; an empty quote is not looked for', () => {
    assert.equal(firstMissingQuote(FILE, ['', 'return total;', 'return sum;', 'nope']), 'return sum;');
    assert.equal(firstMissingQuote(FILE, ['']), undefined);
    assert.equal(firstMissingQuote('', ['x']), 'x');
  });

  test('foldLineEnds: blanks and carriage returns at each line end dropped, nothing else; a text without them is itself', () => {
    assert.equal(foldLineEnds('a \r\n\tb\t\n c \r'), 'a\n\tb\n c');
    assert.equal(foldLineEnds('a\u00a0\n'), 'a\u00a0\n', "only spaces and tabs, as the tool's fuzzy match");
    const clean = 'one\ntwo three\n';
    assert.equal(foldLineEnds(clean), clean);
    const longRun = `${' '.repeat(200_000)}x\n`;
    assert.equal(foldLineEnds(`${longRun}  `), longRun, 'a long run of blanks inside a line stays');
  });
});
